// bench_file: each measurement runs about `seconds`; the batch rows are timed
// after a warm-up, in calls of about a quarter of that time each.
#include "polyrt/bench.hpp"

#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "polyrt/batch.hpp"
#include "polyrt/devices.hpp"
#include "scheduler/encoding/row_format.hpp"

namespace polyrt {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

const char* engine_name(Engine e) {
  return e == Engine::Interpreter ? "interpreter" : e == Engine::Closures ? "closures" : "native";
}

// A compile timed twice: the first time (cold on an empty cache), then again.
BenchCompile time_compiles(const std::string& label, const std::function<void()>& compile) {
  BenchCompile row{label};
  Clock::time_point start = Clock::now();
  compile();
  row.cold_ms = 1e3 * since(start);
  start = Clock::now();
  compile();
  row.cached_ms = 1e3 * since(start);
  return row;
}

// Requests of every output for `seconds`: set_inputs and one pull per
// output, or (Request) one State::request, which takes scalar outputs only.
enum class RequestWay { Pulls, Request };

BenchState time_state(const std::shared_ptr<const Program>& program, const BenchOptions& job,
                      double seconds, RequestWay way) {
  State state = program->new_state();
  state.set_log_sink([](std::string_view) {});
  for (const auto& [name, value] : job.externs) state.set_input(name, value);
  std::vector<size_t> outputs;
  std::vector<bool> text;
  for (const std::string& name : job.outputs) {
    outputs.push_back(state.output_index(name));
    text.push_back(is_payload(program->output_type(outputs.back())));
  }
  std::vector<uint64_t> coordinates = job.coordinates;
  std::vector<uint64_t> words(outputs.size());
  std::vector<double> latencies;
  uint64_t sink = 0;
  const Clock::time_point start = Clock::now();
  while (since(start) < seconds) {
    for (int batch = 0; batch < 256; ++batch) {
      const Clock::time_point request = Clock::now();
      if (way == RequestWay::Request) {
        state.request(coordinates, outputs, words);
        for (uint64_t word : words) sink += word;
      } else {
        state.set_inputs(coordinates);
        for (size_t k = 0; k < outputs.size(); ++k) {
          sink += text[k] ? state.pull_ref(outputs[k]).text().size() : state.pull_word(outputs[k]);
        }
      }
      latencies.push_back(std::chrono::duration<double, std::nano>(Clock::now() - request).count());
      ++coordinates[0];
    }
  }
  const double elapsed = since(start);
  if (sink == 42) std::fputs("", stderr);  // keeps the pulls
  BenchState row{std::string(engine_name(program->options().engine)) +
                 (way == RequestWay::Request ? ", request" : "")};
  row.requests = latencies.size();
  const double pulls = (double)latencies.size() * (double)outputs.size();
  row.pulls_per_second = pulls / elapsed;
  row.ns_per_pull = 1e9 * elapsed / pulls;
  std::sort(latencies.begin(), latencies.end());
  const auto at = [&](double q) { return latencies[(size_t)(q * (double)(latencies.size() - 1))]; };
  row.p50_ns = at(0.5);
  row.p99_ns = at(0.99);
  row.p999_ns = at(0.999);
  return row;
}

BatchOptions batch_options(const BenchOptions& job, BatchOptions options) {
  options.outputs = job.outputs;
  options.coordinates = job.coordinates;
  options.externs = job.externs;
  return options;
}

BenchBatch time_batch(const std::shared_ptr<const Program>& program, const BenchOptions& job,
                      const BatchOptions& options) {
  const BatchEvaluator batch(program, batch_options(job, options));
  BenchBatch row;
  row.device = batch.device_name();
  row.devices = batch.device_shares().size();
  if (options.device.kind == BatchDevice::Cpu) {
    row.device +=
        ", " + std::to_string(options.threads) + (options.threads == 1 ? " thread" : " threads");
  }
  uint64_t bytes = 0, first = job.coordinates[0];
  uint64_t step = 1 << 20;
  batch.stream(first, step, [](const ColumnChunk&) {});  // warm-up: threads, buffers, speeds
  first += step;
  const Clock::time_point warm = Clock::now();
  batch.stream(first, step, [](const ColumnChunk&) {});
  first += step;
  // Each timed call then takes about a quarter of the time, so that the
  // start and end of a call (where devices wait for one another) weigh little.
  const double warm_rate = (double)step / std::max(since(warm), 1e-9);
  step = std::clamp((uint64_t)(warm_rate * job.seconds / 4), step, uint64_t{1} << 32);
  const Clock::time_point start = Clock::now();
  while (since(start) < job.seconds) {
    batch.stream(first, step, [&](const ColumnChunk& chunk) {
      for (const ColumnView& c : chunk.columns) {
        bytes += is_payload(c.type) ? (uint64_t)c.offsets[chunk.rows] : 8 * chunk.rows;
      }
    });
    first += step;
    row.rows += step;
  }
  const double elapsed = since(start);
  row.rows_per_second = (double)row.rows / elapsed;
  row.gb_per_second = (double)bytes / elapsed / 1e9;
  return row;
}

// The options completed and checked against the program.
BenchOptions checked(const Program& p, const std::string& file, BenchOptions job) {
  if (!(job.seconds > 0) || job.seconds > 3600) {
    throw WriteError("bench: seconds must be in (0, 3600], got " + std::to_string(job.seconds));
  }
  if (p.input_names().empty()) throw WriteError("bench: " + file + " declares no input to iterate");
  job.coordinates.resize(p.input_names().size(), 0);
  job.coordinates[0] = 0;
  if (job.outputs.empty()) job.outputs = p.output_names();
  if (job.outputs.empty()) throw WriteError("bench: " + file + " has no output");
  for (const std::string& name : job.outputs) p.require_output(name);
  return job;
}

std::string format(const char* pattern, auto... values) {
  char line[512];
  std::snprintf(line, sizeof line, pattern, values...);
  return line;
}

}  // namespace

BenchReport bench_file(const std::string& file, const BenchOptions& options) {
  return bench_program(
      file, [&](const CompileOptions& compile) { return compile_file(file, compile); }, options);
}

BenchReport bench_program(const std::string& name, const ProgramCompiler& compile_program,
                          const BenchOptions& options) {
  BenchReport report{.program = name, .seconds = options.seconds};
  std::vector<std::shared_ptr<const Program>> programs;
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    std::shared_ptr<const Program> program;
    report.compiles.push_back(time_compiles(engine_name(engine), [&] {
      CompileOptions compile = options.compile;
      compile.engine = engine;
      program = compile_program(compile);
    }));
    programs.push_back(program);
  }
  const BenchOptions job = checked(*programs.back(), name, options);
  report.warnings = programs.back()->warnings();
  try {
    report.compiles.push_back(time_compiles("batch kernels (cpu)", [&] {
      const BatchEvaluator batch(programs.back(), batch_options(job, {}));
    }));
  } catch (const RefusedError&) {
    // No batch kernels to time; the batch rows say why.
  }
  // The fastest way to serve a request of scalar outputs, on the native
  // tier: State::request.
  const Program& native = *programs.back();
  const bool request_row =
      std::none_of(job.outputs.begin(), job.outputs.end(), [&](const std::string& name) {
        return is_payload(native.output_type(native.require_output(name)));
      });
  const auto cores = (size_t)std::max(1, tbb::info::default_concurrency());
  const size_t threads = job.threads ? std::min(job.threads, cores) : cores;
  const std::vector<DeviceInfo> gpus = devices().of_kind(DeviceKind::Gpu);
  const size_t measurements =
      programs.size() + request_row + 1 + (threads > 1) + (gpus.empty() ? 0 : gpus.size() + 1);
  size_t measured = 0;
  const auto next = [&] {
    if (options.on_measure) options.on_measure(measured, measurements);
    ++measured;
  };
  for (const auto& program : programs) {
    next();
    report.states.push_back(time_state(program, job, job.seconds, RequestWay::Pulls));
  }
  if (request_row) {
    next();
    report.states.push_back(time_state(programs.back(), job, job.seconds, RequestWay::Request));
  }
  // A device that cannot run the batch (a side channel in an output's cone,
  // a GPU failing) gets a row saying why; the others are still measured.
  const auto measure = [&](const std::string& label, const BatchOptions& batch) {
    next();
    try {
      report.batches.push_back(time_batch(programs.back(), job, batch));
    } catch (const RefusedError& e) {
      report.batches.push_back(BenchBatch{.device = label, .skipped = e.what()});
    } catch (const DeviceError& e) {
      report.batches.push_back(BenchBatch{.device = label, .skipped = e.what()});
    }
  };
  measure("cpu, 1 thread", BatchOptions{.threads = 1});
  if (threads > 1) {
    measure("cpu, " + std::to_string(threads) + " threads", BatchOptions{.threads = threads});
  }
  // All devices together against the sum of each alone (the CPU on the same
  // threads): how much of the devices' speeds the balancing keeps. The ratio
  // means something only when every device ran alone and "all" ran on all
  // of them (it falls back to the CPU when no GPU is usable).
  bool every_device_ran = report.batches.back().skipped.empty();
  double alone = every_device_ran ? report.batches.back().rows_per_second : 0;
  if (!gpus.empty()) {
    for (const DeviceInfo& d : gpus) {
      measure("gpu " + std::to_string(d.index),
              BatchOptions{.device = DeviceChoice(BatchDevice::Gpu, d.index)});
      every_device_ran = every_device_ran && report.batches.back().skipped.empty();
      alone += report.batches.back().rows_per_second;
    }
    measure("all", BatchOptions{.threads = threads, .device = BatchDevice::All});
    const BenchBatch& all = report.batches.back();
    if (every_device_ran && all.skipped.empty() && all.devices == 1 + gpus.size() && alone > 0) {
      report.all_of_sum = all.rows_per_second / alone;
    }
  }
  return report;
}

std::string BenchReport::text() const {
  std::string out = format("%-48s %12s %12s\n", "compile", "cold ms", "cached ms");
  for (const BenchCompile& r : compiles) {
    out += format("%-48s %12.2f %12.2f\n", r.engine.c_str(), r.cold_ms, r.cached_ms);
  }
  out += format("\n%-48s %12s %12s %10s %10s %10s\n", "per state", "ns/pull", "pulls/s", "p50 ns",
                "p99 ns", "p99.9 ns");
  for (const BenchState& r : states) {
    out += format("%-48s %12.1f %12.4g %10.0f %10.0f %10.0f\n", r.engine.c_str(), r.ns_per_pull,
                  r.pulls_per_second, r.p50_ns, r.p99_ns, r.p999_ns);
  }
  out += format("\n%-48s %12s %12s\n", "batch", "rows/s", "GB/s");
  for (const BenchBatch& r : batches) {
    out += r.skipped.empty() ? format("%-48s %12.4g %12.3f\n", r.device.c_str(), r.rows_per_second,
                                      r.gb_per_second)
                             : format("%-48s skipped: ", r.device.c_str()) + r.skipped + "\n";
  }
  if (all_of_sum) {
    out += format("\nall devices together: %.1f %% of the sum of each device alone\n",
                  100 * *all_of_sum);
  }
  return out;
}

std::string BenchReport::json() const {
  std::string out =
      "{\"program\":" + scheduler::json_string(program) + ",\"seconds\":" + std::to_string(seconds);
  out += ",\"compile\":[";
  for (size_t i = 0; i < compiles.size(); ++i) {
    out += (i ? ",{" : "{") + std::string("\"engine\":") +
           scheduler::json_string(compiles[i].engine) +
           ",\"cold_ms\":" + std::to_string(compiles[i].cold_ms) +
           ",\"cached_ms\":" + std::to_string(compiles[i].cached_ms) + "}";
  }
  out += "],\"per_state\":[";
  for (size_t i = 0; i < states.size(); ++i) {
    const BenchState& r = states[i];
    out += (i ? ",{" : "{") + std::string("\"engine\":") + scheduler::json_string(r.engine) +
           ",\"ns_per_pull\":" + std::to_string(r.ns_per_pull) +
           ",\"pulls_per_second\":" + std::to_string(r.pulls_per_second) +
           ",\"requests\":" + std::to_string(r.requests) +
           ",\"p50_ns\":" + std::to_string(r.p50_ns) + ",\"p99_ns\":" + std::to_string(r.p99_ns) +
           ",\"p999_ns\":" + std::to_string(r.p999_ns) + "}";
  }
  out += "],\"batch\":[";
  for (size_t i = 0; i < batches.size(); ++i) {
    const BenchBatch& r = batches[i];
    out += (i ? ",{" : "{") + std::string("\"device\":") + scheduler::json_string(r.device) +
           ",\"rows\":" + std::to_string(r.rows) +
           ",\"rows_per_second\":" + std::to_string(r.rows_per_second) +
           ",\"gb_per_second\":" + std::to_string(r.gb_per_second) +
           (r.skipped.empty() ? "" : ",\"skipped\":" + scheduler::json_string(r.skipped)) + "}";
  }
  out += "]";
  if (all_of_sum) out += ",\"all_of_sum\":" + std::to_string(*all_of_sum);
  return out + "}\n";
}

}  // namespace polyrt

// polyrt bench: one program measured on every tier and device of this
// machine, each for a fixed time: compile times, the per-state tiers (pulls
// and per-request latency) and the batch tier (rows/s, output GB/s).
#include <stdlib.h>
#include <tbb/info.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>

#include "cli/command_line.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/devices.hpp"
#include "scheduler/output/row_format.hpp"

namespace polyrt::cli {

namespace {

const char* kBenchUsage =
    "usage: polyrt bench FILE [--seconds S] [--outputs a,b,...] [--set NAME=VALUE]... [--json]\n"
    "                    [--threads N] [--lib DIR]...\n\n"
    "Measures FILE on every tier and device here, each for about S seconds (default 0.5),\n"
    "iterating the first input from 0 (other inputs and externs from --set):\n"
    "  compile    cold (an empty cache) and cached (compiled again in this process), per engine\n"
    "  per state  interpreter, closures, native: ns per pull, pulls/s, and the latency of one\n"
    "             request (set the inputs, pull every output): p50, p99, p99.9\n"
    "  batch      rows/s and output GB/s on 1 thread, on N threads (--threads, default every\n"
    "             core), on each GPU and on all devices together (the CPU's part on N threads),\n"
    "             and what all together make of the sum of each device alone\n"
    "Numbers from one run are comparable; --json prints them for machines.\n";

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Settings {
  std::string file;
  double seconds = 0.5;
  size_t threads = 0;  // the CPU's threads beyond the 1-thread row, and in all's; 0: every core
  std::vector<std::string> outputs;  // empty: every output
  std::vector<std::pair<std::string, std::string>> sets;
  CompileOptions compile;  // --lib
};

struct CompileRow {
  std::string engine;
  double cold_ms = 0, cached_ms = 0;
};

struct StateRow {
  std::string engine;
  double ns_per_pull = 0, pulls_per_second = 0;
  double p50_ns = 0, p99_ns = 0, p999_ns = 0;
  uint64_t requests = 0;
};

struct BatchRow {
  std::string device;
  double rows_per_second = 0, gb_per_second = 0;
  uint64_t rows = 0;
  std::string skipped;  // why the device could not run the batch (a side channel, ...)
  size_t devices = 0;   // how many devices ran it
};

struct Job {
  std::vector<uint64_t> coordinates;
  std::vector<std::pair<std::string, Value>> externs;
  std::vector<std::string> outputs;
};

const char* engine_name(Engine e) {
  return e == Engine::Interpreter ? "interpreter" : e == Engine::Closures ? "closures" : "native";
}

// A compile timed twice: into an empty cache directory, then again.
CompileRow time_compiles(const std::string& label, const std::function<void()>& compile) {
  CompileRow row{label};
  Clock::time_point start = Clock::now();
  compile();
  row.cold_ms = 1e3 * since(start);
  start = Clock::now();
  compile();
  row.cached_ms = 1e3 * since(start);
  return row;
}

StateRow time_state(const std::shared_ptr<const Program>& program, const Job& job, double seconds) {
  State state = program->new_state();
  state.set_log_sink([](std::string_view) {});
  for (const auto& [name, value] : job.externs) state.set_input(name, value);
  std::vector<size_t> outputs;
  std::vector<bool> text;
  for (const std::string& name : job.outputs) {
    outputs.push_back(state.output_index(name));
    text.push_back(is_text(program->output_type(outputs.back())));
  }
  std::vector<uint64_t> coordinates = job.coordinates;
  std::vector<double> latencies;
  uint64_t sink = 0;
  const Clock::time_point start = Clock::now();
  while (since(start) < seconds) {
    for (int batch = 0; batch < 256; ++batch) {
      const Clock::time_point request = Clock::now();
      state.set_inputs(coordinates);
      for (size_t k = 0; k < outputs.size(); ++k) {
        sink += text[k] ? state.pull_ref(outputs[k]).text().size() : state.pull_word(outputs[k]);
      }
      latencies.push_back(std::chrono::duration<double, std::nano>(Clock::now() - request).count());
      ++coordinates[0];
    }
  }
  const double elapsed = since(start);
  if (sink == 42) std::fputs("", stderr);  // keeps the pulls
  StateRow row{engine_name(program->options().engine)};
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

BatchRow time_batch(const std::shared_ptr<const Program>& program, const Job& job,
                    BatchOptions options, double seconds) {
  options.outputs = job.outputs;
  options.coordinates = job.coordinates;
  options.externs = job.externs;
  const BatchEvaluator batch(program, options);
  BatchRow row;
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
  step = std::clamp((uint64_t)(warm_rate * seconds / 4), step, uint64_t{1} << 32);
  const Clock::time_point start = Clock::now();
  while (since(start) < seconds) {
    batch.stream(first, step, [&](const ColumnChunk& chunk) {
      for (const ColumnView& c : chunk.columns) {
        bytes += is_text(c.type) ? (uint64_t)c.offsets[chunk.rows] : 8 * chunk.rows;
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

void print_tables(const std::vector<CompileRow>& compiles, const std::vector<StateRow>& states,
                  const std::vector<BatchRow>& batches, std::optional<double> all_of_sum) {
  std::printf("%-48s %12s %12s\n", "compile", "cold ms", "cached ms");
  for (const CompileRow& r : compiles) {
    std::printf("%-48s %12.2f %12.2f\n", r.engine.c_str(), r.cold_ms, r.cached_ms);
  }
  std::printf("\n%-48s %12s %12s %10s %10s %10s\n", "per state", "ns/pull", "pulls/s", "p50 ns",
              "p99 ns", "p99.9 ns");
  for (const StateRow& r : states) {
    std::printf("%-48s %12.1f %12.4g %10.0f %10.0f %10.0f\n", r.engine.c_str(), r.ns_per_pull,
                r.pulls_per_second, r.p50_ns, r.p99_ns, r.p999_ns);
  }
  std::printf("\n%-48s %12s %12s\n", "batch", "rows/s", "GB/s");
  for (const BatchRow& r : batches) {
    if (!r.skipped.empty()) {
      std::printf("%-48s skipped: %s\n", r.device.c_str(), r.skipped.c_str());
      continue;
    }
    std::printf("%-48s %12.4g %12.3f\n", r.device.c_str(), r.rows_per_second, r.gb_per_second);
  }
  if (all_of_sum) {
    std::printf("\nall devices together: %.1f %% of the sum of each device alone\n",
                100 * *all_of_sum);
  }
}

void print_json(const Settings& s, const std::vector<CompileRow>& compiles,
                const std::vector<StateRow>& states, const std::vector<BatchRow>& batches,
                std::optional<double> all_of_sum) {
  std::string out = "{\"program\":" + scheduler::json_string(s.file) +
                    ",\"seconds\":" + std::to_string(s.seconds);
  out += ",\"compile\":[";
  for (size_t i = 0; i < compiles.size(); ++i) {
    out += (i ? ",{" : "{") + std::string("\"engine\":") +
           scheduler::json_string(compiles[i].engine) +
           ",\"cold_ms\":" + std::to_string(compiles[i].cold_ms) +
           ",\"cached_ms\":" + std::to_string(compiles[i].cached_ms) + "}";
  }
  out += "],\"per_state\":[";
  for (size_t i = 0; i < states.size(); ++i) {
    const StateRow& r = states[i];
    out += (i ? ",{" : "{") + std::string("\"engine\":") + scheduler::json_string(r.engine) +
           ",\"ns_per_pull\":" + std::to_string(r.ns_per_pull) +
           ",\"pulls_per_second\":" + std::to_string(r.pulls_per_second) +
           ",\"requests\":" + std::to_string(r.requests) +
           ",\"p50_ns\":" + std::to_string(r.p50_ns) + ",\"p99_ns\":" + std::to_string(r.p99_ns) +
           ",\"p999_ns\":" + std::to_string(r.p999_ns) + "}";
  }
  out += "],\"batch\":[";
  for (size_t i = 0; i < batches.size(); ++i) {
    const BatchRow& r = batches[i];
    out += (i ? ",{" : "{") + std::string("\"device\":") + scheduler::json_string(r.device) +
           ",\"rows\":" + std::to_string(r.rows) +
           ",\"rows_per_second\":" + std::to_string(r.rows_per_second) +
           ",\"gb_per_second\":" + std::to_string(r.gb_per_second) +
           (r.skipped.empty() ? "" : ",\"skipped\":" + scheduler::json_string(r.skipped)) + "}";
  }
  out += "]";
  if (all_of_sum) out += ",\"all_of_sum\":" + std::to_string(*all_of_sum);
  out += "}\n";
  std::fputs(out.c_str(), stdout);
}

}  // namespace

int bench_command(CommandLine& args) {
  if (args.wants_help()) return std::fputs(kBenchUsage, stdout), 0;
  Settings settings;
  bool json = false;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--seconds") {
      const Value v = parse_setting("--seconds", args.value_of(f), Type::F64);
      settings.seconds = v.as_f64();
      if (!(settings.seconds > 0) || settings.seconds > 3600) {
        throw UsageError("polyrt bench: --seconds must be in (0, 3600]");
      }
    } else if (f == "--threads") {
      const Value v = parse_setting("--threads", args.value_of(f), Type::U64);
      if (v.as_u64() == 0 || v.as_u64() > 4096) {
        throw UsageError("polyrt bench: --threads must be in [1, 4096]");
      }
      settings.threads = (size_t)v.as_u64();
    } else if (f == "--outputs") {
      settings.outputs = split_list(args.value_of(f), "bench");
    } else if (f == "--set") {
      settings.sets.push_back(split_assignment(args.value_of(f)));
    } else if (f == "--json") {
      json = true;
    } else if (!library_flag(args, f, settings.compile)) {
      args.unknown_flag(f);
    }
  }
  settings.file = args.file();
  args.allow_positionals(1, "bench takes one FILE; options start with --");

  // Cold compiles fill an empty cache directory of their own, never the user's.
  const std::string cache = std::filesystem::temp_directory_path().string() + "/polyrt-bench-" +
                            std::to_string(::getpid());
  ::setenv("POLYRT_CACHE_DIR", cache.c_str(), 1);
  struct RemoveCache {
    std::string dir;
    ~RemoveCache() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } remove_cache{cache};

  std::vector<CompileRow> compiles;
  std::vector<std::shared_ptr<const Program>> programs;
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    std::shared_ptr<const Program> program;
    compiles.push_back(time_compiles(engine_name(engine), [&] {
      CompileOptions options = settings.compile;
      options.engine = engine;
      program = compile_file(settings.file, options);
    }));
    programs.push_back(program);
  }
  const Program& p = *programs.back();
  if (p.input_names().empty()) {
    throw UsageError("polyrt bench: " + settings.file + " declares no input to iterate");
  }
  Job job;
  apply_settings(p, settings.sets, "bench", job.coordinates, job.externs);
  job.outputs = settings.outputs.empty() ? p.output_names() : settings.outputs;
  if (job.outputs.empty()) throw UsageError("polyrt bench: " + settings.file + " has no output");
  for (const std::string& name : job.outputs) {
    if (!p.output_index(name)) {
      throw UsageError("polyrt bench: --outputs names '" + name + "', which is not a binding of " +
                       settings.file);
    }
  }
  for (const std::string& w : p.warnings()) std::fprintf(stderr, "%s\n", w.c_str());

  try {
    compiles.push_back(time_compiles("batch kernels (cpu)", [&] {
      BatchOptions options;
      options.outputs = job.outputs;
      options.coordinates = job.coordinates;
      options.externs = job.externs;
      const BatchEvaluator batch(programs.back(), options);
    }));
  } catch (const RefusedError&) {
    // No batch kernels to time; the batch rows below say why.
  }

  std::vector<StateRow> states;
  for (const auto& program : programs) states.push_back(time_state(program, job, settings.seconds));

  std::vector<BatchRow> batches;
  // A device that cannot run the batch (a side channel in an output's cone,
  // a GPU failing) gets a row saying why; the others are still measured.
  const auto measure = [&](const std::string& label, const BatchOptions& options) {
    try {
      batches.push_back(time_batch(programs.back(), job, options, settings.seconds));
    } catch (const RefusedError& e) {
      batches.push_back(BatchRow{.device = label, .skipped = e.what()});
    } catch (const DeviceError& e) {
      batches.push_back(BatchRow{.device = label, .skipped = e.what()});
    }
  };
  const auto cores = (size_t)std::max(1, tbb::info::default_concurrency());
  const size_t threads = settings.threads ? std::min(settings.threads, cores) : cores;
  measure("cpu, 1 thread", BatchOptions{.threads = 1});
  if (threads > 1)
    measure("cpu, " + std::to_string(threads) + " threads", BatchOptions{.threads = threads});
  // All devices together against the sum of each alone (the CPU on the same
  // threads): how much of the devices' speeds the balancing keeps.
  // The ratio means something only when every device ran alone and "all"
  // ran on all of them (it falls back to the CPU when no GPU is usable).
  bool every_device_ran = batches.back().skipped.empty();
  double alone = every_device_ran ? batches.back().rows_per_second : 0;
  std::optional<double> all_of_sum;
  if (const Devices here = devices(); !here.gpus.empty()) {
    for (const GpuDeviceInfo& d : here.gpus) {
      measure("gpu " + std::to_string(d.index),
              BatchOptions{.device = DeviceChoice(BatchDevice::Gpu, d.index)});
      every_device_ran = every_device_ran && batches.back().skipped.empty();
      alone += batches.back().rows_per_second;
    }
    measure("all", BatchOptions{.threads = threads, .device = BatchDevice::All});
    const BatchRow& all = batches.back();
    if (every_device_ran && all.skipped.empty() && all.devices == 1 + here.gpus.size() &&
        alone > 0) {
      all_of_sum = all.rows_per_second / alone;
    }
  }
  if (json) {
    print_json(settings, compiles, states, batches, all_of_sum);
  } else {
    print_tables(compiles, states, batches, all_of_sum);
  }
  return 0;
}

}  // namespace polyrt::cli

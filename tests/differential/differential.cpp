#include "tests/differential/differential.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

#include "gpu_backend/driver/cuda_driver.hpp"
#include "graph/graph.hpp"
#include "graph/passes.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/numeric_types.hpp"
#include "polyrt/polyrt.hpp"
#include "program/program_internals.hpp"
#include "tests/differential/host_twin_check.hpp"
#include "tests/differential/random_program.hpp"

namespace polyrt::difftest {

namespace {

// A batch tier's cell as the comparison reads it: None, a payload's text or
// a word.
std::string cell(bool none, Type type, std::string_view text, uint64_t word) {
  if (none) return "None";
  return is_payload(type) ? "text " + std::string(text) : "word " + std::to_string(word);
}

// What a tier's call ended with: an EvalError is an outcome the tiers must
// agree on; any other Error is "unexpected: ..."; an InternalError is a bug,
// never an outcome, and propagates.
template <typename Call>
void capture_outcome(std::string& error, const Call& call) {
  try {
    call();
  } catch (const EvalError& e) {
    error = e.what();
  } catch (const InternalError&) {
    throw;
  } catch (const Error& e) {
    error = std::string("unexpected: ") + e.what();
  }
}

struct Op {
  enum Kind { SetInputs, SetExtern, Pull, Eval, Invalidate, Request, Clone } kind;
  std::vector<uint64_t> coordinates;
  size_t index = 0;  // extern or output
  Value value;
  std::vector<size_t> outputs;  // a request's
  bool scalar_outputs = false;  // a request's outputs less its str, bytes and json ones
};

std::vector<Op> random_ops(const RandomProgram& p, uint64_t seed, size_t count) {
  std::mt19937_64 rng(seed * 7919 + 1);
  auto pick = [&](size_t n) { return n == 0 ? 0 : rng() % n; };
  std::vector<Op> ops;
  std::optional<size_t> last_request;  // its index in ops
  auto random_coordinates = [&] {
    std::vector<uint64_t> coordinates;
    for (size_t c = 0; c < p.coordinates; ++c) {
      coordinates.push_back(pick(4) == 0 ? rng() : pick(20));
    }
    return coordinates;
  };
  const double floats[] = {
      0.0, -0.0, 1.5, -3.25, 1e300, 1e-310, __builtin_nan(""), __builtin_inf()};
  for (size_t i = 0; i < count; ++i) {
    Op op{Op::Pull};
    const size_t k = pick(100);
    if (last_request && ops.back().kind == Op::Request && pick(2) == 0) {
      // A request loop: the same outputs at new coordinates (after the
      // first, State::request runs the armed fused entry inline).
      op.kind = Op::Request;
      op.outputs = ops[*last_request].outputs;
      op.scalar_outputs = ops[*last_request].scalar_outputs;
      op.coordinates = random_coordinates();
    } else if (k < 25 || i == 0) {
      op.kind = Op::SetInputs;
      op.coordinates = random_coordinates();
    } else if (k < 37 && !p.externs.empty()) {
      op.kind = Op::SetExtern;
      op.index = pick(p.externs.size());
      const char type = p.externs[op.index].type;
      if (pick(4) == 0) {
        op.value = Value::none();
      } else if (type == 'u') {
        op.value = Value::u64(pick(3) == 0 ? rng() : pick(50));
      } else if (type == 'f') {
        op.value = Value::f64(floats[pick(8)]);
      } else {
        op.value = Value::str(pick(2) ? "x" : "value-" + std::to_string(pick(9)));
      }
    } else if (k < 42) {
      op.kind = Op::Eval;
    } else if (k < 45) {
      op.kind = Op::Invalidate;
    } else if (k < 48) {
      // Go on with a copy of the state (a clone must carry everything,
      // a deferred write or an armed request included).
      op.kind = Op::Clone;
    } else if (k < 56) {
      // State::request: every output, every scalar one (as a request loop
      // asks, the fused entry's case) or a few; half of the time the last
      // request's outputs again, after the writes in between.
      op.kind = Op::Request;
      op.coordinates = random_coordinates();
      const bool every = pick(2) == 0;
      if (last_request && pick(2) == 0) {
        op.outputs = ops[*last_request].outputs;
        op.scalar_outputs = ops[*last_request].scalar_outputs;
      } else {
        op.scalar_outputs = every && pick(2) == 0;
        for (size_t o = 0; o < p.outputs.size(); ++o) {
          if (every || pick(3) == 0) op.outputs.push_back(o);
        }
      }
    } else {
      op.kind = Op::Pull;
      op.index = pick(p.outputs.size());
    }
    ops.push_back(std::move(op));
    if (ops.back().kind == Op::Request) last_request = ops.size() - 1;
  }
  return ops;
}

std::string show(const Value& v) {
  if (v.is_none()) return "None";
  switch (v.type()) {
    case Type::U64:
      return "u64 " + std::to_string(v.as_u64());
    case Type::F64: {
      const double d = v.as_f64();
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return "f64 " + v.to_string() + " bits " + std::to_string(bits);
    }
    case Type::Str:
      return "str \"" + v.as_str() + "\"";
    case Type::Bool:
      return v.as_bool() ? "bool true" : "bool false";
    default:  // the other numbers, bytes and json: their type and text
      return std::string(type_name(v.type())) + " " + v.to_string();
  }
}

std::string describe(const Op& op, const RandomProgram& p) {
  switch (op.kind) {
    case Op::SetInputs: {
      std::string s = "set_inputs(";
      for (size_t i = 0; i < op.coordinates.size(); ++i)
        s += (i ? ", " : "") + std::to_string(op.coordinates[i]);
      return s + ")";
    }
    case Op::SetExtern:
      return "set_input(" + p.externs[op.index].name + ", " + show(op.value) + ")";
    case Op::Pull:
      return "pull(" + p.outputs[op.index] + ")";
    case Op::Eval:
      return "eval()";
    case Op::Invalidate:
      return "invalidate_all()";
    case Op::Clone:
      return "the state's copy";
    case Op::Request: {
      std::string s = "request(";
      for (size_t i = 0; i < op.coordinates.size(); ++i)
        s += (i ? ", " : "") + std::to_string(op.coordinates[i]);
      s += ";";
      for (size_t o : op.outputs) s += " " + p.outputs[o];
      return s + (op.scalar_outputs ? "; the scalar ones)" : ")");
    }
  }
  return "?";
}

// Outcome of every op: the pulled value or the error, then the side-channel
// lines it produced (sorted: only their multiset is specified per call).
std::vector<std::string> run(const std::shared_ptr<const Program>& program, const RandomProgram& p,
                             const std::vector<Op>& ops) {
  std::vector<std::string> outcomes;
  std::vector<std::string> lines;
  std::optional<State> state;
  try {
    state.emplace(program->new_state());
  } catch (const InternalError&) {
    throw;  // a bug, never an outcome engines may agree on
  } catch (const Error& e) {
    return {std::string("new_state error: ") + e.what()};
  }
  state->set_log_sink([&](std::string_view l) { lines.emplace_back(l); });
  for (const Op& op : ops) {
    std::string out;
    try {
      switch (op.kind) {
        case Op::SetInputs:
          state->set_inputs(op.coordinates);
          break;
        case Op::SetExtern:
          state->set_input(p.externs[op.index].name, op.value);
          break;
        case Op::Pull:
          // Every other pull reads the value in place (pull_ref): both ways
          // must give the same outcome on every engine.
          out = outcomes.size() % 2
                    ? show(state->pull_ref(state->output_index(p.outputs[op.index])))
                    : show(state->pull(p.outputs[op.index]));
          break;
        case Op::Eval:
          state->eval();
          break;
        case Op::Invalidate:
          state->invalidate_all();
          break;
        case Op::Clone: {
          State copy = *state;
          state = std::move(copy);
          break;
        }
        case Op::Request: {
          std::vector<size_t> outputs;
          for (size_t o : op.outputs) {
            const size_t index = state->output_index(p.outputs[o]);
            if (!op.scalar_outputs || !is_payload(state->program().output_type(index))) {
              outputs.push_back(index);
            }
          }
          std::vector<uint64_t> words(outputs.size());
          state->request(op.coordinates, outputs, words);
          for (uint64_t w : words) out += std::to_string(w) + " ";
          break;
        }
      }
    } catch (const InternalError&) {
      throw;  // a bug, never an outcome engines may agree on
    } catch (const Error& e) {
      out = std::string("error: ") + e.what();
    }
    std::sort(lines.begin(), lines.end());
    for (const auto& l : lines) out += "\n    side channel: " + l;
    lines.clear();
    outcomes.push_back(out);
  }
  return outcomes;
}

// The program as a failure shows it: its text, and the seed it was compiled with.
std::string shown_program(const RandomProgram& p) {
  return p.source + (p.hash_seed ? "--- compiled with --seed " + std::to_string(*p.hash_seed) + "\n"
                                 : std::string());
}

std::shared_ptr<const Program> compile_for(const RandomProgram& p, const EngineConfig& e,
                                           std::string& error) {
  CompileOptions o;
  o.file_name = "random.polydat";
  o.engine = e.engine;
  o.provenance = e.provenance;
  o.seed = p.hash_seed;
  try {
    return compile(p.source, o);
  } catch (const InternalError&) {
    throw;  // a bug, never an outcome engines may agree on
  } catch (const Error& ex) {
    error = ex.what();
    return nullptr;
  }
}

// Drops ops one at a time while the two programs still disagree.
std::vector<Op> minimize_ops(const RandomProgram& p, std::vector<Op> ops,
                             const std::shared_ptr<const Program>& oracle,
                             const std::shared_ptr<const Program>& program) {
  for (size_t i = ops.size(); i-- > 0;) {
    std::vector<Op> trial = ops;
    trial.erase(trial.begin() + (ptrdiff_t)i);
    if (run(oracle, p, trial) != run(program, p, trial)) ops = std::move(trial);
  }
  return ops;
}

size_t count_lines(const std::string& text) {
  return (size_t)std::count(text.begin(), text.end(), '\n');
}

std::string without_line(const std::string& text, size_t line) {
  size_t start = 0;
  for (size_t k = 0; k < line; ++k) start = text.find('\n', start) + 1;
  const size_t end = text.find('\n', start);
  return text.substr(0, start) + text.substr(end + 1);
}

// The batch tier over a random range (near 0, across 2^32, or ending at
// 2^64 - 1), random chunking and threads, random fixed coordinates and
// externs: every column equals the interpreter's pulls row by row, and the
// first failure is the interpreter's first failure.
std::optional<std::string> check_batch(uint64_t seed, const RandomProgram& p,
                                       const std::shared_ptr<const Program>& oracle) {
  std::mt19937_64 rng(seed * 104729 + 7);
  auto pick = [&](size_t n) { return n == 0 ? 0 : rng() % n; };
  BatchOptions options;
  options.outputs = batch_outputs(*oracle);
  if (options.outputs.empty()) return std::nullopt;
  options.iterated = pick(p.coordinates);
  for (size_t c = 0; c < p.coordinates; ++c)
    options.coordinates.push_back(pick(3) ? pick(20) : rng());
  for (const ExternSpec& e : p.externs) {
    const size_t k = pick(3);
    if (k == 0) continue;  // the default
    if (k == 1 || e.type == 's') {
      options.externs.emplace_back(
          e.name, k == 1 ? Value::none() : Value::str("b" + std::to_string(pick(5))));
    } else {
      options.externs.emplace_back(
          e.name, e.type == 'u' ? Value::u64(pick(40)) : Value::f64(0.25 * (double)pick(9)));
    }
  }
  options.chunk_rows = 1 + pick(64);
  options.threads = 1 + pick(2);
  const uint64_t count = 1 + pick(150);
  const uint64_t shapes[] = {pick(100), (1ull << 32) - pick(count + 1), ~0ull - count + 1};
  const uint64_t first = shapes[pick(3)];

  // The interpreter, row by row, up to its first failure.
  std::vector<std::vector<std::string>> want;
  std::string want_error;
  try {
    State s = oracle->new_state();
    s.set_log_sink([](std::string_view) {});
    for (const auto& [name, value] : options.externs) s.set_input(name, value);
    std::vector<uint64_t> coords = options.coordinates;
    for (uint64_t r = 0; r < count && want_error.empty(); ++r) {
      coords[options.iterated] = first + r;
      s.set_inputs(coords);
      std::vector<std::string> row;
      try {
        for (const std::string& o : options.outputs) {
          const Value v = s.pull(o);
          row.push_back(v.is_none()            ? "None"
                        : is_payload(v.type()) ? "text " + v.text()
                                               : "word " + std::to_string(word_of(v)));
        }
        want.push_back(std::move(row));
      } catch (const EvalError& e) {
        want_error = e.what();
      }
    }
  } catch (const EvalError& e) {
    want_error = e.what();
  }

  // Text rows (what `polyrt run` writes, in a format that changes with the
  // seed) and the error they ended with.
  struct TextRows {
    std::string bytes, error;
  };
  const RowFormat formats[] = {RowFormat::Csv, RowFormat::Tsv, RowFormat::Jsonl};
  const RowFormat format = formats[seed % 3];
  // The batch tier on `device`: the rows it delivered and the error it threw;
  // with `text`, its text rows too (on a GPU whose plan allows, encoded on
  // the device).
  auto run_batch = [&](BatchDevice device, std::vector<std::vector<std::string>>& got,
                       std::string& got_error, TextRows* text = nullptr) {
    BatchOptions on = options;
    on.device = device;
    capture_outcome(got_error, [&] {
      BatchEvaluator batch(oracle, on);
      if (text) {
        try {
          batch.stream_rows(first, count, format, [&](uint64_t, uint64_t, std::string_view bytes) {
            text->bytes += bytes;
          });
        } catch (const EvalError& e) {
          text->error = e.what();
        }
      }
      batch.stream(first, count, [&](const ColumnChunk& chunk) {
        for (uint64_t r = 0; r < chunk.rows; ++r) {
          std::vector<std::string> row;
          for (const ColumnView& v : chunk.columns) {
            row.push_back(cell(v.is_null(r), v.type,
                               v.is_none || !is_payload(v.type) ? "" : v.text(r),
                               v.words ? v.words[r] : 0));
          }
          got.push_back(std::move(row));
        }
      });
    });
  };
  // The GPU tier's device-resident output (evaluate_to_device, copied back):
  // false where the outputs cannot be (vectors, numbers narrower than 8 bytes).
  auto run_to_device = [&](std::vector<std::vector<std::string>>& got, std::string& got_error) {
    BatchOptions on = options;
    on.device = BatchDevice::Gpu;
    bool possible = true;
    capture_outcome(got_error, [&] {
      BatchEvaluator batch(oracle, on);
      for (size_t o = 0; o < batch.output_types().size(); ++o) {
        const Type t = batch.output_types()[o];
        // Device-resident columns hold values only: no nullable output.
        possible = possible && !batch.output_nullable(o) &&
                   (is_payload(t) ? is_text(t) : t == Type::Bool || native_width(t) == 8);
      }
      if (!possible) return;
      std::vector<Column> host;
      for (const DeviceColumn& c : batch.evaluate_to_device(first, count)) {
        host.push_back(batch.to_host(c));
      }
      for (uint64_t r = 0; r < count; ++r) {
        std::vector<std::string> row;
        for (const Column& c : host) {
          row.push_back(cell(c.is_none, c.type, c.is_none || !is_payload(c.type) ? "" : c.text(r),
                             c.words.empty() ? 0 : c.words[r]));
        }
        got.push_back(std::move(row));
      }
    });
    return possible;
  };
  // Rows after the interpreter's failure may be delivered before the batch
  // tier finds it (a chunk is all or nothing): compare the rows both have.
  auto compare = [&](const char* tier, const std::vector<std::vector<std::string>>& got,
                     const std::string& got_error) -> std::string {
    if (got_error != want_error) {
      return std::string("error: interpreter '") + want_error + "' | " + tier + " '" + got_error +
             "'";
    }
    for (size_t r = 0; r < std::min(want.size(), got.size()); ++r) {
      for (size_t o = 0; o < want[r].size(); ++o) {
        if (want[r][o] != got[r][o]) {
          return "row " + std::to_string(first + r) + " output " + options.outputs[o] +
                 ": interpreter " + want[r][o] + " | " + tier + " " + got[r][o];
        }
      }
    }
    if (want_error.empty() && got.size() != want.size())
      return std::string(tier) + ": row count differs";
    return "";
  };

  // The GPU's text rows are the CPU tier's bytes; a failing chunk delivers
  // nothing, so on a failure the shorter bytes are the longer's start.
  auto compare_rows = [&](const TextRows& cpu, const TextRows& gpu) -> std::string {
    if (cpu.error != gpu.error) {
      return std::string(row_format_name(format)) + " rows: error: cpu '" + cpu.error +
             "' | gpu '" + gpu.error + "'";
    }
    const size_t common = std::min(cpu.bytes.size(), gpu.bytes.size());
    const size_t at =
        (size_t)(std::mismatch(cpu.bytes.begin(), cpu.bytes.begin() + (ptrdiff_t)common,
                               gpu.bytes.begin())
                     .first -
                 cpu.bytes.begin());
    if (at == common && (!cpu.error.empty() || cpu.bytes.size() == gpu.bytes.size())) return "";
    return std::string(row_format_name(format)) + " rows differ at byte " + std::to_string(at) +
           ": cpu '" + cpu.bytes.substr(at, 60) + "' | gpu '" + gpu.bytes.substr(at, 60) + "'";
  };

  std::vector<std::vector<std::string>> got;
  std::string got_error;
  TextRows cpu_rows;
  run_batch(BatchDevice::Cpu, got, got_error, &cpu_rows);
  std::string mismatch = compare("batch", got, got_error);
  if (mismatch.empty() && got_error.find("unexpected") == std::string::npos) {
    if (auto twin = check_host_twin(seed, oracle, options, first, count)) mismatch = *twin;
  }
  // The GPU tier wherever a driver is usable (in CI: the driver's test double).
  if (mismatch.empty() && gpu::CudaDriver::get()) {
    std::vector<std::vector<std::string>> on_gpu;
    std::string gpu_error;
    TextRows gpu_rows;
    run_batch(BatchDevice::Gpu, on_gpu, gpu_error, &gpu_rows);
    mismatch = compare("gpu batch", on_gpu, gpu_error);
    if (mismatch.empty()) mismatch = compare_rows(cpu_rows, gpu_rows);
    // Every other seed, the GPU and the CPU together, chunks split between them.
    if (mismatch.empty() && seed % 2 == 0) {
      std::vector<std::vector<std::string>> on_all;
      std::string all_error;
      run_batch(BatchDevice::All, on_all, all_error);
      mismatch = compare("all-devices batch", on_all, all_error);
    }
    // The other seeds, the GPU's columns left in device memory.
    std::vector<std::vector<std::string>> on_device;
    std::string device_error;
    if (mismatch.empty() && seed % 2 == 1 && run_to_device(on_device, device_error)) {
      mismatch = compare("gpu device-resident", on_device, device_error);
    }
  }
  if (mismatch.empty()) return std::nullopt;
  std::string report = "seed " + std::to_string(seed) +
                       ": the batch tier disagrees with the interpreter\n--- program\n" +
                       shown_program(p) + "--- range first " + std::to_string(first) + " count " +
                       std::to_string(count) + ", iterated coordinate " +
                       std::to_string(options.iterated) + ", chunk " +
                       std::to_string(options.chunk_rows) + ", threads " +
                       std::to_string(options.threads) + "\n--- externs:";
  for (const auto& [name, value] : options.externs) report += " " + name + "=" + show(value);
  return report + "\n--- " + mismatch + "\n";
}

}  // namespace

std::vector<std::string> batch_outputs(const Program& program) {
  const ir::Graph& g = ProgramInternals::graph(program);
  std::vector<std::string> names;
  for (size_t o = 0; o < g.outputs.size(); ++o) {
    if (g.outputs[o].hidden) break;  // presence outputs, after the program's
    bool side_channel = false;
    std::vector<uint32_t> roots{g.outputs[o].wire.node};
    if (g.outputs[o].presence) roots.push_back(g.outputs[*g.outputs[o].presence].wire.node);
    for (uint32_t n : ir::cone_of(g, roots, false)) {
      side_channel = side_channel || g.nodes[n].lifecycle == ir::Lifecycle::SideChannel;
    }
    if (!side_channel) names.push_back(g.outputs[o].name);
  }
  return names;
}

RandomProgram program_for_seed(uint64_t seed, const DiffOptions& options) {
  return generate_program(seed, std::max<size_t>(1, (seed * 2654435761u) % options.max_bindings));
}

std::optional<std::string> check_seed(uint64_t seed, const DiffOptions& options) {
  const RandomProgram p = program_for_seed(seed, options);
  std::string oracle_error;
  auto oracle = compile_for(p, kEngineConfigs[0], oracle_error);
  std::vector<Op> ops = random_ops(p, seed, options.ops);
  const std::vector<std::string> expected =
      oracle ? run(oracle, p, ops) : std::vector<std::string>{};
  for (size_t e = 1; e < std::size(kEngineConfigs); ++e) {
    std::string error;
    auto program = compile_for(p, kEngineConfigs[e], error);
    if (!oracle || !program) {
      if (error == oracle_error) continue;
      return "seed " + std::to_string(seed) + ": compile outcome differs on " +
             kEngineConfigs[e].name + "\n--- program\n" + shown_program(p) +
             "--- interpreter: " + oracle_error + "\n--- " + kEngineConfigs[e].name + ": " + error +
             "\n";
    }
    if (run(program, p, ops) == expected) continue;
    // Minimize the op sequence, then the program (drop lines that keep it
    // compiling and disagreeing), then the ops again for the smaller program.
    RandomProgram small_program = p;
    std::vector<Op> small = minimize_ops(p, ops, oracle, program);
    for (size_t line = count_lines(small_program.source); line-- > 0;) {
      RandomProgram trial = small_program;
      trial.source = without_line(small_program.source, line);
      std::string ignored;
      auto trial_oracle = compile_for(trial, kEngineConfigs[0], ignored);
      auto trial_engine = compile_for(trial, kEngineConfigs[e], ignored);
      if (!trial_oracle || !trial_engine) continue;
      if (run(trial_oracle, trial, small) != run(trial_engine, trial, small)) {
        small_program = trial;
        oracle = trial_oracle;
        program = trial_engine;
      }
    }
    small = minimize_ops(small_program, small, oracle, program);
    const RandomProgram& shown = small_program;
    const auto want = run(oracle, shown, small), got = run(program, shown, small);
    std::string report = "seed " + std::to_string(seed) + ": " + kEngineConfigs[e].name +
                         " disagrees with the interpreter\n--- minimal program\n" + shown.source +
                         "--- minimal op sequence (interpreter | " + kEngineConfigs[e].name + ")\n";
    for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
      if (i < small.size()) report += describe(small[i], shown) + "\n";
      const std::string w = i < want.size() ? want[i] : "(nothing)";
      const std::string g = i < got.size() ? got[i] : "(nothing)";
      if (w != g)
        report += "  interpreter: " + w + "\n  " + kEngineConfigs[e].name + ": " + g + "\n";
    }
    return report;
  }
  if (oracle) return check_batch(seed, p, oracle);
  return std::nullopt;
}

}  // namespace polyrt::difftest

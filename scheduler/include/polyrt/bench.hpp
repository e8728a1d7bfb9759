// Measuring one program on every tier and device of this machine (what
// `polyrt bench` prints and Python's polyrt.bench returns): compile times per
// engine, the per-state engines' pulls and request latency, and the batch
// tier's rows/s and output GB/s on one thread, on every core, on each GPU
// and on all devices together. Numbers from one report are comparable.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "polyrt/polyrt.hpp"

namespace polyrt {

struct BenchOptions {
  double seconds = 0.5;  // per measurement, about; in (0, 3600]
  // The CPU's threads beyond the 1-thread row, and in all devices' row
  // (0: every core).
  size_t threads = 0;
  std::vector<std::string> outputs;  // empty: every output
  // The first input is iterated from 0; the others' values, by input index
  // (empty: all 0; the first entry is ignored), and extern values (others
  // keep their defaults), typed as the program declares them.
  std::vector<uint64_t> coordinates;
  std::vector<std::pair<std::string, Value>> externs;
  CompileOptions compile;  // library path; the engine is each row's own
  // Called before each timed measurement (a per-state or batch row) with
  // how many are done and how many there are, e.g. to show progress.
  std::function<void(size_t done, size_t total)> on_measure;
};

struct BenchCompile {
  std::string engine;  // "interpreter", "closures", "native", "batch kernels (cpu)"
  // The first compile in this process, cold when the compile cache is
  // empty (`polyrt bench` points POLYRT_CACHE_DIR at an empty directory of
  // its own), and the same compile again, cached.
  double cold_ms = 0, cached_ms = 0;
};

struct BenchState {
  std::string engine;
  double ns_per_pull = 0, pulls_per_second = 0;
  double p50_ns = 0, p99_ns = 0, p999_ns = 0;  // one request: set the inputs, pull every output
  uint64_t requests = 0;
};

struct BenchBatch {
  std::string device;  // "cpu, 1 thread", "gpu 0 (...)", "all ..."
  double rows_per_second = 0, gb_per_second = 0;
  uint64_t rows = 0;
  std::string skipped;  // why the device could not run the batch (a side channel, ...)
  size_t devices = 0;   // how many devices ran it
};

struct BenchReport {
  std::string program;  // the file measured
  double seconds = 0;
  std::vector<BenchCompile> compiles;
  std::vector<BenchState> states;
  std::vector<BenchBatch> batches;
  // All devices together against the sum of each alone, when every device
  // ran alone and together.
  std::optional<double> all_of_sum;
  std::vector<std::string> warnings;  // the program's

  std::string text() const;  // the tables `polyrt bench` prints
  std::string json() const;  // `polyrt bench --json`: one object
};

// How the program measured is compiled: called once per engine with the
// options to compile it with (a file, a workload's block, a text).
using ProgramCompiler = std::function<std::shared_ptr<const Program>(const CompileOptions&)>;

// Measures the program `compile` makes, named `name` in the report. Throws
// CompileError for the program, WriteError for bad options (no input to
// iterate, an unknown output or extern, a value of the wrong type), other
// errors as the engines raise them; a device that cannot run the batch
// gets a row saying why.
BenchReport bench_program(const std::string& name, const ProgramCompiler& compile,
                          const BenchOptions& options);

// bench_program of the program in `file`.
BenchReport bench_file(const std::string& file, const BenchOptions& options);

}  // namespace polyrt

// A bulk job over a coordinate range: every core evaluates chunks of rows with
// its own State (oneTBB), formats them in parallel, and the rows reach the
// sink in coordinate order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "scheduler/output/output_sink.hpp"
#include "scheduler/output/row_format.hpp"

namespace polyrt::scheduler {

struct RangeJob {
  std::shared_ptr<const Program> program;
  // The first coordinate iterates over first, first + 1, ... (count values;
  // the last may be 2^64 - 1).
  uint64_t first = 0;
  uint64_t count = 0;
  std::vector<uint64_t> coordinates;  // values of every coordinate; [0] is replaced per row
  std::vector<std::pair<std::string, Value>> externs;
  std::vector<std::string> outputs;  // columns, in order
  RowFormat format = RowFormat::Csv;
  size_t threads = 0;                     // 0: every core
  uint64_t chunk_rows = 0;                // 0: the tier's default
  BatchDevice device = BatchDevice::Cpu;  // the batch tier's device
  int gpu = 0;
  bool verbose = false;  // say on stderr where the batch runs
  double rate = 0;       // text rows per second at most (RatePacer); 0: as fast as possible
};

// Runs the job into `sink` (which the caller commits). A failing row throws
// its EvalError; it is always the smallest failing coordinate, whatever the
// thread count.
void run_range_job(const RangeJob& job, OutputSink& sink);

}  // namespace polyrt::scheduler

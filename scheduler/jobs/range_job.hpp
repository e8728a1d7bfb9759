// A bulk job over a coordinate range, and the per-state way to run it:
// every core evaluates chunks of rows with its own State (oneTBB), formats
// them in parallel, and the rows reach the output in coordinate order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "scheduler/output/output_format.hpp"

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
  const OutputFormat* format = find_output_format("csv");
  std::optional<Compression> compression;  // nullopt: the format's default
  size_t threads = 0;                      // 0: every core
  uint64_t chunk_rows = 0;                 // 0: the tier's default
  DeviceChoice device;                     // the batch tier's device
  bool verbose = false;                    // say on stderr where the batch runs
  double rate = 0;  // text rows per second at most (RatePacer); 0: as fast as possible
  // A time-boxed cursor's rule (CursorInfo::WallClock): the rows run in its
  // passes until the rule stops them, `count` at most (per-state engines).
  std::optional<CursorInfo::WallClock> wall_clock;
};

// The columns the job writes (names and types).
OutputColumns output_columns(const RangeJob& job);

// Runs the job on per-state engines into `target` (a path; "" is standard
// output), which appears only when the job succeeds. A failing row throws
// its EvalError; it is always the smallest failing coordinate, whatever the
// thread count. The format must have text rows (RefusedError otherwise).
void run_range_job(const RangeJob& job, const std::string& target);

}  // namespace polyrt::scheduler

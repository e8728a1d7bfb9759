// `polyrt run --rate R`: rows reach the output no faster than R per second,
// row by row (a load generator reading a pipe sees a steady stream, not a
// chunk of 8192 rows at a time). Row i (from 0) is due R⁻¹·i seconds after the
// first; a chunk is written in slices of the rows due so far. When the output
// cannot keep up, the schedule is never more than one second behind (no burst
// of more than a second's rows to catch up) and the lag is reported on
// stderr, at most once per second.
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

#include "scheduler/output/output_format.hpp"

namespace polyrt::scheduler {

class RatePacer {
 public:
  // rows_per_second 0: no pacing.
  explicit RatePacer(double rows_per_second) : rate_(rows_per_second) {}

  // Writes a chunk's `bytes`, holding `rows` rows of one line each, to
  // `writer` on schedule. (A chunk whose CSV fields hold line breaks is written whole
  // when its first row is due.) Stops for signals while it waits. Counts
  // the rows written for the interruption message (Interruption::add_rows).
  // `owned`, when given, is the string that holds `bytes`, which the writer
  // may take when they are written whole (FormatWriter::write_taking).
  void write(FormatWriter& writer, std::string_view bytes, uint64_t rows,
             std::string* owned = nullptr);

  // The largest lag seen, in seconds (for reports and tests).
  double worst_lag() const { return worst_lag_; }

 private:
  using Clock = std::chrono::steady_clock;
  // Waits until row `written_` is due; returns how many rows are due now.
  uint64_t wait_for_due_rows();

  double rate_;
  bool started_ = false;
  Clock::time_point start_;
  Clock::time_point last_report_;
  uint64_t written_ = 0;  // rows written since start_
  double worst_lag_ = 0;
};

}  // namespace polyrt::scheduler

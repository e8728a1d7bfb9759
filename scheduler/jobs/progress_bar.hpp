// A progress line on stderr for long jobs: rows (or another unit), percent, rows per second
// and the time left, shown only when stderr is a terminal, once the job has
// run for a second, and never after set_quiet(true) (the command's -q).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace polyrt::scheduler {

class ProgressBar {
 public:
  // `label` names the step ("pass 2 of 3: exact quantiles"); may be empty.
  // `unit` names what is counted: rows (with their rate), or another unit
  // (polyrt bench's measurements), counted without a rate.
  explicit ProgressBar(uint64_t total_rows, std::string label = {}, std::string unit = "rows");
  ~ProgressBar();               // clears the line: also when a job fails or is interrupted
  void advance(uint64_t rows);  // redraws at most 5 times a second
  void finish();                // clears the line
  uint64_t done() const { return done_; }

  // The process's choice (polyrt's -q): no progress line at all.
  static void set_quiet(bool quiet);

 private:
  void draw(double seconds);
  bool enabled_;
  bool drawn_ = false;
  uint64_t total_;
  uint64_t done_ = 0;
  std::string label_;
  std::string unit_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace polyrt::scheduler

// A progress line on stderr for long jobs, shown only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>

namespace polyrt::scheduler {

class ProgressBar {
 public:
  // Shown when stderr is a terminal and the job has at least `min_rows` rows.
  ProgressBar(uint64_t total_rows, uint64_t min_rows = 2000000);
  ~ProgressBar();               // clears the line: also when a job fails or is interrupted
  void advance(uint64_t rows);  // redraws at most 5 times a second
  void finish();                // clears the line
  uint64_t done() const { return done_; }

 private:
  void draw();
  bool enabled_;
  uint64_t total_;
  uint64_t done_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace polyrt::scheduler

#include "scheduler/jobs/progress_bar.hpp"

#include <unistd.h>

#include <cstdio>

namespace polyrt::scheduler {

ProgressBar::ProgressBar(uint64_t total_rows, uint64_t min_rows)
    : enabled_(::isatty(STDERR_FILENO) == 1 && total_rows >= min_rows),
      total_(total_rows),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void ProgressBar::advance(uint64_t rows) {
  done_ += rows;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  draw();
}

void ProgressBar::draw() {
  const int width = 30;
  const double fraction = total_ ? (double)done_ / (double)total_ : 1.0;
  const int filled = (int)(fraction * width);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = seconds > 0 ? (double)done_ / seconds : 0.0;
  std::fprintf(stderr, "\r[%.*s%*s] %5.1f%%  %llu/%llu rows  %.2f M rows/s ", filled,
               "==============================", width - filled, "", fraction * 100.0,
               (unsigned long long)done_, (unsigned long long)total_, rate / 1e6);
  std::fflush(stderr);
}

ProgressBar::~ProgressBar() {
  finish();
}

void ProgressBar::finish() {
  if (!enabled_) return;
  enabled_ = false;
  std::fprintf(stderr, "\r%*s\r", 100, "");
  std::fflush(stderr);
}

}  // namespace polyrt::scheduler

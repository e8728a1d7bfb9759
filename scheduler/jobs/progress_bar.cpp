#include "scheduler/jobs/progress_bar.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace polyrt::scheduler {

namespace {

std::atomic<bool> quiet{false};

// "1m05s", "42s", "2h03m": the time left as people read it.
std::string duration_text(double seconds) {
  const auto s = (unsigned long long)(seconds + 0.5);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%lluh%02llum", s / 3600, s / 60 % 60);
  } else if (s >= 60) {
    std::snprintf(text, sizeof text, "%llum%02llus", s / 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%llus", s);
  }
  return text;
}

}  // namespace

void ProgressBar::set_quiet(bool value) {
  quiet.store(value);
}

ProgressBar::ProgressBar(uint64_t total_rows, std::string label, std::string unit)
    : enabled_(!quiet.load() && ::isatty(STDERR_FILENO) == 1 && total_rows > 0),
      total_(total_rows),
      label_(std::move(label)),
      unit_(std::move(unit)),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void ProgressBar::advance(uint64_t rows) {
  done_ += rows;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(200)) return;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  if (seconds < 1.0) return;  // a job that ends within a second shows nothing
  last_draw_ = now;
  draw(seconds);
}

void ProgressBar::draw(double seconds) {
  const int width = 24;
  const double fraction = total_ ? (double)done_ / (double)total_ : 1.0;
  const int filled = (int)(fraction * width);
  const double rate = (double)done_ / seconds;
  const std::string left =
      rate > 0 && done_ < total_ ? duration_text((double)(total_ - done_) / rate) : "-";
  char rate_text[48] = "";
  if (unit_ == "rows") std::snprintf(rate_text, sizeof rate_text, "  %.2f M rows/s", rate / 1e6);
  std::fprintf(stderr, "\r%s%s[%.*s%*s] %5.1f%%  %llu/%llu %s%s  %s left ", label_.c_str(),
               label_.empty() ? "" : " ", filled, "========================", width - filled, "",
               fraction * 100.0, (unsigned long long)done_, (unsigned long long)total_,
               unit_.c_str(), rate_text, left.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

ProgressBar::~ProgressBar() {
  finish();
}

void ProgressBar::finish() {
  if (!enabled_) return;
  enabled_ = false;
  if (!drawn_) return;
  std::fprintf(stderr, "\r%*s\r", 120, "");
  std::fflush(stderr);
}

}  // namespace polyrt::scheduler

#include "scheduler/jobs/rate_pacer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>

#include "scheduler/jobs/interruption.hpp"

namespace polyrt::scheduler {

namespace {

// The longest sleep between checks for a signal.
constexpr std::chrono::milliseconds kSignalCheck{50};

}  // namespace

uint64_t RatePacer::wait_for_due_rows() {
  for (;;) {
    const Clock::time_point now = Clock::now();
    double elapsed = std::chrono::duration<double>(now - start_).count();
    // How late row `written_` (due at written_ / R) is; negative: not due yet.
    // Measured in seconds, not rows, so that R < 1 (a row every few seconds)
    // is never taken for a backlog.
    const double lag = elapsed - (double)written_ / rate_;
    if (lag >= 0) {
      worst_lag_ = std::max(worst_lag_, lag);
      if (lag > 1.0) {
        // The output fell behind: keep at most a second's rows due.
        if (now - last_report_ >= std::chrono::seconds(1)) {
          std::fprintf(stderr,
                       "polyrt: --rate %.6g: the output cannot keep up; rows are %.1f s behind "
                       "the schedule (it keeps at most 1 s of backlog)\n",
                       rate_, lag);
          last_report_ = now;
        }
        start_ +=
            std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(lag - 1.0));
        elapsed -= lag - 1.0;
      }
      // Rows written_ .. floor(elapsed * R) are due: at least the one that is late.
      const double due = std::floor(elapsed * rate_) + 1.0 - (double)written_;
      return due < 1.0 ? 1 : (uint64_t)due;
    }
    const auto next = start_ + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>((double)written_ / rate_));
    std::this_thread::sleep_until(std::min(next, now + kSignalCheck));
    Interruption::stop_if_requested();
  }
}

void RatePacer::write(FormatWriter& writer, std::string_view bytes, uint64_t rows,
                      std::string* owned) {
  if (rate_ <= 0 || rows == 0) {
    if (owned) {
      writer.write_taking(*owned);
    } else {
      writer.write(bytes);
    }
    Interruption::add_rows(rows);
    return;
  }
  if (!started_) {
    start_ = Clock::now();
    last_report_ = start_ - std::chrono::seconds(1);
    started_ = true;
  }
  const bool one_line_per_row = (uint64_t)std::count(bytes.begin(), bytes.end(), '\n') == rows;
  size_t offset = 0;
  uint64_t left = rows;
  while (left > 0) {
    const uint64_t due = wait_for_due_rows();
    const uint64_t n = one_line_per_row ? std::min(due, left) : left;
    size_t end = bytes.size();
    if (n < left) {
      end = offset;
      for (uint64_t k = 0; k < n; ++k) {
        end = (size_t)(static_cast<const char*>(
                           std::memchr(bytes.data() + end, '\n', bytes.size() - end)) -
                       bytes.data()) +
              1;
      }
    }
    writer.write(bytes.substr(offset, end - offset));
    offset = end;
    written_ += n;
    left -= n;
    Interruption::add_rows(n);
  }
}

}  // namespace polyrt::scheduler

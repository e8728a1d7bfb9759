#include "scheduler/jobs/interruption.hpp"

#include <signal.h>

#include <atomic>
#include <cstring>
#include <string>

#include "scheduler/output/blocking_write.hpp"

namespace polyrt::scheduler {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
volatile sig_atomic_t g_signal = 0;
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
std::atomic<uint64_t> g_rows{0};
std::atomic<bool> g_partial_output_kept{false};
std::function<bool()> g_stop_check;  // set while no job runs
struct sigaction g_previous[3];

extern "C" void on_signal(int signal) {
  g_signal = signal;
  g_stop.store(true, std::memory_order_relaxed);
  // The thread blocked on a pipe may not be this one.
  BlockingWrite::forward(signal);
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
  }
  return "signal " + std::to_string(signal);
}

std::string interruption_message(int signal, uint64_t rows, bool partial_output_kept) {
  std::string message = "polyrt: interrupted by " + signal_name(signal) + " after " +
                        std::to_string(rows) + " row(s) ";
  return message + (partial_output_kept
                        ? "were written to the output (they stay there; a row being written may "
                          "be cut short)"
                        : "were generated; no partial output was kept");
}

}  // namespace

InterruptedError::InterruptedError(int signal, uint64_t rows, bool partial_output_kept)
    : Error(interruption_message(signal, rows, partial_output_kept)), signal_(signal) {}

Interruption::Guard::Guard() {
  g_signal = 0;
  g_stop = false;
  g_rows = 0;
  g_partial_output_kept = false;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked write returns EINTR
  for (size_t i = 0; i < std::size(kSignals); ++i)
    ::sigaction(kSignals[i], &action, &g_previous[i]);
}

Interruption::Guard::~Guard() {
  for (size_t i = 0; i < std::size(kSignals); ++i)
    ::sigaction(kSignals[i], &g_previous[i], nullptr);
}

void Interruption::add_rows(uint64_t rows) {
  g_rows.fetch_add(rows, std::memory_order_relaxed);
}

void Interruption::set_partial_output_kept(bool kept) {
  g_partial_output_kept = kept;
}

const std::atomic<bool>* Interruption::stop_flag() {
  return &g_stop;
}

void Interruption::stop_if_requested() {
  if (const int signal = g_signal) {
    throw InterruptedError(signal, g_rows.load(), g_partial_output_kept.load());
  }
  if (g_stop_check && g_stop_check()) {
    throw InterruptedError(SIGTERM, g_rows.load(), g_partial_output_kept.load());
  }
}

void Interruption::set_stop_check(std::function<bool()> check) {
  g_stop_check = std::move(check);
}

}  // namespace polyrt::scheduler

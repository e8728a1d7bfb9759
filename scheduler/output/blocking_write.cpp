#include "scheduler/output/blocking_write.hpp"

#include <pthread.h>
#include <signal.h>

#include <atomic>

namespace polyrt::scheduler {

namespace {

// pthread_t is an integer on the platforms polyrt builds for; a lock-free
// atomic of it is safe to read from a signal handler.
std::atomic<pthread_t> g_writer{};
std::atomic<bool> g_writing{false};
static_assert(std::atomic<pthread_t>::is_always_lock_free, "read from a signal handler");

}  // namespace

BlockingWrite::BlockingWrite() {
  g_writer.store(pthread_self(), std::memory_order_relaxed);
  g_writing.store(true, std::memory_order_release);
}

BlockingWrite::~BlockingWrite() {
  g_writing.store(false, std::memory_order_release);
}

void BlockingWrite::forward(int signal) {
  if (!g_writing.load(std::memory_order_acquire)) return;
  const pthread_t writer = g_writer.load(std::memory_order_relaxed);
  if (!pthread_equal(writer, pthread_self())) pthread_kill(writer, signal);
}

}  // namespace polyrt::scheduler

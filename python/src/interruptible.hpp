// Long native calls that Ctrl-C can stop: the work runs without the GIL on a
// worker thread while the calling thread runs Python's signal handlers every
// few tens of milliseconds; when one raises (KeyboardInterrupt), the work is
// told to stop, is waited for, and the handler's exception is raised.
#pragma once

#include <atomic>
#include <functional>

namespace polyrt::python {

// Thrown by work that saw its stop flag; never reaches Python.
struct Stopped {};

// Runs work(stop). `work` must not touch Python objects; it should check
// `stop` at least every few milliseconds and then throw Stopped. Exceptions
// of the work are rethrown here (as their Python translations). Small jobs
// (`short_job`) run inline, without the thread.
void run_interruptible(const std::function<void(const std::atomic<bool>& stop)>& work,
                       bool short_job = false);

}  // namespace polyrt::python

// Long native calls that Ctrl-C can stop: the work runs without the GIL on a
// worker thread while the calling thread runs Python's signal handlers every
// few tens of milliseconds; when one raises (KeyboardInterrupt), the work is
// told to stop, is waited for, and the handler's exception is raised.
#pragma once

#include <atomic>
#include <functional>

namespace polyrt::python {

// Runs work(). `work` must not touch Python objects; it should poll `stop`
// (a batch's BatchOptions::stop) and give up with an exception once it is
// raised. The flag is lowered again before this returns. Exceptions of the
// work are rethrown here (as their Python translations). Small jobs
// (`short_job`) run inline, without the thread.
void run_interruptible(const std::function<void()>& work, std::atomic<bool>& stop,
                       bool short_job = false);

}  // namespace polyrt::python

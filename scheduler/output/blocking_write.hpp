// A write of a job's output that may block (a pipe nobody drains): while it
// lasts, the writing thread is known, so that a stop signal delivered to any
// other thread of the process is forwarded to it. The signal makes its write
// return EINTR (the handlers are installed without SA_RESTART) and the sink
// then sees the job's stop token (OutputSink::write_out); without the
// forward, the write would wait on the reader forever.
#pragma once

namespace polyrt::scheduler {

class BlockingWrite {
 public:
  BlockingWrite();   // registers the calling thread as the writer
  ~BlockingWrite();  // and forgets it
  BlockingWrite(const BlockingWrite&) = delete;
  BlockingWrite& operator=(const BlockingWrite&) = delete;

  // Called from a signal handler (async-signal-safe): sends `signal` to the
  // thread writing now, unless that is the caller or no thread writes. A
  // job writes its output from one thread at a time (in order).
  static void forward(int signal);
};

}  // namespace polyrt::scheduler

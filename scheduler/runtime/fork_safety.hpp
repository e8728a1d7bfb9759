// oneTBB's worker threads do not survive fork(): a child (multiprocessing's
// default start method on Linux) inherits the pool's bookkeeping without
// its threads and waits forever for them, even on Ctrl-C. So before a fork
// the workers are stopped (tbb::finalize waits until they have exited), and
// after it the parent and the child each attach afresh: new workers start on
// demand. A fork while another thread of the process runs parallel work
// cannot stop the workers; that child must not use polyrt's thread pool.
#pragma once

namespace polyrt::scheduler {

// Installs the fork handlers once per process; cheap after the first call.
// Called before any parallel work.
void make_thread_pool_fork_safe();

}  // namespace polyrt::scheduler

// Compressed output at the speed of every core, as pigz does it: the bytes
// written are cut into blocks, each compressed on its own (a gzip member or
// zstd frame) by a pool of threads, and the results handed on in the order
// the bytes came. The writing thread never waits on a block nobody has
// started: it compresses that one itself.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "scheduler/output/compression.hpp"

namespace polyrt::scheduler {

class BlockCompressor {
 public:
  using Sink = std::function<void(std::string_view)>;
  // `threads` 0: one per core.
  BlockCompressor(Compression compression, Sink sink, size_t threads = 0);
  ~BlockCompressor();  // drops what is not handed on yet
  BlockCompressor(const BlockCompressor&) = delete;
  BlockCompressor& operator=(const BlockCompressor&) = delete;

  void write(std::string_view bytes);
  // Compresses what is left and hands every block on.
  void finish();

  // Input bytes per block: large enough that a frame's header and a fresh
  // dictionary cost nothing measurable, small enough for every core to
  // have a block while the job writes.
  static constexpr size_t kBlockBytes = size_t{4} << 20;

 private:
  struct Block;
  void submit();
  void hand_on_front();
  void work();

  Compression compression_;
  Sink sink_;
  size_t threads_;
  std::string pending_;
  std::deque<std::shared_ptr<Block>> in_order_;  // submitted, not handed on
  std::deque<std::shared_ptr<Block>> queue_;     // submitted, not started
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;  // started with the first block
};

}  // namespace polyrt::scheduler

#include "scheduler/output/block_compressor.hpp"

#include <algorithm>

namespace polyrt::scheduler {

struct BlockCompressor::Block {
  std::string input, output;
  std::exception_ptr error;
  bool started = false;  // under mutex_
  bool done = false;     // under mutex_
};

BlockCompressor::BlockCompressor(Compression compression, Sink sink, size_t threads)
    : compression_(compression),
      sink_(std::move(sink)),
      threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

BlockCompressor::~BlockCompressor() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void BlockCompressor::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const size_t take = std::min(bytes.size(), kBlockBytes - pending_.size());
    pending_.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
    if (pending_.size() == kBlockBytes) submit();
  }
}

void BlockCompressor::finish() {
  if (!pending_.empty()) submit();
  while (!in_order_.empty()) hand_on_front();
}

void BlockCompressor::submit() {
  auto block = std::make_shared<Block>();
  block->input = std::move(pending_);
  pending_ = std::string();
  pending_.reserve(kBlockBytes);
  {
    std::lock_guard lock(mutex_);
    in_order_.push_back(block);
    queue_.push_back(block);
    if (workers_.empty()) {
      for (size_t k = 0; k < threads_; ++k) workers_.emplace_back([this] { work(); });
    }
  }
  wake_.notify_one();
  // At most two blocks per thread in memory: a writer faster than the
  // compressors waits here (or compresses the front block itself).
  while (in_order_.size() > 2 * threads_) hand_on_front();
}

// Compresses `block` (claimed by the caller), outside the lock.
static void compress_claimed(const Compression& compression, std::string& input,
                             std::string& output, std::exception_ptr& error) {
  try {
    output.reserve(input.size() / 2);
    compress_block(compression, input, output);
  } catch (...) {
    error = std::current_exception();
  }
  input = std::string();
}

void BlockCompressor::hand_on_front() {
  const std::shared_ptr<Block> block = in_order_.front();
  std::unique_lock lock(mutex_);
  if (!block->started) {  // nobody has taken it: compress it here
    block->started = true;
    queue_.erase(std::find(queue_.begin(), queue_.end(), block));
    lock.unlock();
    compress_claimed(compression_, block->input, block->output, block->error);
    lock.lock();
    block->done = true;
  }
  wake_.wait(lock, [&] { return block->done; });
  lock.unlock();
  in_order_.pop_front();
  if (block->error) std::rethrow_exception(block->error);
  sink_(block->output);
}

void BlockCompressor::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    const std::shared_ptr<Block> block = queue_.front();
    queue_.pop_front();
    block->started = true;
    lock.unlock();
    compress_claimed(compression_, block->input, block->output, block->error);
    lock.lock();
    block->done = true;
    wake_.notify_all();
  }
}

}  // namespace polyrt::scheduler

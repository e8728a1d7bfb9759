#include "cache/compiled_cache.hpp"

namespace polyrt::cache {

CompiledCache::CompiledCache(std::optional<std::string> dir, std::string suffix,
                             uint64_t memory_bytes)
    : disk_(std::move(dir), std::move(suffix)), budget_(memory_bytes) {}

std::optional<std::string> CompiledCache::find(const std::string& key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = memory_.find(key);
    if (it != memory_.end()) {
      ++memory_hits_;
      uses_.splice(uses_.begin(), uses_, it->second.use);
      return it->second.bytes;
    }
  }
  std::optional<std::string> bytes = disk_.load(key);
  if (!bytes) return std::nullopt;
  ++disk_hits_;
  std::lock_guard<std::mutex> lock(mutex_);
  remember(key, *bytes);
  return bytes;
}

void CompiledCache::keep(const std::string& key, const std::string& bytes) {
  ++compiled_;
  disk_.store(key, bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  remember(key, bytes);
}

void CompiledCache::remember(const std::string& key, const std::string& bytes) {
  if (memory_.count(key)) return;  // another thread kept it first
  uses_.push_front(key);
  memory_.emplace(key, Entry{bytes, uses_.begin()});
  held_ += bytes.size();
  // The newest entry stays even when it alone is over the budget.
  while (held_ > budget_ && uses_.size() > 1) {
    const auto oldest = memory_.find(uses_.back());
    held_ -= oldest->second.bytes.size();
    memory_.erase(oldest);
    uses_.pop_back();
  }
}

CacheStats CompiledCache::stats() const {
  return CacheStats{compiled_.load(), memory_hits_.load(), disk_hits_.load()};
}

uint64_t CompiledCache::memory_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return held_;
}

}  // namespace polyrt::cache

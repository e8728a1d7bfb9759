#include "cache/compiled_cache.hpp"

namespace polyrt::cache {

CompiledCache::CompiledCache(std::optional<std::string> dir, std::string suffix)
    : disk_(std::move(dir), std::move(suffix)) {}

std::optional<std::string> CompiledCache::find(const std::string& key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = memory_.find(key);
    if (it != memory_.end()) {
      ++memory_hits_;
      return it->second;
    }
  }
  std::optional<std::string> bytes = disk_.load(key);
  if (!bytes) return std::nullopt;
  ++disk_hits_;
  std::lock_guard<std::mutex> lock(mutex_);
  memory_.emplace(key, *bytes);
  return bytes;
}

void CompiledCache::keep(const std::string& key, const std::string& bytes) {
  ++compiled_;
  disk_.store(key, bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  memory_.emplace(key, bytes);
}

CacheStats CompiledCache::stats() const {
  return CacheStats{compiled_.load(), memory_hits_.load(), disk_hits_.load()};
}

}  // namespace polyrt::cache

// Compiled code by key, in this process's memory and in the on-disk cache:
// what the JIT (host objects) and the PTX compiler share. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "cache/disk_cache.hpp"

namespace polyrt::cache {

struct CacheStats {
  uint64_t compiled = 0;     // entries built (by O2 and a back end)
  uint64_t memory_hits = 0;  // entries reused from this process
  uint64_t disk_hits = 0;    // entries loaded from the disk cache
};

class CompiledCache {
 public:
  // dir: the disk cache's directory (nullopt: memory only); suffix: the kind
  // of entry (".o", ".ptx").
  CompiledCache(std::optional<std::string> dir, std::string suffix);

  // The entry of `key` from memory, else from disk (then kept in memory).
  std::optional<std::string> find(const std::string& key);
  // A freshly compiled entry: counted, stored on disk and in memory.
  void keep(const std::string& key, const std::string& bytes);

  CacheStats stats() const;

 private:
  DiskCache disk_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::string> memory_;
  std::atomic<uint64_t> compiled_{0}, memory_hits_{0}, disk_hits_{0};
};

}  // namespace polyrt::cache

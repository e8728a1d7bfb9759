// Compiled code by key, in this process's memory and in the on-disk cache:
// what the JIT (host objects) and the PTX compiler share. Thread-safe. The
// memory holds at most a budget of bytes, the entries used least recently
// leaving first (the disk cache keeps them): a process that compiles
// program after program (a notebook, a server) does not grow without bound.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
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
  // What the memory holds unless the constructor says otherwise.
  static constexpr uint64_t kDefaultMemoryBytes = uint64_t{256} << 20;

  // dir: the disk cache's directory (nullopt: memory only); suffix: the kind
  // of entry (".o", ".ptx"); memory_bytes: the memory's budget.
  CompiledCache(std::optional<std::string> dir, std::string suffix,
                uint64_t memory_bytes = kDefaultMemoryBytes);

  // The entry of `key` from memory, else from disk (then kept in memory).
  std::optional<std::string> find(const std::string& key);
  // A freshly compiled entry: counted, stored on disk and in memory.
  void keep(const std::string& key, const std::string& bytes);

  CacheStats stats() const;
  // The bytes of the entries in memory now.
  uint64_t memory_bytes() const;

 private:
  struct Entry {
    std::string bytes;
    std::list<std::string>::iterator use;  // its place in uses_
  };
  // Keeps `bytes` as the most recently used entry, then evicts the least
  // recently used ones past the budget. Under mutex_.
  void remember(const std::string& key, const std::string& bytes);

  DiskCache disk_;
  const uint64_t budget_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> memory_;
  std::list<std::string> uses_;  // keys, most recently used first
  uint64_t held_ = 0;            // bytes in memory_
  std::atomic<uint64_t> compiled_{0}, memory_hits_{0}, disk_hits_{0};
};

}  // namespace polyrt::cache

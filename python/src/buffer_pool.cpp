#include "python/src/buffer_pool.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>

namespace polyrt::python {
namespace {

constexpr size_t kSmallest = size_t(1) << 20;  // malloc reuses smaller ones itself
constexpr size_t kHugePage = size_t(2) << 20;

struct Pool {
  std::mutex lock;
  std::unordered_map<void*, size_t> sizes;  // every buffer handed out or kept
  std::unordered_map<void*, size_t> kept;   // those free for reuse
  size_t kept_bytes = 0;
  size_t limit = size_t(1) << 30;

  void trim() {
    for (auto it = kept.begin(); kept_bytes > limit && it != kept.end();) {
      kept_bytes -= it->second;
      sizes.erase(it->first);
      std::free(it->first);
      it = kept.erase(it);
    }
  }
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: arrays may outlive static destruction
  return *p;
}

}  // namespace

void* take_buffer(size_t bytes) {
  bytes = bytes ? bytes : 1;
  Pool& p = pool();
  if (bytes >= kSmallest) {
    const std::lock_guard guard(p.lock);
    auto best = p.kept.end();
    for (auto it = p.kept.begin(); it != p.kept.end(); ++it) {
      if (it->second >= bytes && it->second <= 2 * bytes &&
          (best == p.kept.end() || it->second < best->second)) {
        best = it;
      }
    }
    if (best != p.kept.end()) {
      void* buffer = best->first;
      p.kept_bytes -= best->second;
      p.kept.erase(best);
      return buffer;
    }
  }
  if (bytes < kSmallest) {
    void* buffer = std::malloc(bytes);
    if (!buffer) throw std::bad_alloc();
    return buffer;
  }
  // Whole huge pages where the system allows them (transparent huge pages
  // in "madvise" mode): 512 times fewer page faults and TLB misses.
  bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* buffer = std::aligned_alloc(kHugePage, bytes);
  if (!buffer) throw std::bad_alloc();
  madvise(buffer, bytes, MADV_HUGEPAGE);  // advice: failing changes nothing
  const std::lock_guard guard(p.lock);
  p.sizes[buffer] = bytes;
  return buffer;
}

void give_buffer(void* buffer) noexcept {
  Pool& p = pool();
  const std::lock_guard guard(p.lock);
  const auto size = p.sizes.find(buffer);
  if (size == p.sizes.end()) {
    std::free(buffer);
    return;
  }
  if (size->second > p.limit) {
    p.sizes.erase(size);
    std::free(buffer);
    return;
  }
  p.kept.emplace(buffer, size->second);
  p.kept_bytes += size->second;
  p.trim();
}

void set_buffer_cache_limit(size_t bytes) {
  Pool& p = pool();
  const std::lock_guard guard(p.lock);
  p.limit = bytes;
  p.trim();
}

}  // namespace polyrt::python

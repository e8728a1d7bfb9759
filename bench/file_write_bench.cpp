// How fast one output file takes bytes from several threads, in one run: the
// evidence for how `--out` writes (issue 55 item 5). Each iteration writes
// 256 MiB of 4 MiB blocks, the blocks dealt round-robin to `threads`
// threads, into a new file in POLYRT_BENCH_DIR (default /dev/shm, a file in
// RAM as the measure): by positioned writes (pwrite, the page
// cache's buffered path) or by copies into a shared mapping of the file,
// its space reserved first with fallocate (a full disk is then an error,
// never a SIGBUS). Compare bytes_per_second across thread counts: on Linux
// a buffered write holds the file's inode lock, so pwrite threads queue.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace polyrt::bench {
namespace {

constexpr size_t kBlockBytes = size_t{4} << 20;
constexpr size_t kFileBytes = size_t{256} << 20;

std::string bench_file() {
  const char* dir = std::getenv("POLYRT_BENCH_DIR");
  return std::string(dir && *dir ? dir : "/dev/shm") + "/polyrt_file_write_bench." +
         std::to_string(::getpid());
}

// Writes the file with `threads` threads; false when the system refused
// (the benchmark then reports the error).
bool write_file(const std::string& path, const std::string& block, int threads, bool mapped) {
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  char* map = nullptr;
  if (mapped) {
    if (::fallocate(fd, 0, 0, (off_t)kFileBytes) != 0) return ::close(fd), false;
    void* at = ::mmap(nullptr, kFileBytes, PROT_WRITE, MAP_SHARED, fd, 0);
    if (at == MAP_FAILED) return ::close(fd), false;
    map = static_cast<char*>(at);
  }
  std::vector<std::thread> writers;
  std::vector<char> failed((size_t)threads, 0);
  for (int t = 0; t < threads; ++t) {
    writers.emplace_back([&, t] {
      for (size_t at = (size_t)t * kBlockBytes; at < kFileBytes;
           at += (size_t)threads * kBlockBytes) {
        if (map) {
          std::memcpy(map + at, block.data(), kBlockBytes);
        } else if (::pwrite(fd, block.data(), kBlockBytes, (off_t)at) != (ssize_t)kBlockBytes) {
          failed[(size_t)t] = 1;
        }
      }
    });
  }
  for (std::thread& w : writers) w.join();
  if (map) ::munmap(map, kFileBytes);
  ::close(fd);
  return std::find(failed.begin(), failed.end(), 1) == failed.end();
}

void BM_FileWrite(benchmark::State& st, bool mapped) {
  const std::string path = bench_file();
  const std::string block(kBlockBytes, 'x');
  const int threads = (int)st.range(0);
  for (auto _ : st) {
    if (!write_file(path, block, threads, mapped)) {
      st.SkipWithError(("cannot write " + path + ": " + std::strerror(errno)).c_str());
      break;
    }
    st.PauseTiming();
    ::unlink(path.c_str());  // freeing the pages is not the writers' time
    st.ResumeTiming();
  }
  ::unlink(path.c_str());
  st.SetBytesProcessed((int64_t)st.iterations() * (int64_t)kFileBytes);
}

// 1 to 16 threads, timed by the wall clock (the writers are other threads).
void thread_counts(benchmark::internal::Benchmark* b) {
  for (int threads : {1, 2, 4, 8, 16}) b->Arg(threads);
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK_CAPTURE(BM_FileWrite, Pwrite, false)->Apply(thread_counts);
BENCHMARK_CAPTURE(BM_FileWrite, Mapped, true)->Apply(thread_counts);

}  // namespace
}  // namespace polyrt::bench

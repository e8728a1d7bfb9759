#include "gpu_backend/chunk_trace.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "polyrt/error.hpp"

namespace polyrt::gpu {

bool ChunkTrace::enabled() {
  static const bool on = [] {
    const char* value = std::getenv("POLYRT_GPU_TRACE");
    return value && std::strcmp(value, "1") == 0;
  }();
  return on;
}

ChunkTrace::~ChunkTrace() {
  if (events_.empty()) return;
  try {
    // Destroyed on whatever thread drops the chunk state: in its context.
    const CurrentContext current = context_.make_current();
    for (cuda::CUevent e : events_) context_.driver().api().cuEventDestroy(e);
  } catch (const Error&) {  // a context that cannot be made current: its events are gone with it
  }
}

cuda::CUevent ChunkTrace::event(size_t k) {
  while (events_.size() <= k) {
    cuda::CUevent e = nullptr;
    context_.check(context_.driver().api().cuEventCreate(&e, cuda::CU_EVENT_DEFAULT),
                   "cuEventCreate");
    events_.push_back(e);
  }
  return events_[k];
}

void ChunkTrace::prepared(double ms, uint64_t pinned_bytes) {
  prepare_ms_ = ms;
  pinned_bytes_ = pinned_bytes;
}

void ChunkTrace::begin(cuda::CUstream stream) {
  marks_.clear();
  context_.check(context_.driver().api().cuEventRecord(event(0), stream), "cuEventRecord");
}

void ChunkTrace::mark(cuda::CUstream stream, std::string what, unsigned blocks) {
  marks_.push_back({std::move(what), blocks});
  context_.check(context_.driver().api().cuEventRecord(event(marks_.size()), stream),
                 "cuEventRecord");
}

std::string ChunkTrace::line(uint64_t first, uint64_t rows) {
  if (marks_.empty()) return "";
  const cuda::DriverApi& api = context_.driver().api();
  char text[160];
  std::snprintf(text, sizeof text,
                "polyrt: gpu %d chunk %llu+%llu: prepare %.3f ms (%.1f MiB pinned)",
                context_.device().ordinal, (unsigned long long)first, (unsigned long long)rows,
                prepare_ms_, (double)pinned_bytes_ / (1 << 20));
  std::string out = text;
  float total = 0;
  for (size_t k = 0; k < marks_.size(); ++k) {
    // A diagnostic never fails the job: a time the driver cannot give is NaN.
    float ms = 0;
    if (api.cuEventElapsedTime(&ms, events_[k], events_[k + 1]) != cuda::CUDA_SUCCESS) {
      ms = __builtin_nanf("");
    }
    total += ms;
    if (marks_[k].blocks) {
      std::snprintf(text, sizeof text, "; %s %.3f ms (%u blocks)", marks_[k].what.c_str(), ms,
                    marks_[k].blocks);
    } else {
      std::snprintf(text, sizeof text, "; %s %.3f ms", marks_[k].what.c_str(), ms);
    }
    out += text;
  }
  std::snprintf(text, sizeof text, "; on the device %.3f ms\n", total);
  return out + text;
}

}  // namespace polyrt::gpu

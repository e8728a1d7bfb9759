#include "gpu_backend/driver/device_resources.hpp"

#include <utility>

#include "polyrt/error.hpp"

namespace polyrt::gpu {

GpuContext::GpuContext(const CudaDriver& driver, int ordinal) : driver_(driver), ordinal_(ordinal) {
  check(driver_.api().cuDeviceGet(&handle_, ordinal), "cuDeviceGet");
  check(driver_.api().cuDevicePrimaryCtxRetain(&context_, handle_), "cuDevicePrimaryCtxRetain");
}

GpuContext::~GpuContext() {
  driver_.api().cuDevicePrimaryCtxRelease(handle_);
}

void GpuContext::make_current() const {
  thread_local cuda::CUcontext current = nullptr;
  if (current == context_) return;
  check(driver_.api().cuCtxSetCurrent(context_), "cuCtxSetCurrent");
  current = context_;
}

GpuStream::GpuStream(const GpuContext& context) : context_(context) {
  context_.make_current();
  context_.check(context_.driver().api().cuStreamCreate(&stream_, cuda::CU_STREAM_NON_BLOCKING),
                 "cuStreamCreate");
}

GpuStream::~GpuStream() {
  if (!stream_) return;
  try {
    context_.make_current();
  } catch (const Error&) {
    return;
  }
  context_.driver().api().cuStreamDestroy(stream_);
}

void GpuStream::synchronize() const {
  context_.check(context_.driver().api().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

DeviceBuffer::DeviceBuffer(const GpuContext& context, size_t bytes) : DriverMemory(context, bytes) {
  context.make_current();
  context.check(context.driver().api().cuMemAlloc(&pointer_, bytes ? bytes : 8), "cuMemAlloc");
}

PinnedBuffer::PinnedBuffer(const GpuContext& context, size_t bytes) : DriverMemory(context, bytes) {
  context.make_current();
  context.check(context.driver().api().cuMemHostAlloc(&pointer_, bytes ? bytes : 8,
                                                      cuda::CU_MEMHOSTALLOC_PORTABLE),
                "cuMemHostAlloc");
}

}  // namespace polyrt::gpu

#include "gpu_backend/driver/device_resources.hpp"

#include <utility>

#include "polyrt/error.hpp"

namespace polyrt::gpu {

CurrentContext::CurrentContext(const CudaDriver& driver, cuda::CUcontext context)
    : driver_(driver) {
  driver_.check(driver_.api().cuCtxGetCurrent(&previous_), "cuCtxGetCurrent");
  if (previous_ == context) return;
  driver_.check(driver_.api().cuCtxSetCurrent(context), "cuCtxSetCurrent");
  changed_ = true;
}

CurrentContext::~CurrentContext() {
  if (changed_) driver_.api().cuCtxSetCurrent(previous_);
}

GpuContext::GpuContext(const CudaDriver& driver, int ordinal)
    : driver_(driver), ordinal_(ordinal), context_(driver.primary_context(ordinal)) {}

void GpuContext::check(cuda::CUresult result, const char* call) const {
  if (CudaDriver::is_sticky(result)) driver_.record_fault(ordinal_, driver_.failure(result, call));
  driver_.check(result, call);
}

GpuStream::GpuStream(const GpuContext& context) : context_(context) {
  const CurrentContext current = context_.make_current();
  context_.check(context_.driver().api().cuStreamCreate(&stream_, cuda::CU_STREAM_NON_BLOCKING),
                 "cuStreamCreate");
}

GpuStream::~GpuStream() {
  if (!stream_) return;
  try {
    const CurrentContext current = context_.make_current();
    context_.driver().api().cuStreamDestroy(stream_);
  } catch (const Error&) {
  }
}

void GpuStream::synchronize() const {
  const CurrentContext current = context_.make_current();
  context_.check(context_.driver().api().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

DeviceBuffer::DeviceBuffer(const GpuContext& context, size_t bytes) : DriverMemory(context, bytes) {
  const CurrentContext current = context.make_current();
  context.check(context.driver().api().cuMemAlloc(&pointer_, bytes ? bytes : 8), "cuMemAlloc");
}

PinnedBuffer::PinnedBuffer(const GpuContext& context, size_t bytes) : DriverMemory(context, bytes) {
  const CurrentContext current = context.make_current();
  context.check(context.driver().api().cuMemHostAlloc(&pointer_, bytes ? bytes : 8,
                                                      cuda::CU_MEMHOSTALLOC_PORTABLE),
                "cuMemHostAlloc");
}

}  // namespace polyrt::gpu

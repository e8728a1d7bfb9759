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

DeviceBuffer::DeviceBuffer(const GpuContext& context, size_t bytes)
    : context_(&context), bytes_(bytes) {
  context.make_current();
  context.check(context.driver().api().cuMemAlloc(&address_, bytes ? bytes : 8), "cuMemAlloc");
}

DeviceBuffer::~DeviceBuffer() {
  release();
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept {
  *this = std::move(other);
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    context_ = std::exchange(other.context_, nullptr);
    address_ = std::exchange(other.address_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void DeviceBuffer::release() {
  if (!address_) return;
  try {
    context_->make_current();
    context_->driver().api().cuMemFree(address_);
  } catch (const Error&) {
  }
  address_ = 0;
}

PinnedBuffer::PinnedBuffer(const GpuContext& context, size_t bytes)
    : context_(&context), bytes_(bytes) {
  context.make_current();
  context.check(context.driver().api().cuMemHostAlloc(&data_, bytes ? bytes : 8,
                                                      cuda::CU_MEMHOSTALLOC_PORTABLE),
                "cuMemHostAlloc");
}

PinnedBuffer::~PinnedBuffer() {
  release();
}

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept {
  *this = std::move(other);
}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    release();
    context_ = std::exchange(other.context_, nullptr);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void PinnedBuffer::release() {
  if (!data_) return;
  try {
    context_->make_current();
    context_->driver().api().cuMemFreeHost(data_);
  } catch (const Error&) {
  }
  data_ = nullptr;
}

}  // namespace polyrt::gpu

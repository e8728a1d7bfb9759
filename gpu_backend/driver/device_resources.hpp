// RAII over the driver's resources: a device's primary context (made current
// on each thread that works with it), non-blocking streams, device buffers
// and page-locked host buffers. Destructors never throw: a failure to free is
// ignored (the context's teardown reclaims it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "gpu_backend/driver/cuda_driver.hpp"
#include "polyrt/error.hpp"

namespace polyrt::gpu {

// While it lives, a context is current on the calling thread; when it goes,
// the thread's previous context is current again. polyrt's calls run on
// threads it does not own (the caller's, oneTBB's), where a host
// application's own context (PyTorch's, CuPy's) must be left as it was.
class CurrentContext {
 public:
  CurrentContext(const CudaDriver& driver, cuda::CUcontext context);
  ~CurrentContext();
  CurrentContext(const CurrentContext&) = delete;
  CurrentContext& operator=(const CurrentContext&) = delete;

 private:
  const CudaDriver& driver_;
  cuda::CUcontext previous_ = nullptr;
  bool changed_ = false;
};

class GpuContext {
 public:
  // Device `ordinal`'s primary context, retained once per process
  // (CudaDriver::primary_context): making one costs nothing more.
  GpuContext(const CudaDriver& driver, int ordinal);
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;

  // Makes the context current on the calling thread (asking the driver which
  // is current, never a cached answer) until the returned guard goes.
  [[nodiscard]] CurrentContext make_current() const { return CurrentContext(driver_, context_); }

  const CudaDriver& driver() const { return driver_; }
  const GpuDevice& device() const { return driver_.devices()[ordinal_]; }
  // CudaDriver::check, and a sticky fault marks the device unusable for the
  // rest of the process (CudaDriver::record_fault).
  void check(cuda::CUresult result, const char* call) const;

 private:
  const CudaDriver& driver_;
  int ordinal_;
  cuda::CUcontext context_ = nullptr;
};

class GpuStream {
 public:
  explicit GpuStream(const GpuContext& context);
  ~GpuStream();
  GpuStream(const GpuStream&) = delete;
  GpuStream& operator=(const GpuStream&) = delete;
  cuda::CUstream handle() const { return stream_; }
  void synchronize() const;

 private:
  const GpuContext& context_;
  cuda::CUstream stream_ = nullptr;
};

// Memory the driver hands out, owned once: moved, never copied, freed by the
// call that matches its allocation (in its context, on whatever thread).
template <typename Pointer, cuda::CUresult (*cuda::DriverApi::*Free)(Pointer)>
class DriverMemory {
 public:
  DriverMemory() = default;
  ~DriverMemory() { release(); }
  DriverMemory(DriverMemory&& other) noexcept { *this = std::move(other); }
  DriverMemory& operator=(DriverMemory&& other) noexcept {
    if (this != &other) {
      release();
      context_ = std::exchange(other.context_, nullptr);
      pointer_ = std::exchange(other.pointer_, Pointer{});
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  size_t bytes() const { return bytes_; }

 protected:
  DriverMemory(const GpuContext& context, size_t bytes) : context_(&context), bytes_(bytes) {}
  const GpuContext* context_ = nullptr;
  Pointer pointer_{};

 private:
  void release() {
    if (!pointer_) return;
    try {
      const CurrentContext current = context_->make_current();
      (context_->driver().api().*Free)(pointer_);
    } catch (const Error&) {
    }
    pointer_ = Pointer{};
  }
  size_t bytes_ = 0;
};

class DeviceBuffer : public DriverMemory<cuda::CUdeviceptr, &cuda::DriverApi::cuMemFree> {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const GpuContext& context, size_t bytes);
  cuda::CUdeviceptr address() const { return pointer_; }
};

// Page-locked host memory: asynchronous copies need it (from pageable memory
// a real driver silently copies synchronously).
class PinnedBuffer : public DriverMemory<void*, &cuda::DriverApi::cuMemFreeHost> {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(const GpuContext& context, size_t bytes);
  uint64_t* words() const { return static_cast<uint64_t*>(pointer_); }
};

}  // namespace polyrt::gpu

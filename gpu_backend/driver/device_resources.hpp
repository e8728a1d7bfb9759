// RAII over the driver's resources: a device's primary context (made current
// on each thread that works with it), non-blocking streams, device buffers
// and page-locked host buffers. Destructors never throw: a failure to free is
// ignored (the context's teardown reclaims it).
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu_backend/driver/cuda_driver.hpp"

namespace polyrt::gpu {

class GpuContext {
 public:
  // Retains the primary context of device `ordinal`.
  GpuContext(const CudaDriver& driver, int ordinal);
  ~GpuContext();
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;

  // Makes the context current on the calling thread (a no-op when it is).
  void make_current() const;

  const CudaDriver& driver() const { return driver_; }
  const GpuDevice& device() const { return driver_.devices()[ordinal_]; }
  void check(cuda::CUresult result, const char* call) const { driver_.check(result, call); }

 private:
  const CudaDriver& driver_;
  int ordinal_;
  cuda::CUdevice handle_ = 0;
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

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const GpuContext& context, size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  cuda::CUdeviceptr address() const { return address_; }
  size_t bytes() const { return bytes_; }

 private:
  void release();
  const GpuContext* context_ = nullptr;
  cuda::CUdeviceptr address_ = 0;
  size_t bytes_ = 0;
};

// Page-locked host memory: asynchronous copies need it (from pageable memory
// a real driver silently copies synchronously).
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(const GpuContext& context, size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& other) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  uint64_t* words() const { return static_cast<uint64_t*>(data_); }
  size_t bytes() const { return bytes_; }

 private:
  void release();
  const GpuContext* context_ = nullptr;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace polyrt::gpu

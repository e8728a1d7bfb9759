// The CUDA driver, loaded at run time: `libcuda.so.1` opened with dlopen (one
// already in the process is reused; POLYRT_LIBCUDA names another file), every
// entry point resolved with cuGetProcAddress_v2 by base name at
// cuda::kApiVersion. A machine without a usable driver gets a reason, never a
// crash; every failing call afterwards is a DeviceError naming the call, the
// error's name and text.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gpu_backend/driver/cuda_api.hpp"

namespace polyrt::gpu {

struct GpuDevice {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;  // compute capability
  int sms = 0;                     // streaming multiprocessors
  size_t memory_bytes = 0;
  unsigned sm() const { return (unsigned)(cc_major * 10 + cc_minor); }
};

class CudaDriver {
 public:
  // The process's driver, loaded and initialized on the first call; null
  // when none is usable (unavailable_reason() says why).
  static const CudaDriver* get();
  static std::string unavailable_reason();

  const cuda::DriverApi& api() const { return api_; }
  int version() const { return version_; }  // 12040 for CUDA 12.4
  // The driver library's file as loaded (dladdr, symbolic links resolved:
  // never the bare soname libcuda.so.1, which names no file).
  const std::string& library_path() const { return path_; }
  // The driver library file that was loaded: its resolved path, device,
  // inode, size and modification time. Part of the cubin cache key, so that
  // a cubin made by one driver (or by the test double, whose "cubins" are not
  // machine code) is never loaded by another sharing the cache directory.
  const std::string& library_identity() const { return identity_; }
  const std::vector<GpuDevice>& devices() const { return devices_; }
  // The library's handle, for symbols beyond the driver API (the test
  // double's host-twin hook).
  void* library() const { return library_; }

  // Device `ordinal`'s primary context, retained once per process and kept
  // (the last release would destroy it: every new batch would pay its
  // creation, 0.1-0.3 s on a big GPU, and reload its modules). Before the
  // first retain it is set to block on synchronization: a thread waiting
  // for a stream sleeps instead of spinning a core the CPU tier could use.
  cuda::CUcontext primary_context(int ordinal) const;

  // Faults that leave a device's context unusable for the rest of the
  // process (an illegal address, a launch failure, a lost device, ...): on a
  // real GPU every later call in that context fails too.
  static bool is_sticky(cuda::CUresult result);
  // Marks device `ordinal` unusable for the rest of the process; the first
  // fault is the one kept and named from then on.
  void record_fault(int ordinal, const std::string& what) const;
  // The first sticky fault of device `ordinal`, if it had one.
  std::optional<std::string> fault(int ordinal) const;

  // Throws DeviceError(failure(result, call)) unless `result` is CUDA_SUCCESS.
  void check(cuda::CUresult result, const char* call) const;
  // "CALL failed: NAME (CODE): TEXT".
  std::string failure(cuda::CUresult result, const char* call) const;
  // "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory", also for codes the driver
  // cannot name (a stub library names none).
  std::string describe(cuda::CUresult result) const;

 private:
  struct Loaded;
  static const Loaded& loaded();
  CudaDriver() = default;
  void load(std::string& why_not);

  void* library_ = nullptr;
  std::string path_;
  std::string identity_;
  cuda::DriverApi api_{};
  int version_ = 0;
  std::vector<GpuDevice> devices_;
  mutable std::mutex contexts_lock_;
  mutable std::vector<cuda::CUcontext> contexts_;  // per device, null until retained
  mutable std::vector<std::string> faults_;        // per device, empty while usable
};

// "CUDA_ERROR_STUB_LIBRARY (34): ..." from polyrt's own table: what a loader
// says about codes when no usable driver can name them.
std::string describe_cuda_error(cuda::CUresult result);

}  // namespace polyrt::gpu

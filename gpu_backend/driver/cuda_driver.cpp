#include "gpu_backend/driver/cuda_driver.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <sys/stat.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "polyrt/error.hpp"

namespace polyrt::gpu {

namespace {

struct KnownError {
  cuda::CUresult code;
  const char* name;
  const char* text;
};

// The codes polyrt may meet, named as the driver names them: a stub or
// broken driver cannot name its own errors.
constexpr KnownError kKnownErrors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {34, "CUDA_ERROR_STUB_LIBRARY",
     "CUDA driver is a stub library (the toolkit's libcuda.so, not an NVIDIA driver)"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {46, "CUDA_ERROR_DEVICES_UNAVAILABLE", "CUDA-capable device(s) is/are busy or unavailable"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the provided PTX was compiled with an unsupported toolchain"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

std::string code_text(cuda::CUresult result, const char* name, const char* text) {
  return std::string(name) + " (" + std::to_string(result) + "): " + text;
}

}  // namespace

std::string describe_cuda_error(cuda::CUresult result) {
  for (const KnownError& e : kKnownErrors) {
    if (e.code == result) return code_text(result, e.name, e.text);
  }
  return code_text(result, "CUDA error", "not a code polyrt knows");
}

std::string CudaDriver::describe(cuda::CUresult result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api_.cuGetErrorName && api_.cuGetErrorName(result, &name) == cuda::CUDA_SUCCESS && name &&
      api_.cuGetErrorString && api_.cuGetErrorString(result, &text) == cuda::CUDA_SUCCESS && text) {
    return code_text(result, name, text);
  }
  return describe_cuda_error(result);
}

cuda::CUcontext CudaDriver::primary_context(int ordinal) const {
  const std::lock_guard lock(contexts_lock_);
  if (contexts_.empty()) contexts_.assign(devices_.size(), nullptr);
  cuda::CUcontext& context = contexts_.at((size_t)ordinal);
  if (!context) {
    cuda::CUdevice device = 0;
    check(api_.cuDeviceGet(&device, ordinal), "cuDeviceGet");
    // An active primary context is the host application's (PyTorch's, ...):
    // it keeps the application's scheduling flags. Only one polyrt makes
    // gets blocking synchronization (the driver would change an active
    // one's flags too: cuDevicePrimaryCtxSetFlags succeeds on it).
    unsigned flags = 0;
    int active = 0;
    if (api_.cuDevicePrimaryCtxGetState(device, &flags, &active) != cuda::CUDA_SUCCESS || !active) {
      api_.cuDevicePrimaryCtxSetFlags(device, cuda::CU_CTX_SCHED_BLOCKING_SYNC);
    }
    check(api_.cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  }
  return context;
}

bool CudaDriver::is_sticky(cuda::CUresult result) {
  switch (result) {
    case 46:   // CUDA_ERROR_DEVICES_UNAVAILABLE (the test double's lost device)
    case 214:  // CUDA_ERROR_ECC_UNCORRECTABLE
    case 700:  // CUDA_ERROR_ILLEGAL_ADDRESS
    case 702:  // CUDA_ERROR_LAUNCH_TIMEOUT
    case 714:  // CUDA_ERROR_HARDWARE_STACK_ERROR
    case 715:  // CUDA_ERROR_ILLEGAL_INSTRUCTION
    case 716:  // CUDA_ERROR_MISALIGNED_ADDRESS
    case 717:  // CUDA_ERROR_INVALID_ADDRESS_SPACE
    case 718:  // CUDA_ERROR_INVALID_PC
    case 719:  // CUDA_ERROR_LAUNCH_FAILED
    case 999:  // CUDA_ERROR_UNKNOWN
      return true;
    default:
      return false;
  }
}

void CudaDriver::record_fault(int ordinal, const std::string& what) const {
  const std::lock_guard lock(contexts_lock_);
  if (faults_.empty()) faults_.resize(devices_.size());
  std::string& fault = faults_.at((size_t)ordinal);
  if (fault.empty()) fault = what;
}

std::optional<std::string> CudaDriver::fault(int ordinal) const {
  const std::lock_guard lock(contexts_lock_);
  if ((size_t)ordinal >= faults_.size() || faults_[(size_t)ordinal].empty()) return std::nullopt;
  return faults_[(size_t)ordinal];
}

void CudaDriver::check(cuda::CUresult result, const char* call) const {
  if (result != cuda::CUDA_SUCCESS) throw DeviceError(failure(result, call));
}

std::string CudaDriver::failure(cuda::CUresult result, const char* call) const {
  return std::string(call) + " failed: " + describe(result);
}

namespace {

// The file a symbol of the loaded library lives in, and what tells one
// build of it from another.
// The file the library holding `symbol` was loaded from, symbolic links
// resolved (the soname libcuda.so.1 names no file to copy or stat).
std::string loaded_file(void* symbol, const std::string& fallback_path) {
  Dl_info info{};
  std::string file = fallback_path;
  if (symbol && ::dladdr(symbol, &info) != 0 && info.dli_fname) file = info.dli_fname;
  char resolved[PATH_MAX];
  if (::realpath(file.c_str(), resolved)) file = resolved;
  return file;
}

std::string identity_of(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return file;
  return file + ":" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" +
         std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

}  // namespace

void CudaDriver::load(std::string& why_not) {
  const char* override_path = std::getenv("POLYRT_LIBCUDA");
  path_ = override_path && *override_path ? override_path : "libcuda.so.1";
  // A driver already in the process (loaded by the host application) is reused.
  if (!override_path) library_ = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!library_) library_ = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library_) {
    const char* error = ::dlerror();
    why_not = "no CUDA driver: cannot load " + path_ + " (" + (error ? error : "not found") + ")";
    return;
  }
  auto get_proc = reinterpret_cast<cuda::GetProcAddress>(::dlsym(library_, "cuGetProcAddress_v2"));
  path_ = loaded_file(get_proc ? (void*)get_proc : nullptr, path_);
  identity_ = identity_of(path_);
  if (!get_proc) {
    why_not = "the CUDA driver " + path_ +
              " is older than CUDA 12 (it has no cuGetProcAddress_v2); polyrt needs a CUDA 12 "
              "driver or newer";
    return;
  }
  std::string missing;
  cuda::CUresult first_error = cuda::CUDA_SUCCESS;
#define POLYRT_RESOLVE(name, signature)                                           \
  {                                                                               \
    void* fn = nullptr;                                                           \
    int status = 0;                                                               \
    const cuda::CUresult r = get_proc(#name, &fn, cuda::kApiVersion, 0, &status); \
    if (r != cuda::CUDA_SUCCESS || !fn) {                                         \
      if (first_error == cuda::CUDA_SUCCESS) first_error = r;                     \
      missing += (missing.empty() ? "" : ", ") + std::string(#name);              \
    } else {                                                                      \
      api_.name = reinterpret_cast<decltype(api_.name)>(fn);                      \
    }                                                                             \
  }
  POLYRT_CUDA_ENTRY_POINTS(POLYRT_RESOLVE)
#undef POLYRT_RESOLVE
  if (first_error == cuda::CUDA_ERROR_STUB_LIBRARY) {
    why_not = "the CUDA driver " + path_ + " is the CUDA toolkit's stub library (" +
              describe_cuda_error(first_error) + "): no NVIDIA driver is installed";
    return;
  }
  if (!missing.empty()) {
    why_not = "the CUDA driver " + path_ + " lacks entry points polyrt needs (" + missing +
              "): " + describe_cuda_error(first_error);
    return;
  }
  if (const cuda::CUresult r = api_.cuInit(0); r != cuda::CUDA_SUCCESS) {
    why_not = "the CUDA driver " + path_ + " did not initialize: cuInit failed: " + describe(r);
    return;
  }
  if (const cuda::CUresult r = api_.cuDriverGetVersion(&version_); r != cuda::CUDA_SUCCESS) {
    why_not = "cuDriverGetVersion failed: " + describe(r);
    return;
  }
  if (version_ < cuda::kApiVersion) {
    why_not = "the CUDA driver " + path_ + " is version " + cuda::version_text(version_) +
              "; polyrt needs 12.0 or newer";
    return;
  }
  int count = 0;
  if (const cuda::CUresult r = api_.cuDeviceGetCount(&count);
      r != cuda::CUDA_SUCCESS && r != cuda::CUDA_ERROR_NO_DEVICE) {
    why_not = "cuDeviceGetCount failed: " + describe(r);
    return;
  }
  if (count < 0) {
    why_not = "the CUDA driver " + path_ + " reported " + std::to_string(count) +
              " devices (cuDeviceGetCount); a driver must report 0 or more";
    return;
  }
  try {
    for (int i = 0; i < count; ++i) {
      GpuDevice d;
      d.ordinal = i;
      cuda::CUdevice device = 0;
      check(api_.cuDeviceGet(&device, i), "cuDeviceGet");
      char name[256] = {};
      check(api_.cuDeviceGetName(name, sizeof name - 1, device), "cuDeviceGetName");
      d.name = name;
      check(api_.cuDeviceGetAttribute(&d.cc_major,
                                      cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
            "cuDeviceGetAttribute");
      check(api_.cuDeviceGetAttribute(&d.cc_minor,
                                      cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
            "cuDeviceGetAttribute");
      check(
          api_.cuDeviceGetAttribute(&d.sms, cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
          "cuDeviceGetAttribute");
      check(api_.cuDeviceTotalMem(&d.memory_bytes, device), "cuDeviceTotalMem");
      devices_.push_back(std::move(d));
    }
  } catch (const DeviceError& e) {
    why_not = e.what();
    return;
  }
  if (devices_.empty()) {
    why_not = "the CUDA driver " + cuda::version_text(version_) + " found no CUDA device";
  }
}

struct CudaDriver::Loaded {
  const CudaDriver* driver = nullptr;
  std::string why_not;
};

const CudaDriver::Loaded& CudaDriver::loaded() {
  static std::once_flag once;
  static Loaded result;
  std::call_once(once, [] {
    // Never destroyed: device buffers of programs held in statics are freed
    // through it while the process exits.
    auto driver = std::unique_ptr<CudaDriver>(new CudaDriver());
    driver->load(result.why_not);
    if (result.why_not.empty()) result.driver = driver.release();
  });
  return result;
}

const CudaDriver* CudaDriver::get() {
  return loaded().driver;
}

std::string CudaDriver::unavailable_reason() {
  return loaded().why_not;
}

}  // namespace polyrt::gpu

// A test double of the CUDA driver (libcuda.so.1) for machines without a GPU.
// polyrt loads it through its normal path (POLYRT_LIBCUDA, dlopen,
// cuGetProcAddress_v2) and it holds polyrt to the driver's contract:
// cuInit first; a current context on every calling thread; device memory
// bounds- and lifetime-checked (a free waits for running stream work, and
// a faulted context runs no more of it); each stream executes in order on its own
// worker thread, so a result read before cuStreamSynchronize is stale;
// launch parameters copied at launch; `.maxntid` launch bounds parsed from the
// PTX and enforced; asynchronous copies only from page-locked memory
// (stricter than a real driver, which silently copies synchronously); JIT
// logs; injected faults. A launch runs the kernel's host twin (the same
// wrapper and body compiled for the host), which polyrt attaches through the
// one extension a real driver lacks: polyrtCudaDoubleAttachHostTwin.
//
// Configured by POLYRT_CUDA_DOUBLE (read at cuInit) or
// polyrtCudaDoubleConfigure(spec), `;`-separated:
//   devices=N         devices (default 1), all sm_90 with 4 SMs (a negative N is
//                     reported as is by cuDeviceGetCount, as a broken driver might)
//   memory_mib=N      memory per device (default 512)
//   speeds=a,b,...    relative speed per device (default 1): delays scale by 1/speed
//   kernel_us=N       added to every launch
//   copy_us_per_mib=N added to every copy, per MiB
//   pin_ms_per_gib=N  added to every cuMemHostAlloc, per GiB: page-locking
//                     host memory costs a real driver a few hundred ms a GiB
//   oom_at=N          the Nth cuMemAlloc from now fails (out of memory)
//   invalid_ptx       cuLinkAddData refuses the PTX, with a JIT error log
//   launch_failure_at=N  the Nth launch from now fails when it runs: a sticky
//                     fault, every later call in that context fails with it
//   lost_at=N         the device is lost when the Nth launch from now runs
//   context_ms=N      creating a primary context (its first retain) takes N ms
//   context_failure   creating a primary context fails (devices unavailable)
//   missing_entry=F   cuGetProcAddress_v2 does not find entry point F (read
//                     from POLYRT_CUDA_DOUBLE only, when polyrt loads the driver)
//   registers=N       registers per thread every kernel uses (default 64): what
//                     cuFuncGetAttribute and the occupancy calculator report
//   as_real           presents itself as a real driver (from POLYRT_CUDA_DOUBLE
//                     only): polyrtCudaDoubleConfigure and polyrtCudaDoubleCount
//                     answer -1 and take nothing, and the driver version is a
//                     real one's (12040), so tests that need the double skip as
//                     on a GPU: the device check's rehearsal; its devices have
//                     4 GiB unless memory_mib says otherwise
//
// As the driver does, calls on a stream or on memory need the current
// context of the calling thread to be theirs (kInvalidContext otherwise), and
// a primary context released to no retain is destroyed: the next retain
// creates it again. polyrtCudaDoubleCount(what) counts, since the last
// configuration, "contexts" (primary contexts created), "memsets",
// "launches", "synchronizes" (cuStreamSynchronize), "device_copies"
// (cuMemcpyDtoDAsync), "bytes_to_host" (by cuMemcpyDtoHAsync), "pinned_bytes" (by
// cuMemHostAlloc), "allocations" (cuMemAlloc), "modules" (cuModuleLoadDataEx) and
// "blocks:NAME" (the blocks launches of kernel NAME asked for); "primary_flags" is
// device 0's primary context's flags (what cuDevicePrimaryCtxSetFlags left).
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;

constexpr CUresult kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2, kNotInitialized = 3,
                   kDevicesUnavailable = 46, kNoDevice = 100, kInvalidDevice = 101,
                   kInvalidImage = 200, kInvalidContext = 201, kInvalidPtx = 218,
                   kInvalidHandle = 400, kNotFound = 500, kLaunchOutOfResources = 701,
                   kNotReady = 600, kLaunchFailed = 719;

using HostTwin = void (*)(void* const* params, uint32_t block, uint32_t block_dim, uint32_t thread,
                          uint32_t grid_dim);

struct Config {
  int devices = 1;
  size_t memory = size_t{512} << 20;
  std::vector<double> speeds;
  int64_t kernel_us = 0, copy_us_per_mib = 0, pin_ms_per_gib = 0;
  int64_t oom_at = 0, launch_failure_at = 0, lost_at = 0;
  int64_t context_ms = 0;  // the cost of creating a primary context
  int registers = 64;      // per thread, of every kernel
  bool context_failure = false;
  bool invalid_ptx = false;
  bool as_real = false;
  double speed(int device) const {
    return device < (int)speeds.size() && speeds[device] > 0 ? speeds[device] : 1.0;
  }
};

struct Entry {
  size_t params = 0;
  unsigned maxntid = 1024;
  HostTwin twin = nullptr;
};

}  // namespace

struct CUctx_st {
  int device = 0;
  int retained = 0;
  unsigned flags = 0;  // cuDevicePrimaryCtxSetFlags
  // A sticky fault (a launch failure): every later call in the context
  // fails with it, as on a real GPU, until the primary context is reset.
  std::atomic<int> fault{0};
  CUctx_st() = default;
  CUctx_st(const CUctx_st& other)  // for the vector's growth (configure)
      : device(other.device),
        retained(other.retained),
        flags(other.flags),
        fault(other.fault.load()) {}
};
struct CUfunc_st;
struct CUmod_st {
  int device = 0;
  std::map<std::string, std::unique_ptr<CUfunc_st>> functions;
};
struct CUfunc_st {
  CUmod_st* module = nullptr;
  std::string name;
  Entry entry;
};
struct CUlinkState_st {
  std::string ptx;
  std::string image;
  char* info_log = nullptr;
  size_t info_bytes = 0;
  char* error_log = nullptr;
  size_t error_bytes = 0;
};

// Runs a stream's operation as the device would: not at all once its
// context faulted or the device was lost (a real context is dead then), and
// never while memory is being freed (cuMemFree waits for running work).
CUresult run_stream_operation(int device, const std::function<CUresult()>& op);

struct CUstream_st {
  int device = 0;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::function<CUresult()>> queue;
  bool busy = false, stop = false;
  CUresult error = kSuccess;  // the first failure of an operation it ran
  std::thread worker;

  explicit CUstream_st(int d) : device(d), worker([this] { work(); }) {}
  ~CUstream_st() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    changed.notify_all();
    worker.join();
  }
  void push(std::function<CUresult()> op) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      queue.push_back(std::move(op));
    }
    changed.notify_all();
  }
  CUresult drain() {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return queue.empty() && !busy; });
    return std::exchange(error, kSuccess);
  }

 private:
  void work() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return stop || !queue.empty(); });
      if (queue.empty()) return;
      std::function<CUresult()> op = std::move(queue.front());
      queue.pop_front();
      busy = true;
      lock.unlock();
      const CUresult r = run_stream_operation(device, op);
      lock.lock();
      if (r != kSuccess && error == kSuccess) error = r;
      busy = false;
      changed.notify_all();
    }
  }
};

namespace {

struct Driver {
  std::mutex mutex;
  bool initialized = false;
  Config config;
  std::vector<CUctx_st> contexts;
  std::map<uintptr_t, std::pair<size_t, int>> device_memory;  // base -> (bytes, device)
  std::vector<size_t> used;                                   // per device
  std::map<uintptr_t, size_t> pinned;
  std::atomic<int64_t> allocations{0}, launches{0};
  std::atomic<int64_t> contexts_created{0};  // primary contexts made (retained from 0)
  std::atomic<int64_t> memsets{0}, synchronizes{0}, device_copies{0}, modules{0};
  std::atomic<int64_t> bytes_to_host{0}, pinned_bytes{0};
  std::map<std::string, int64_t, std::less<>> blocks;  // by kernel, under `mutex`
  std::atomic<bool> lost{false};
  // Held shared by every running stream operation, exclusively by a free.
  std::shared_mutex running;
};

Driver& driver() {
  static Driver* d = new Driver;  // outlives every stream of a process at exit
  return *d;
}

thread_local CUctx_st* current = nullptr;

}  // namespace

CUresult run_stream_operation(int device, const std::function<CUresult()>& op) {
  Driver& d = driver();
  std::shared_lock<std::shared_mutex> running(d.running);
  if (d.lost) return kDevicesUnavailable;
  if (device < (int)d.contexts.size()) {
    if (const CUresult fault = d.contexts[device].fault.load()) return fault;
  }
  return op();
}

namespace {

int64_t number(const std::string& text) {
  return std::strtoll(text.c_str(), nullptr, 10);
}

void configure(const std::string& spec) {
  Config c;
  bool memory_given = false;
  std::stringstream items(spec);
  std::string item;
  while (std::getline(items, item, ';')) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq),
                      value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "devices") c.devices = (int)number(value);
    if (key == "memory_mib") c.memory = (size_t)number(value) << 20;
    if (key == "kernel_us") c.kernel_us = number(value);
    if (key == "copy_us_per_mib") c.copy_us_per_mib = number(value);
    if (key == "pin_ms_per_gib") c.pin_ms_per_gib = number(value);
    if (key == "oom_at") c.oom_at = number(value);
    if (key == "launch_failure_at") c.launch_failure_at = number(value);
    if (key == "lost_at") c.lost_at = number(value);
    if (key == "context_ms") c.context_ms = number(value);
    if (key == "registers") c.registers = (int)number(value);
    if (key == "context_failure") c.context_failure = true;
    if (key == "invalid_ptx") c.invalid_ptx = true;
    if (key == "as_real") c.as_real = true;
    memory_given = memory_given || key == "memory_mib";
    if (key == "speeds") {
      std::stringstream speeds(value);
      std::string s;
      while (std::getline(speeds, s, ',')) c.speeds.push_back(std::strtod(s.c_str(), nullptr));
    }
  }
  // A real GPU's memory is tens of GiB: as_real's default is 4 GiB, which
  // tests sized for a real device (chunks of several parts) need.
  if (c.as_real && !memory_given) c.memory = size_t{4096} << 20;
  Driver& d = driver();
  d.config = c;
  d.allocations = 0;
  d.launches = 0;
  d.contexts_created = 0;
  d.memsets = 0;
  d.synchronizes = 0;
  d.device_copies = 0;
  d.bytes_to_host = 0;
  d.pinned_bytes = 0;
  d.modules = 0;
  d.blocks.clear();
  d.lost = false;
  for (CUctx_st& c : d.contexts) c.fault = 0;  // a new configuration: a fresh driver
  // A negative count is what a broken driver may report (cuDeviceGetCount
  // passes it on); there are no devices behind it.
  const size_t devices = c.devices > 0 ? (size_t)c.devices : 0;
  if (d.contexts.size() < devices) d.contexts.resize(devices);
  if (d.used.size() < devices) d.used.resize(devices, 0);
}

// Every call but the few allowed before cuInit.
CUresult ready() {
  if (!driver().initialized) return kNotInitialized;
  if (driver().lost) return kDevicesUnavailable;
  return kSuccess;
}

CUresult ready_in_context() {
  if (CUresult r = ready()) return r;
  if (!current) return kInvalidContext;
  return current->fault.load();
}

// What frees resources works on a lost device too (its host-side state goes).
CUresult ready_to_free() {
  if (!driver().initialized) return kNotInitialized;
  return current ? kSuccess : kInvalidContext;
}

// Whether [address, address + bytes) lies in one live allocation of `device`.
bool device_range_ok(CUdeviceptr address, size_t bytes, int device) {
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  auto it = d.device_memory.upper_bound((uintptr_t)address);
  if (it == d.device_memory.begin()) return false;
  --it;
  return it->second.second == device && (uintptr_t)address + bytes <= it->first + it->second.first;
}

bool pinned_range_ok(const void* address, size_t bytes) {
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  auto it = d.pinned.upper_bound((uintptr_t)address);
  if (it == d.pinned.begin()) return false;
  --it;
  return (uintptr_t)address + bytes <= it->first + it->second;
}

void delay(int64_t us, int device) {
  if (us > 0) {
    std::this_thread::sleep_for(
        std::chrono::microseconds((int64_t)(us / driver().config.speed(device))));
  }
}

void copy_delay(size_t bytes, int device) {
  delay(driver().config.copy_us_per_mib * (int64_t)bytes >> 20, device);
}

void write_log(char* log, size_t bytes, const std::string& text) {
  if (!log || bytes == 0) return;
  const size_t n = std::min(bytes - 1, text.size());
  std::memcpy(log, text.data(), n);
  log[n] = 0;
}

// The codes the double returns, with the driver's names and texts.
struct ErrorName {
  CUresult code;
  const char* name;
  const char* text;
};
constexpr ErrorName kErrorNames[] = {
    {kSuccess, "CUDA_SUCCESS", "no error"},
    {kInvalidValue, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {kOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {kNotInitialized, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {kDevicesUnavailable, "CUDA_ERROR_DEVICES_UNAVAILABLE",
     "CUDA-capable device(s) is/are busy or unavailable"},
    {kNoDevice, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {kInvalidDevice, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {kInvalidImage, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {kInvalidContext, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {kInvalidPtx, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {kInvalidHandle, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {kNotFound, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {kLaunchOutOfResources, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {kLaunchFailed, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

const ErrorName* error_name(CUresult code) {
  for (const ErrorName& e : kErrorNames) {
    if (e.code == code) return &e;
  }
  return nullptr;
}

// Queues an asynchronous copy whose ranges were checked.
CUresult enqueue_copy(void* to, const void* from, size_t bytes, CUstream_st* stream) {
  const int device = current->device;
  stream->push([=] {
    copy_delay(bytes, device);
    std::memcpy(to, from, bytes);
    return kSuccess;
  });
  return kSuccess;
}

constexpr const char* kImageMagic = "POLYRT-CUDA-DOUBLE-CUBIN\n";

// Entries of PTX: `.entry NAME(` ... `)` with its `.param`s, then `.maxntid N`.
std::map<std::string, Entry> parse_entries(const std::string& ptx) {
  std::map<std::string, Entry> entries;
  size_t at = 0;
  while ((at = ptx.find(".entry ", at)) != std::string::npos) {
    at += 7;
    const size_t open = ptx.find('(', at);
    if (open == std::string::npos) break;
    const std::string name = ptx.substr(at, open - at);
    const size_t close = ptx.find(')', open);
    Entry e;
    for (size_t p = ptx.find(".param", open); p != std::string::npos && p < close;
         p = ptx.find(".param", p + 6)) {
      ++e.params;
    }
    const size_t body = ptx.find('{', close);
    const size_t bounds = ptx.find(".maxntid", close);
    if (bounds != std::string::npos && bounds < body) {
      e.maxntid = (unsigned)std::strtoul(ptx.c_str() + bounds + 8, nullptr, 10);
    }
    entries[name] = e;
  }
  return entries;
}

// JIT log options as cuLinkCreate and cuModuleLoadDataEx take them.
void read_log_options(unsigned n, int* keys, void** values, char** info, size_t* info_bytes,
                      char** error, size_t* error_bytes) {
  for (unsigned i = 0; i < n; ++i) {
    if (keys[i] == 3) *info = static_cast<char*>(values[i]);
    if (keys[i] == 4) *info_bytes = (size_t)(uintptr_t)values[i];
    if (keys[i] == 5) *error = static_cast<char*>(values[i]);
    if (keys[i] == 6) *error_bytes = (size_t)(uintptr_t)values[i];
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int polyrtCudaDoubleConfigure(const char* spec) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (driver().config.as_real) return -1;
  configure(spec ? spec : "");
  return 0;
}

__attribute__((visibility("default"))) int64_t polyrtCudaDoubleCount(const char* what) {
  if (driver().config.as_real) return -1;
  const std::string_view name = what ? what : "";
  if (name == "contexts") return driver().contexts_created;
  if (name == "memsets") return driver().memsets;
  if (name == "launches") return driver().launches;
  if (name == "synchronizes") return driver().synchronizes;
  if (name == "device_copies") return driver().device_copies;
  if (name == "bytes_to_host") return driver().bytes_to_host;
  if (name == "pinned_bytes") return driver().pinned_bytes;
  if (name == "allocations") return driver().allocations;
  if (name == "modules") return driver().modules;
  if (name.starts_with("blocks:")) {  // blocks launched of the kernel named after the colon
    const std::lock_guard<std::mutex> lock(driver().mutex);
    const auto it = driver().blocks.find(name.substr(7));
    return it == driver().blocks.end() ? 0 : it->second;
  }
  if (name == "primary_flags") {  // device 0's primary context's scheduling flags
    const std::lock_guard<std::mutex> lock(driver().mutex);
    return driver().contexts.empty() ? -1 : driver().contexts[0].flags;
  }
  return -1;
}

__attribute__((visibility("default"))) int polyrtCudaDoubleAttachHostTwin(CUmod_st* module,
                                                                          const char* entry,
                                                                          void* twin) {
  if (!module || !entry) return kInvalidValue;
  auto it = module->functions.find(entry);
  if (it == module->functions.end()) return kNotFound;
  it->second->entry.twin = reinterpret_cast<HostTwin>(twin);
  return kSuccess;
}

#define EXPORT __attribute__((visibility("default")))

EXPORT CUresult cuInit(unsigned flags) {
  if (flags != 0) return kInvalidValue;
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  if (!d.initialized) {
    const char* spec = std::getenv("POLYRT_CUDA_DOUBLE");
    configure(spec ? spec : "");
    d.initialized = true;
  }
  // No device: what a real driver says. A negative count initializes, as a
  // broken driver might, and cuDeviceGetCount reports it.
  return d.config.devices != 0 ? kSuccess : kNoDevice;
}

EXPORT CUresult cuDriverGetVersion(int* version) {
  if (!version) return kInvalidValue;
  // CUDA 12.4 to polyrt's checks, but no real driver's number: real ones are
  // 1000 * major + 10 * minor, never ending in 9 (as_real: a real one's).
  *version = driver().config.as_real ? 12040 : 12049;
  return kSuccess;
}

EXPORT CUresult cuGetErrorName(CUresult error, const char** name) {
  const ErrorName* e = error_name(error);
  if (!name || !e) return kInvalidValue;
  *name = e->name;
  return kSuccess;
}

EXPORT CUresult cuGetErrorString(CUresult error, const char** text) {
  const ErrorName* e = error_name(error);
  if (!text || !e) return kInvalidValue;
  *text = e->text;
  return kSuccess;
}

EXPORT CUresult cuDeviceGetCount(int* count) {
  if (CUresult r = ready()) return r;
  if (!count) return kInvalidValue;
  *count = driver().config.devices;
  return kSuccess;
}

EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (CUresult r = ready()) return r;
  if (!device) return kInvalidValue;
  if (ordinal < 0 || ordinal >= driver().config.devices) return kInvalidDevice;
  *device = ordinal;
  return kSuccess;
}

EXPORT CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  if (CUresult r = ready()) return r;
  if (device < 0 || device >= driver().config.devices) return kInvalidDevice;
  if (!name || length <= 0) return kInvalidValue;
  std::snprintf(name, (size_t)length, "polyrt CUDA test double %d", device);
  return kSuccess;
}

EXPORT CUresult cuDeviceGetAttribute(int* value, int attribute, CUdevice device) {
  if (CUresult r = ready()) return r;
  if (device < 0 || device >= driver().config.devices) return kInvalidDevice;
  if (!value) return kInvalidValue;
  switch (attribute) {
    case 16:
      *value = 4;
      return kSuccess;  // multiprocessors
    case 75:
      *value = 9;
      return kSuccess;  // compute capability major
    case 76:
      *value = 0;
      return kSuccess;  // minor
    default:
      return kInvalidValue;
  }
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice device) {
  if (CUresult r = ready()) return r;
  if (device < 0 || device >= driver().config.devices) return kInvalidDevice;
  if (!bytes) return kInvalidValue;
  *bytes = driver().config.memory;
  return kSuccess;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(CUctx_st** context, CUdevice device) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (device < 0 || device >= d.config.devices) return kInvalidDevice;
  if (!context) return kInvalidValue;
  std::lock_guard<std::mutex> lock(d.mutex);
  if (d.contexts[device].retained == 0 && d.config.context_failure) return kDevicesUnavailable;
  d.contexts[device].device = device;
  if (d.contexts[device].retained++ == 0) {
    ++d.contexts_created;
    std::this_thread::sleep_for(std::chrono::milliseconds(d.config.context_ms));
  }
  *context = &d.contexts[device];
  return kSuccess;
}

EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice device) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (device < 0 || device >= d.config.devices) return kInvalidDevice;
  d.contexts[device].fault = 0;
  return kSuccess;
}

EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice device, unsigned* flags, int* active) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (device < 0 || device >= d.config.devices) return kInvalidDevice;
  if (!flags || !active) return kInvalidValue;
  std::lock_guard<std::mutex> lock(d.mutex);
  *flags = d.contexts[device].flags;
  *active = d.contexts[device].retained > 0;
  return kSuccess;
}

EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice device, unsigned flags) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (device < 0 || device >= d.config.devices) return kInvalidDevice;
  if (flags > 0x1f) return kInvalidValue;
  std::lock_guard<std::mutex> lock(d.mutex);
  d.contexts[device].flags = flags;
  return kSuccess;
}

// Which context is current is the thread's own business: asked and set on a
// lost or faulted device too, so that what frees resources can run.
EXPORT CUresult cuCtxGetCurrent(CUctx_st** context) {
  if (!driver().initialized) return kNotInitialized;
  if (!context) return kInvalidValue;
  *context = current;
  return kSuccess;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (device < 0 || device >= d.config.devices) return kInvalidDevice;
  std::lock_guard<std::mutex> lock(d.mutex);
  if (d.contexts[device].retained == 0) return kInvalidContext;
  --d.contexts[device].retained;
  return kSuccess;
}

EXPORT CUresult cuCtxSetCurrent(CUctx_st* context) {
  if (!driver().initialized) return kNotInitialized;
  if (context && context->retained == 0) return kInvalidContext;
  current = context;
  return kSuccess;
}

EXPORT CUresult cuMemGetInfo_v2(size_t* free_bytes, size_t* total) {
  if (CUresult r = ready_in_context()) return r;
  if (!free_bytes || !total) return kInvalidValue;
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  *total = d.config.memory;
  *free_bytes = d.config.memory - d.used[current->device];
  return kSuccess;
}

EXPORT CUresult cuStreamCreate(CUstream_st** stream, unsigned flags) {
  if (CUresult r = ready_in_context()) return r;
  if (!stream || flags > 1) return kInvalidValue;
  *stream = new CUstream_st(current->device);
  return kSuccess;
}

// A stream's calls on a thread whose current context is another device's
// fail, as with the driver.
CUresult stream_in_context(const CUstream_st* stream) {
  if (!stream) return kInvalidHandle;
  return stream->device == current->device ? kSuccess : kInvalidContext;
}

// An event: when its stream reached it (CUDA events time the device's
// work; the double's, its stream worker's). Its state is shared with the
// records queued on streams, so destroying it never waits for them.
struct EventState {
  std::mutex mutex;
  bool recorded = false;
  std::chrono::steady_clock::time_point at;
};
struct CUevent_st {
  std::shared_ptr<EventState> state = std::make_shared<EventState>();
};

EXPORT CUresult cuEventCreate(CUevent_st** event, unsigned) {
  if (CUresult r = ready_in_context()) return r;
  if (!event) return kInvalidValue;
  *event = new CUevent_st;
  return kSuccess;
}

EXPORT CUresult cuEventRecord(CUevent_st* event, CUstream_st* stream) {
  if (CUresult r = ready_in_context()) return r;
  if (CUresult r = stream_in_context(stream)) return r;
  if (!event) return kInvalidHandle;
  std::shared_ptr<EventState> state = event->state;
  {
    const std::lock_guard<std::mutex> lock(state->mutex);
    state->recorded = false;
  }
  stream->push([state] {
    const std::lock_guard<std::mutex> lock(state->mutex);
    state->at = std::chrono::steady_clock::now();
    state->recorded = true;
    return kSuccess;
  });
  return kSuccess;
}

EXPORT CUresult cuEventElapsedTime(float* ms, CUevent_st* start, CUevent_st* end) {
  if (CUresult r = ready_in_context()) return r;
  if (!ms || !start || !end) return kInvalidHandle;
  if (start == end) return *ms = 0, kSuccess;
  EventState &from = *start->state, &to = *end->state;
  const std::scoped_lock lock(from.mutex, to.mutex);
  if (!from.recorded || !to.recorded) return kNotReady;
  *ms = std::chrono::duration<float, std::milli>(to.at - from.at).count();
  return kSuccess;
}

EXPORT CUresult cuEventDestroy_v2(CUevent_st* event) {
  if (CUresult r = ready_in_context()) return r;
  if (!event) return kInvalidHandle;
  delete event;
  return kSuccess;
}

EXPORT CUresult cuStreamDestroy_v2(CUstream_st* stream) {
  if (CUresult r = ready_to_free()) return r;
  if (CUresult r = stream_in_context(stream)) return r;
  stream->drain();
  delete stream;
  return kSuccess;
}

EXPORT CUresult cuStreamSynchronize(CUstream_st* stream) {
  if (CUresult r = ready_in_context()) return r;
  if (CUresult r = stream_in_context(stream)) return r;
  ++driver().synchronizes;
  const CUresult r = stream->drain();
  return driver().lost ? kDevicesUnavailable : r;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  if (CUresult r = ready_in_context()) return r;
  if (!pointer || bytes == 0) return kInvalidValue;
  Driver& d = driver();
  const int64_t n = ++d.allocations;
  std::lock_guard<std::mutex> lock(d.mutex);
  if (n == d.config.oom_at || d.used[current->device] + bytes > d.config.memory) {
    return kOutOfMemory;
  }
  void* memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory) return kOutOfMemory;
  d.device_memory[(uintptr_t)memory] = {bytes, current->device};
  d.used[current->device] += bytes;
  *pointer = (CUdeviceptr)(uintptr_t)memory;
  return kSuccess;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
  if (CUresult r = ready_to_free()) return r;
  Driver& d = driver();
  std::unique_lock<std::shared_mutex> running(d.running);
  std::lock_guard<std::mutex> lock(d.mutex);
  auto it = d.device_memory.find((uintptr_t)pointer);
  if (it == d.device_memory.end()) return kInvalidValue;  // not allocated, or freed twice
  if (it->second.second != current->device) return kInvalidContext;
  d.used[it->second.second] -= it->second.first;
  d.device_memory.erase(it);
  std::free((void*)(uintptr_t)pointer);
  return kSuccess;
}

EXPORT CUresult cuMemHostAlloc(void** pointer, size_t bytes, unsigned) {
  if (CUresult r = ready_in_context()) return r;
  if (!pointer || bytes == 0) return kInvalidValue;
  void* memory = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (!memory) return kOutOfMemory;
  if (const int64_t ms = driver().config.pin_ms_per_gib) {
    std::this_thread::sleep_for(
        std::chrono::microseconds(ms * 1000 * (int64_t)(bytes >> 20) / 1024));
  }
  driver().pinned_bytes += (int64_t)bytes;
  std::lock_guard<std::mutex> lock(driver().mutex);
  driver().pinned[(uintptr_t)memory] = bytes;
  *pointer = memory;
  return kSuccess;
}

EXPORT CUresult cuMemFreeHost(void* pointer) {
  if (CUresult r = ready_to_free()) return r;
  std::unique_lock<std::shared_mutex> running(driver().running);
  std::lock_guard<std::mutex> lock(driver().mutex);
  auto it = driver().pinned.find((uintptr_t)pointer);
  if (it == driver().pinned.end()) return kInvalidValue;
  driver().pinned.erase(it);
  std::free(pointer);
  return kSuccess;
}

EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void* from, size_t bytes,
                                     CUstream_st* stream) {
  if (CUresult r = ready_in_context()) return r;
  if (!stream) return kInvalidHandle;
  if (!device_range_ok(to, bytes, current->device) || !pinned_range_ok(from, bytes)) {
    return kInvalidValue;
  }
  return enqueue_copy((void*)(uintptr_t)to, from, bytes, stream);
}

EXPORT CUresult cuMemcpyDtoHAsync_v2(void* to, CUdeviceptr from, size_t bytes,
                                     CUstream_st* stream) {
  if (CUresult r = ready_in_context()) return r;
  if (!stream) return kInvalidHandle;
  if (!device_range_ok(from, bytes, current->device) || !pinned_range_ok(to, bytes)) {
    return kInvalidValue;
  }
  driver().bytes_to_host += (int64_t)bytes;
  return enqueue_copy(to, (const void*)(uintptr_t)from, bytes, stream);
}

EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr to, CUdeviceptr from, size_t bytes,
                                     CUstream_st* stream) {
  if (CUresult r = ready_in_context()) return r;
  if (!stream) return kInvalidHandle;
  ++driver().device_copies;
  if (!device_range_ok(to, bytes, current->device) ||
      !device_range_ok(from, bytes, current->device)) {
    return kInvalidValue;
  }
  stream->push([=] {
    std::memmove((void*)(uintptr_t)to, (const void*)(uintptr_t)from, bytes);
    return kSuccess;
  });
  return kSuccess;
}

EXPORT CUresult cuMemsetD8Async(CUdeviceptr to, unsigned char value, size_t count,
                                CUstream_st* stream) {
  if (CUresult r = ready_in_context()) return r;
  if (!stream) return kInvalidHandle;
  if (!device_range_ok(to, count, current->device)) return kInvalidValue;
  ++driver().memsets;
  stream->push([=] {
    std::memset((void*)(uintptr_t)to, value, count);
    return kSuccess;
  });
  return kSuccess;
}

EXPORT CUresult cuLinkCreate_v2(unsigned options, int* keys, void** values,
                                CUlinkState_st** state) {
  if (CUresult r = ready_in_context()) return r;
  if (!state) return kInvalidValue;
  auto* link = new CUlinkState_st;
  read_log_options(options, keys, values, &link->info_log, &link->info_bytes, &link->error_log,
                   &link->error_bytes);
  *state = link;
  return kSuccess;
}

EXPORT CUresult cuLinkAddData_v2(CUlinkState_st* state, int type, void* data, size_t bytes,
                                 const char*, unsigned, int*, void**) {
  if (CUresult r = ready_in_context()) return r;
  if (!state || !data || type != 1) return kInvalidValue;
  const std::string ptx(static_cast<const char*>(data),
                        strnlen(static_cast<const char*>(data), bytes));
  if (driver().config.invalid_ptx || ptx.find(".version") == std::string::npos ||
      ptx.find(".target") == std::string::npos) {
    write_log(state->error_log, state->error_bytes,
              "ptxas application ptx input, line 1; fatal : Parsing error near '?': syntax error "
              "(polyrt CUDA test double)");
    return kInvalidPtx;
  }
  state->ptx += ptx;
  return kSuccess;
}

EXPORT CUresult cuLinkComplete(CUlinkState_st* state, void** image, size_t* bytes) {
  if (CUresult r = ready_in_context()) return r;
  if (!state || !image || !bytes) return kInvalidValue;
  state->image = kImageMagic + state->ptx;
  write_log(state->info_log, state->info_bytes,
            "info: linked " + std::to_string(parse_entries(state->ptx).size()) +
                " entry function(s) for sm_90 (polyrt CUDA test double)");
  *image = state->image.data();
  *bytes = state->image.size();
  return kSuccess;
}

EXPORT CUresult cuLinkDestroy(CUlinkState_st* state) {
  if (!state) return kInvalidHandle;
  delete state;
  return kSuccess;
}

EXPORT CUresult cuModuleLoadDataEx(CUmod_st** module, const void* image, unsigned options,
                                   int* keys, void** values) {
  if (CUresult r = ready_in_context()) return r;
  if (!module || !image) return kInvalidValue;
  char *info = nullptr, *error = nullptr;
  size_t info_bytes = 0, error_bytes = 0;
  read_log_options(options, keys, values, &info, &info_bytes, &error, &error_bytes);
  const char* text = static_cast<const char*>(image);
  if (std::strncmp(text, kImageMagic, std::strlen(kImageMagic)) != 0) {
    write_log(error, error_bytes, "not an image of the polyrt CUDA test double");
    return kInvalidImage;
  }
  auto* m = new CUmod_st;
  ++driver().modules;
  m->device = current->device;
  for (auto& [name, entry] : parse_entries(text + std::strlen(kImageMagic))) {
    auto f = std::make_unique<CUfunc_st>();
    f->module = m;
    f->name = name;
    f->entry = entry;
    m->functions[name] = std::move(f);
  }
  write_log(info, info_bytes, "info: module loaded (polyrt CUDA test double)");
  *module = m;
  return kSuccess;
}

EXPORT CUresult cuModuleUnload(CUmod_st* module) {
  if (CUresult r = ready_to_free()) return r;
  if (!module) return kInvalidHandle;
  delete module;
  return kSuccess;
}

EXPORT CUresult cuModuleGetFunction(CUfunc_st** function, CUmod_st* module, const char* name) {
  if (CUresult r = ready_in_context()) return r;
  if (!function || !module || !name) return kInvalidValue;
  auto it = module->functions.find(name);
  if (it == module->functions.end()) return kNotFound;
  *function = it->second.get();
  return kSuccess;
}

EXPORT CUresult cuFuncGetAttribute(int* value, int attribute, CUfunc_st* f) {
  if (CUresult r = ready_in_context()) return r;
  if (!value || !f) return kInvalidValue;
  constexpr int kMaxThreadsPerBlock = 0, kLocalSizeBytes = 3, kNumRegs = 4;
  switch (attribute) {
    case kMaxThreadsPerBlock:
      *value = (int)f->entry.maxntid;
      return kSuccess;
    case kLocalSizeBytes:
      *value = 0;
      return kSuccess;
    case kNumRegs:
      *value = driver().config.registers;
      return kSuccess;
    default:
      return kInvalidValue;
  }
}

// An sm_90 SM: 65536 registers allocated per warp in units of 256, 2048
// threads, 32 blocks.
EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunc_st* f,
                                                            int block_threads,
                                                            size_t shared_bytes) {
  if (CUresult r = ready_in_context()) return r;
  if (!blocks || !f || block_threads <= 0 || shared_bytes != 0) return kInvalidValue;
  if ((unsigned)block_threads > f->entry.maxntid) {
    *blocks = 0;
    return kSuccess;
  }
  const int warps = (block_threads + 31) / 32;
  const int per_warp = (std::max(driver().config.registers, 1) * 32 + 255) / 256 * 256;
  *blocks = std::min({65536 / per_warp / warps, 64 / warps, 32});
  return kSuccess;
}

EXPORT CUresult cuLaunchKernel(CUfunc_st* f, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                               unsigned block_x, unsigned block_y, unsigned block_z,
                               unsigned shared_bytes, CUstream_st* stream, void** params,
                               void** extra) {
  if (CUresult r = ready_in_context()) return r;
  if (!f || !stream) return kInvalidHandle;
  if (f->module->device != current->device || stream->device != current->device) {
    return kInvalidContext;
  }
  if (grid_x == 0 || block_x == 0 || grid_y != 1 || grid_z != 1 || block_y != 1 || block_z != 1 ||
      shared_bytes != 0 || extra || (!params && f->entry.params)) {
    return kInvalidValue;
  }
  if (block_x > f->entry.maxntid) return kLaunchOutOfResources;
  if (!f->entry.twin) return kLaunchFailed;  // the double cannot run PTX itself
  // Parameters are copied now: the caller's variables may die after the call.
  std::vector<uint64_t> values(f->entry.params);
  for (size_t i = 0; i < values.size(); ++i) std::memcpy(&values[i], params[i], 8);
  Driver& d = driver();
  {
    const std::lock_guard<std::mutex> lock(d.mutex);
    d.blocks[f->name] += grid_x;
  }
  const int64_t n = ++d.launches;
  const bool fail = n == d.config.launch_failure_at, lose = n == d.config.lost_at;
  const HostTwin twin = f->entry.twin;
  const int device = current->device;
  stream->push([=, values = std::move(values)]() mutable {
    delay(driver().config.kernel_us, device);
    if (lose) driver().lost = true;
    if (fail) driver().contexts[device].fault = kLaunchFailed;
    if (fail || lose) return fail ? kLaunchFailed : kDevicesUnavailable;
    std::vector<void*> pointers;
    for (uint64_t& v : values) pointers.push_back(&v);
    for (unsigned b = 0; b < grid_x; ++b) {
      for (unsigned t = 0; t < block_x; ++t) twin(pointers.data(), b, block_x, t, grid_x);
    }
    return kSuccess;
  });
  return kSuccess;
}

EXPORT CUresult cuGetProcAddress_v2(const char* symbol, void** function, int version,
                                    uint64_t flags, int* status) {
  if (!symbol || !function || flags != 0) return kInvalidValue;
  static const std::map<std::string, void*> table = {
      {"cuInit", (void*)&cuInit},
      {"cuDriverGetVersion", (void*)&cuDriverGetVersion},
      {"cuGetErrorName", (void*)&cuGetErrorName},
      {"cuGetErrorString", (void*)&cuGetErrorString},
      {"cuDeviceGetCount", (void*)&cuDeviceGetCount},
      {"cuDeviceGet", (void*)&cuDeviceGet},
      {"cuDeviceGetName", (void*)&cuDeviceGetName},
      {"cuDeviceGetAttribute", (void*)&cuDeviceGetAttribute},
      {"cuDeviceTotalMem", (void*)&cuDeviceTotalMem_v2},
      {"cuDevicePrimaryCtxRetain", (void*)&cuDevicePrimaryCtxRetain},
      {"cuDevicePrimaryCtxRelease", (void*)&cuDevicePrimaryCtxRelease_v2},
      {"cuDevicePrimaryCtxSetFlags", (void*)&cuDevicePrimaryCtxSetFlags_v2},
      {"cuDevicePrimaryCtxGetState", (void*)&cuDevicePrimaryCtxGetState},
      {"cuDevicePrimaryCtxReset", (void*)&cuDevicePrimaryCtxReset_v2},
      {"cuCtxSetCurrent", (void*)&cuCtxSetCurrent},
      {"cuCtxGetCurrent", (void*)&cuCtxGetCurrent},
      {"cuMemGetInfo", (void*)&cuMemGetInfo_v2},
      {"cuStreamCreate", (void*)&cuStreamCreate},
      {"cuStreamDestroy", (void*)&cuStreamDestroy_v2},
      {"cuStreamSynchronize", (void*)&cuStreamSynchronize},
      {"cuEventCreate", (void*)&cuEventCreate},
      {"cuEventRecord", (void*)&cuEventRecord},
      {"cuEventElapsedTime", (void*)&cuEventElapsedTime},
      {"cuEventDestroy", (void*)&cuEventDestroy_v2},
      {"cuMemAlloc", (void*)&cuMemAlloc_v2},
      {"cuMemFree", (void*)&cuMemFree_v2},
      {"cuMemHostAlloc", (void*)&cuMemHostAlloc},
      {"cuMemFreeHost", (void*)&cuMemFreeHost},
      {"cuMemcpyHtoDAsync", (void*)&cuMemcpyHtoDAsync_v2},
      {"cuMemcpyDtoHAsync", (void*)&cuMemcpyDtoHAsync_v2},
      {"cuMemcpyDtoDAsync", (void*)&cuMemcpyDtoDAsync_v2},
      {"cuMemsetD8Async", (void*)&cuMemsetD8Async},
      {"cuLinkCreate", (void*)&cuLinkCreate_v2},
      {"cuLinkAddData", (void*)&cuLinkAddData_v2},
      {"cuLinkComplete", (void*)&cuLinkComplete},
      {"cuLinkDestroy", (void*)&cuLinkDestroy},
      {"cuModuleLoadDataEx", (void*)&cuModuleLoadDataEx},
      {"cuModuleUnload", (void*)&cuModuleUnload},
      {"cuModuleGetFunction", (void*)&cuModuleGetFunction},
      {"cuFuncGetAttribute", (void*)&cuFuncGetAttribute},
      {"cuOccupancyMaxActiveBlocksPerMultiprocessor",
       (void*)&cuOccupancyMaxActiveBlocksPerMultiprocessor},
      {"cuLaunchKernel", (void*)&cuLaunchKernel},
  };
  auto it = table.find(symbol);
  // missing_entry=NAME: a driver without NAME. Read here, not at cuInit: the
  // loader resolves every entry point before it initializes the driver.
  if (const char* spec = std::getenv("POLYRT_CUDA_DOUBLE");
      spec && (";" + std::string(spec) + ";").find(";missing_entry=" + std::string(symbol) + ";") !=
                  std::string::npos) {
    it = table.end();
  }
  if (it == table.end() || version < 12000) {
    if (status) *status = it == table.end() ? 1 : 2;
    *function = nullptr;
    return kNotFound;
  }
  if (status) *status = 0;
  *function = it->second;
  return kSuccess;
}

}  // extern "C"

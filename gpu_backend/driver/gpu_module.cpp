#include "gpu_backend/driver/gpu_module.hpp"

#include <cstring>
#include <vector>

#include "cache/content_hash.hpp"
#include "cache/disk_cache.hpp"
#include "polyrt/error.hpp"

namespace polyrt::gpu {

namespace {

constexpr size_t kLogBytes = 16 << 10;

// The JIT's info and error logs, as cuLinkCreate and cuModuleLoadDataEx take them.
struct JitLogs {
  std::vector<char> info = std::vector<char>(kLogBytes, 0);
  std::vector<char> error = std::vector<char>(kLogBytes, 0);
  int keys[4] = {cuda::CU_JIT_INFO_LOG_BUFFER, cuda::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                 cuda::CU_JIT_ERROR_LOG_BUFFER, cuda::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[4] = {info.data(), reinterpret_cast<void*>(kLogBytes), error.data(),
                     reinterpret_cast<void*>(kLogBytes)};

  std::string text() const {
    std::string out(error.data(), strnlen(error.data(), error.size()));
    const std::string more(info.data(), strnlen(info.data(), info.size()));
    if (!more.empty()) out += (out.empty() ? "" : "\n") + more;
    return out.empty() ? "" : "; JIT log:\n" + out;
  }
};

}  // namespace

std::string GpuModule::cubin_of(const std::string& ptx, const std::string& ptx_key) const {
  const CudaDriver& driver = context_.driver();
  const std::string key = cache::ContentHash()
                              .add(ptx_key)
                              .add(std::to_string(context_.device().sm()))
                              .add(std::to_string(driver.version()))
                              .add(driver.library_identity())
                              .hex();
  const cache::DiskCache cache(cache::default_cache_dir(), ".cubin");
  if (std::optional<std::string> cubin = cache.load(key)) return *cubin;

  JitLogs logs;
  cuda::CUlinkState link = nullptr;
  context_.check(driver.api().cuLinkCreate(4, logs.keys, logs.values, &link), "cuLinkCreate");
  std::string cubin;
  cuda::CUresult r =
      driver.api().cuLinkAddData(link, cuda::CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()),
                                 ptx.size() + 1, "polyrt_batch.ptx", 0, nullptr, nullptr);
  const char* call = "cuLinkAddData";
  if (r == cuda::CUDA_SUCCESS) {
    void* image = nullptr;
    size_t bytes = 0;
    r = driver.api().cuLinkComplete(link, &image, &bytes);
    call = "cuLinkComplete";
    if (r == cuda::CUDA_SUCCESS) cubin.assign(static_cast<const char*>(image), bytes);
  }
  driver.api().cuLinkDestroy(link);  // owns the image: copied above
  if (r != cuda::CUDA_SUCCESS) {
    throw DeviceError(std::string(call) + " failed: " + driver.describe(r) + logs.text());
  }
  cache.store(key, cubin);
  return cubin;
}

GpuModule::GpuModule(const GpuContext& context, const std::string& ptx, const std::string& ptx_key)
    : context_(context) {
  const CurrentContext current = context_.make_current();
  const std::string cubin = cubin_of(ptx, ptx_key);
  JitLogs logs;
  const cuda::CUresult r =
      context_.driver().api().cuModuleLoadDataEx(&module_, cubin.data(), 4, logs.keys, logs.values);
  if (r != cuda::CUDA_SUCCESS) {
    throw DeviceError("cuModuleLoadDataEx failed: " + context_.driver().describe(r) + logs.text());
  }
}

GpuModule::~GpuModule() {
  if (!module_) return;
  try {
    const CurrentContext current = context_.make_current();
    context_.driver().api().cuModuleUnload(module_);
  } catch (const Error&) {
  }
}

cuda::CUfunction GpuModule::function(const std::string& entry) const {
  cuda::CUfunction f = nullptr;
  context_.check(context_.driver().api().cuModuleGetFunction(&f, module_, entry.c_str()),
                 "cuModuleGetFunction");
  return f;
}

}  // namespace polyrt::gpu

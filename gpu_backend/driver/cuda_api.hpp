// The slice of the CUDA Driver API polyrt uses, declared by polyrt: building
// never needs cuda.h or the toolkit, and the binary runs unchanged where no
// driver is installed. Values and signatures are those of the driver's
// documented ABI (CUDA 12).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace polyrt::gpu::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUstream = struct CUstream_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUlinkState = struct CUlinkState_st*;
using CUevent = struct CUevent_st*;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_INSUFFICIENT_DRIVER = 35;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
inline constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
inline constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
inline constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
inline constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
inline constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
inline constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
inline constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
inline constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
inline constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

// CUdevice_attribute
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

// CUfunction_attribute
inline constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
inline constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;

inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0;
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 1;
inline constexpr unsigned CU_CTX_SCHED_BLOCKING_SYNC = 0x04;

// CUjit_option
inline constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
inline constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
// CUjitInputType
inline constexpr int CU_JIT_INPUT_PTX = 1;

// A CUDA version as the driver encodes it (12040) as people write it ("12.4").
inline std::string version_text(unsigned version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// The API version polyrt resolves every entry point at (cuGetProcAddress_v2
// returns the variant of that version: cuMemAlloc_v2 for "cuMemAlloc").
inline constexpr int kApiVersion = 12000;

// Every entry point polyrt uses: its base name (what cuGetProcAddress_v2
// resolves at kApiVersion, and the test double serves) and its signature.
// The one list: DriverApi and the loader are made from it.
// clang-format off
#define POLYRT_CUDA_ENTRY_POINTS(X) \
  X(cuInit, CUresult(unsigned flags)) \
  X(cuDriverGetVersion, CUresult(int* version)) \
  X(cuGetErrorName, CUresult(CUresult error, const char** name)) \
  X(cuGetErrorString, CUresult(CUresult error, const char** text)) \
  X(cuDeviceGetCount, CUresult(int* count)) \
  X(cuDeviceGet, CUresult(CUdevice* device, int ordinal)) \
  X(cuDeviceGetName, CUresult(char* name, int length, CUdevice device)) \
  X(cuDeviceGetAttribute, CUresult(int* value, int attribute, CUdevice device)) \
  X(cuDeviceTotalMem, CUresult(size_t* bytes, CUdevice device)) \
  X(cuDevicePrimaryCtxRetain, CUresult(CUcontext* context, CUdevice device)) \
  X(cuDevicePrimaryCtxRelease, CUresult(CUdevice device)) \
  X(cuDevicePrimaryCtxSetFlags, CUresult(CUdevice device, unsigned flags)) \
  X(cuDevicePrimaryCtxGetState, CUresult(CUdevice device, unsigned* flags, int* active)) \
  X(cuCtxSetCurrent, CUresult(CUcontext context)) \
  X(cuCtxGetCurrent, CUresult(CUcontext* context)) \
  X(cuMemGetInfo, CUresult(size_t* free, size_t* total)) \
  X(cuStreamCreate, CUresult(CUstream* stream, unsigned flags)) \
  X(cuStreamDestroy, CUresult(CUstream stream)) \
  X(cuStreamSynchronize, CUresult(CUstream stream)) \
  X(cuEventCreate, CUresult(CUevent* event, unsigned flags)) \
  X(cuEventRecord, CUresult(CUevent event, CUstream stream)) \
  X(cuEventElapsedTime, CUresult(float* ms, CUevent start, CUevent end)) \
  X(cuEventDestroy, CUresult(CUevent event)) \
  X(cuMemAlloc, CUresult(CUdeviceptr* pointer, size_t bytes)) \
  X(cuMemFree, CUresult(CUdeviceptr pointer)) \
  X(cuMemHostAlloc, CUresult(void** pointer, size_t bytes, unsigned flags)) \
  X(cuMemFreeHost, CUresult(void* pointer)) \
  X(cuMemcpyHtoDAsync, CUresult(CUdeviceptr to, const void* from, size_t bytes, CUstream stream)) \
  X(cuMemcpyDtoHAsync, CUresult(void* to, CUdeviceptr from, size_t bytes, CUstream stream)) \
  X(cuMemcpyDtoDAsync, CUresult(CUdeviceptr to, CUdeviceptr from, size_t bytes, CUstream stream)) \
  X(cuMemsetD8Async, CUresult(CUdeviceptr to, unsigned char value, size_t count, CUstream stream)) \
  X(cuLinkCreate, CUresult(unsigned options, int* keys, void** values, CUlinkState* state)) \
  X(cuLinkAddData, CUresult(CUlinkState state, int type, void* data, size_t bytes, const char* name, unsigned options, int* keys, void** values)) \
  X(cuLinkComplete, CUresult(CUlinkState state, void** cubin, size_t* bytes)) \
  X(cuLinkDestroy, CUresult(CUlinkState state)) \
  X(cuModuleLoadDataEx, CUresult(CUmodule* module, const void* image, unsigned options, int* keys, void** values)) \
  X(cuModuleUnload, CUresult(CUmodule module)) \
  X(cuModuleGetFunction, CUresult(CUfunction* function, CUmodule module, const char* name)) \
  X(cuFuncGetAttribute, CUresult(int* value, int attribute, CUfunction function)) \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, CUresult(int* blocks, CUfunction function, int block_threads, size_t shared_bytes)) \
  X(cuLaunchKernel, CUresult(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream, void** params, void** extra))
// clang-format on

// The entry points, by base name.
struct DriverApi {
#define POLYRT_DECLARE_ENTRY_POINT(name, signature) std::add_pointer_t<signature> name = nullptr;
  POLYRT_CUDA_ENTRY_POINTS(POLYRT_DECLARE_ENTRY_POINT)
#undef POLYRT_DECLARE_ENTRY_POINT
};

// cuGetProcAddress_v2, the one entry point found with dlsym.
using GetProcAddress = CUresult (*)(const char* symbol, void** function, int cuda_version,
                                    uint64_t flags, int* symbol_status);

}  // namespace polyrt::gpu::cuda

// The slice of the CUDA Driver API polyrt uses, declared by polyrt: building
// never needs cuda.h or the toolkit, and the binary runs unchanged where no
// driver is installed. Values and signatures are those of the driver's
// documented ABI (CUDA 12).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace polyrt::gpu::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUstream = struct CUstream_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUlinkState = struct CUlinkState_st*;

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

// Entry points, by base name.
struct DriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int* version);
  CUresult (*cuGetErrorName)(CUresult error, const char** name);
  CUresult (*cuGetErrorString)(CUresult error, const char** text);
  CUresult (*cuDeviceGetCount)(int* count);
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem)(size_t* bytes, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuDevicePrimaryCtxSetFlags)(CUdevice device, unsigned flags);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxGetCurrent)(CUcontext* context);
  CUresult (*cuMemGetInfo)(size_t* free, size_t* total);
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuMemAlloc)(CUdeviceptr* pointer, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemHostAlloc)(void** pointer, size_t bytes, unsigned flags);
  CUresult (*cuMemFreeHost)(void* pointer);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr to, const void* from, size_t bytes, CUstream stream);
  CUresult (*cuMemcpyDtoHAsync)(void* to, CUdeviceptr from, size_t bytes, CUstream stream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr to, CUdeviceptr from, size_t bytes, CUstream stream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr to, unsigned char value, size_t count, CUstream stream);
  CUresult (*cuLinkCreate)(unsigned options, int* keys, void** values, CUlinkState* state);
  CUresult (*cuLinkAddData)(CUlinkState state, int type, void* data, size_t bytes, const char* name,
                            unsigned options, int* keys, void** values);
  CUresult (*cuLinkComplete)(CUlinkState state, void** cubin, size_t* bytes);
  CUresult (*cuLinkDestroy)(CUlinkState state);
  CUresult (*cuModuleLoadDataEx)(CUmodule* module, const void* image, unsigned options, int* keys,
                                 void** values);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name);
  CUresult (*cuFuncGetAttribute)(int* value, int attribute, CUfunction function);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int* blocks, CUfunction function,
                                                         int block_threads, size_t shared_bytes);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                             unsigned block_x, unsigned block_y, unsigned block_z,
                             unsigned shared_bytes, CUstream stream, void** params, void** extra);
};

// Every entry of DriverApi with its base name, in declaration order: what
// the loader resolves (and the test double serves).
// clang-format off
#define POLYRT_CUDA_ENTRY_POINTS(X) \
  X(cuInit) \
  X(cuDriverGetVersion) \
  X(cuGetErrorName) \
  X(cuGetErrorString) \
  X(cuDeviceGetCount) \
  X(cuDeviceGet) \
  X(cuDeviceGetName) \
  X(cuDeviceGetAttribute) \
  X(cuDeviceTotalMem) \
  X(cuDevicePrimaryCtxRetain) \
  X(cuDevicePrimaryCtxRelease) \
  X(cuDevicePrimaryCtxSetFlags) \
  X(cuCtxSetCurrent) \
  X(cuCtxGetCurrent) \
  X(cuMemGetInfo) \
  X(cuStreamCreate) \
  X(cuStreamDestroy) \
  X(cuStreamSynchronize) \
  X(cuMemAlloc) \
  X(cuMemFree) \
  X(cuMemHostAlloc) \
  X(cuMemFreeHost) \
  X(cuMemcpyHtoDAsync) \
  X(cuMemcpyDtoHAsync) \
  X(cuMemcpyDtoDAsync) \
  X(cuMemsetD8Async) \
  X(cuLinkCreate) \
  X(cuLinkAddData) \
  X(cuLinkComplete) \
  X(cuLinkDestroy) \
  X(cuModuleLoadDataEx) \
  X(cuModuleUnload) \
  X(cuModuleGetFunction) \
  X(cuFuncGetAttribute) \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
  X(cuLaunchKernel)
// clang-format on

// cuGetProcAddress_v2, the one entry point found with dlsym.
using GetProcAddress = CUresult (*)(const char* symbol, void** function, int cuda_version,
                                    uint64_t flags, int* symbol_status);

}  // namespace polyrt::gpu::cuda

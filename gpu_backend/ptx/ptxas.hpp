// The CUDA toolkit's PTX assembler, when this machine has one: what each
// kernel of a module costs on a GPU (registers, spills, stack) as ptxas
// reports with -v, and the occupancy that follows. `polyrt plan --device
// gpu` shows it; the tests hold every kernel to no spills with it. polyrt
// never needs ptxas to run (a driver assembles PTX itself).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace polyrt::gpu {

struct KernelResources {
  std::string entry;
  unsigned registers = 0;  // per thread
  uint64_t stack_bytes = 0, spill_store_bytes = 0, spill_load_bytes = 0;
};

struct PtxasRun {
  int status = -1;                       // ptxas's exit status (-1: it could not be started)
  std::string output;                    // what it printed (errors, and -v's report)
  std::vector<KernelResources> kernels;  // per entry, in the order ptxas reports them
};

// POLYRT_PTXAS when set, else `ptxas` on PATH, else the toolkit's usual
// places (CUDA_HOME/bin, /usr/local/cuda/bin); nullopt when none is found.
std::optional<std::string> find_ptxas();

// Assembles `ptx` for sm_`sm` with `-v`, discarding the object.
PtxasRun run_ptxas(const std::string& ptxas, const std::string& ptx, unsigned sm);

// The per-entry report of `ptxas -v` output.
std::vector<KernelResources> parse_ptxas_report(const std::string& output);

// Resident blocks per SM of a kernel using `registers` per thread in blocks
// of `threads` threads on compute capability `sm` (registers and threads
// per SM, allocated per warp in units of 256 registers, as the CUDA
// occupancy calculator counts them; polyrt's kernels use no shared memory).
struct Occupancy {
  unsigned blocks_per_sm = 0;
  unsigned warps_per_sm = 0, max_warps_per_sm = 0;
};
Occupancy occupancy_of(unsigned sm, unsigned registers, unsigned threads);

// For `polyrt plan --device gpu`: per kernel step (entries[s] not empty,
// s < steps) and per entry past the steps (text compaction) its registers,
// stack and spills and its occupancy at `threads` per block, as ptxas
// reports for sm_`sm`; or why there is no report (no ptxas found, or ptxas
// refused the PTX, with its output).
std::string describe_kernel_resources(const std::string& ptx,
                                      const std::vector<std::string>& entries, size_t steps,
                                      unsigned sm, unsigned threads);

}  // namespace polyrt::gpu

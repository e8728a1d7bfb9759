// BatchDevice::Auto's cost model: which of the CPU and the GPUs a job runs
// on, from each device's measured speed on this job's program (rows per
// second of its whole path: kernels, copies, host steps and encoding, as the
// ChunkAssigner measures it under BatchDevice::All). A device that would
// bring less than kAutoMinShare of the summed speed is left out: it costs
// more than it brings (a GPU's host work and a CPU's chunks take the same
// cores, and its chunks wait in memory for delivery).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace polyrt::scheduler {

inline constexpr double kAutoMinShare = 0.1;
// Rows of a job's first run that measure every device (run as All) before
// Auto chooses; the rest of the run then goes to the chosen ones.
inline constexpr uint64_t kAutoProbeRows = uint64_t{1} << 20;

struct AutoChoice {
  std::vector<uint8_t> use;  // per device (0: the CPU): 1 when it takes rows
  std::string reason;        // "gpu 0 (...): 10x the cpu's 5.2e+07 rows/s" and the like
};

// `rates`: per device, its measured rows per second (0: not measured);
// `names`: per device, as device_name() says. Every device must be measured.
AutoChoice choose_auto_devices(std::span<const double> rates, std::span<const std::string> names);

}  // namespace polyrt::scheduler

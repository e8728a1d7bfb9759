// The batch back ends for BatchOptions::device: the CPU tier, a GPU, or
// (BatchDevice::All, and Auto when a GPU is usable) the CPU and every usable
// GPU together: Auto then chooses among them by measured speed
// (auto_devices.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "batch/batch_backend.hpp"
#include "scheduler/runtime/batch_setup.hpp"

namespace polyrt::scheduler {

struct ChosenBackend {
  // One, or for BatchDevice::All and Auto the CPU first, then each usable GPU.
  std::vector<std::unique_ptr<batch::BatchBackend>> backends;
  std::string fallback_reason;  // Auto or All without a GPU: why no GPU
  // Auto or All: each usable device left out because polyrt could not
  // generate its code (an InternalError's message: a polyrt bug).
  std::vector<std::string> left_out;
  // The GPU device-resident output goes to (BatchDevice::Gpu's, or Auto's
  // first usable one), else -1.
  int gpu = -1;
};

ChosenBackend make_batch_backend(std::shared_ptr<const Program> program, const BatchSetup& setup,
                                 const BatchOptions& options);

}  // namespace polyrt::scheduler

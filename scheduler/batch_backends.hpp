// The batch back ends for BatchOptions::device: the CPU tier, a GPU, the
// first usable GPU with the CPU as fallback, or (BatchDevice::All) every
// usable GPU and the CPU together.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "batch/batch_backend.hpp"
#include "scheduler/batch_setup.hpp"

namespace polyrt::scheduler {

struct ChosenBackend {
  // One, or for BatchDevice::All the CPU first, then each usable GPU.
  std::vector<std::unique_ptr<batch::BatchBackend>> backends;
  std::string fallback_reason;  // Auto or All without a GPU: why no GPU
  int gpu = -1;                 // the device of a single GPU back end, else -1
};

ChosenBackend make_batch_backend(std::shared_ptr<const Program> program, const BatchSetup& setup,
                                 const BatchOptions& options);

}  // namespace polyrt::scheduler

// The batch back end for BatchOptions::device: the CPU tier, a GPU, or the
// first usable GPU with the CPU as fallback.
#pragma once

#include <memory>
#include <string>

#include "batch/batch_backend.hpp"
#include "scheduler/batch_setup.hpp"

namespace polyrt::scheduler {

struct ChosenBackend {
  std::unique_ptr<batch::BatchBackend> backend;
  std::string fallback_reason;  // BatchDevice::Auto on the CPU: why no GPU
};

ChosenBackend make_batch_backend(std::shared_ptr<const Program> program, const BatchSetup& setup,
                                 const BatchOptions& options);

}  // namespace polyrt::scheduler

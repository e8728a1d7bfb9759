// Per-output step cones, each derived from the plan the first time a state
// pulls that output and then shared by every state of the program. Storing
// them all up front would cost the square of a chain's length.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "plan/state_plan.hpp"

namespace polyrt::slots {

class ConeTable {
 public:
  // The plan must outlive the table and stay where it is.
  void attach(const plan::StatePlan* plan) {
    plan_ = plan;
    cones_ = std::make_unique<Slot[]>(plan->output_slot.size());
  }

  // Safe from any thread; after the first call for `output`, one load.
  std::span<const uint32_t> operator[](size_t output) const {
    const std::vector<uint32_t>* cone = cones_[output].load(std::memory_order_acquire);
    if (!cone) [[unlikely]]
      cone = derive(output);
    return *cone;
  }

 private:
  struct Slot : std::atomic<const std::vector<uint32_t>*> {
    Slot() : std::atomic<const std::vector<uint32_t>*>(nullptr) {}
    ~Slot() { delete load(); }
  };

  const std::vector<uint32_t>* derive(size_t output) const {
    std::lock_guard lock(mutex_);
    const std::vector<uint32_t>* cone = cones_[output].load(std::memory_order_relaxed);
    if (!cone) {
      cone = new std::vector<uint32_t>(plan::output_cone(*plan_, output));
      cones_[output].store(cone, std::memory_order_release);
    }
    return cone;
  }

  const plan::StatePlan* plan_ = nullptr;
  std::unique_ptr<Slot[]> cones_;
  mutable std::mutex mutex_;
};

}  // namespace polyrt::slots

// Per-output step cones that are cheap to keep: each is derived from the
// plan the first time a state pulls its output and then shared by every
// state of the program. A cone longer than kMaxCachedCone steps, or one that
// would take the table past its budget, is not kept: storing every cone of a
// chain costs the square of its length. For those, the engines search the
// stale steps from the output backwards on each pull (cone_to_run in
// slot_engine.cpp), which costs what is stale, not the whole cone.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

#include "plan/state_plan.hpp"

namespace polyrt::slots {

class ConeTable {
 public:
  static constexpr size_t kMaxCachedCone = 4096;      // steps in one kept cone
  static constexpr size_t kBudget = size_t{1} << 22;  // steps in all kept cones

  // The plan must outlive the table and stay where it is. The environment
  // variable POLYRT_KEEP_CONE_STEPS lowers the per-cone limit (0 keeps none):
  // the differential test runs every engine that way, so that the stale-step
  // search is held to the same answers as kept cones.
  void attach(const plan::StatePlan* plan) {
    plan_ = plan;
    cones_ = std::make_unique<Slot[]>(plan->output_slot.size());
    max_kept_ = kMaxCachedCone;
    if (const char* limit = std::getenv("POLYRT_KEEP_CONE_STEPS"))
      max_kept_ = std::min<size_t>(max_kept_, std::strtoull(limit, nullptr, 10));
  }

  // The output's cone in evaluation order, or null when it is not kept.
  // Safe from any thread; after the first call for `output`, one load.
  const std::vector<uint32_t>* kept(size_t output) const {
    const std::vector<uint32_t>* cone = cones_[output].load(std::memory_order_acquire);
    if (!cone) [[unlikely]]
      cone = derive(output);
    return cone == &not_kept_ ? nullptr : cone;
  }

 private:
  struct Slot : std::atomic<const std::vector<uint32_t>*> {
    Slot() : std::atomic<const std::vector<uint32_t>*>(nullptr) {}
  };

  const std::vector<uint32_t>* derive(size_t output) const {
    std::lock_guard lock(mutex_);
    const std::vector<uint32_t>* cone = cones_[output].load(std::memory_order_relaxed);
    if (cone) return cone;
    const size_t room = kBudget > used_ ? kBudget - used_ : 0;
    auto derived = plan::output_cone(*plan_, output, std::min(max_kept_, room));
    if (derived) {
      used_ += derived->size();
      storage_.push_back(std::make_unique<std::vector<uint32_t>>(std::move(*derived)));
      cone = storage_.back().get();
    } else {
      cone = &not_kept_;
    }
    cones_[output].store(cone, std::memory_order_release);
    return cone;
  }

  const plan::StatePlan* plan_ = nullptr;
  size_t max_kept_ = kMaxCachedCone;
  std::unique_ptr<Slot[]> cones_;
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<std::vector<uint32_t>>> storage_;
  mutable size_t used_ = 0;
  const std::vector<uint32_t> not_kept_;
};

}  // namespace polyrt::slots

// How the slot-buffer engines (Closures, Native) avoid work; never changes
// results. One enum for the API and the planner.
#pragma once

#include <cstdint>

namespace polyrt {

enum class Provenance : uint8_t {
  Auto,      // Raw for small single-input graphs, PushPull with several inputs, else Pull
  Raw,       // every step a pull needs runs once per write
  Pull,      // plus the cone guard: a pull whose inputs did not change runs nothing
  PushPull,  // plus per-step skipping of steps whose inputs did not change
};

}  // namespace polyrt

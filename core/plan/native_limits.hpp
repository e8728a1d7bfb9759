// Sizes past which native code generation is not worth its compile time.
// LLVM's code generation grows faster than linearly in the size of one
// function (a 4,000-node chain fused whole took more than a minute), and a
// fused node costs about 1 ms of compile time on one core even in small
// functions (measured on one core of the 2-core CI machine).
#pragma once

#include <cstddef>

#include "graph/graph.hpp"

namespace polyrt::plan {

// Nodes one fused unit (a per-state native segment or a batch kernel) may
// hold. Longer runs are cut, in topological order, into several functions: a
// topological cut of a convex unit leaves convex pieces, and a piece only
// reads earlier pieces. 64 keeps a chain of 16,000 nodes under 10 s cold.
inline constexpr size_t kMaxFusedNodes = 64;

// Native-capable nodes past which a program is not compiled to native code:
// the native engine falls back to closures and the batch plan runs every node
// as a host step, each with a warning, instead of compiling for minutes.
inline constexpr size_t kMaxNativeNodes = 16384;

// How many native-capable call nodes `graph` holds.
inline size_t native_node_count(const ir::Graph& graph) {
  size_t count = 0;
  for (const ir::Node& n : graph.nodes) count += n.kind == ir::NodeKind::Call && n.def->native;
  return count;
}

}  // namespace polyrt::plan

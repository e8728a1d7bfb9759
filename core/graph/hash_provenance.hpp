// Whether a wire's value went through a hash on its way from a coordinate:
// the nodes that pick by their input's value (an alias table's index, a
// weight's bucket: NodeDef::wants_hashed_input) step through their table,
// row after row, when fed a coordinate itself, instead of following their
// weights. The lowering asks while it adds their calls, to warn.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "graph/graph.hpp"

namespace polyrt::ir {

class HashProvenance {
 public:
  explicit HashProvenance(const Graph& graph) : graph_(graph) {}

  // The node of a coordinate that `wire` reads with no hashing node
  // (NodeDef::keyed_by_seed) on the way, or nothing when every path from a
  // coordinate passes one (or none reads a coordinate).
  std::optional<uint32_t> unhashed_coordinate(Wire wire);

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  const Graph& graph_;
  std::vector<uint32_t> memo_;  // per node: the coordinate node, or kNone; filled in order
};

}  // namespace polyrt::ir

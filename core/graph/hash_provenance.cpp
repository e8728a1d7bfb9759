#include "graph/hash_provenance.hpp"

#include "nodes/registry.hpp"

namespace polyrt::ir {

std::optional<uint32_t> HashProvenance::unhashed_coordinate(Wire wire) {
  // Nodes come in topological order: each one's inputs are decided first.
  for (uint32_t k = (uint32_t)memo_.size(); k <= wire.node; ++k) {
    const Node& n = graph_.nodes[k];
    uint32_t found = kNone;
    if (n.kind == NodeKind::Coordinate) {
      found = k;
    } else if (n.kind == NodeKind::Call && !n.def->keyed_by_seed) {
      for (const Wire& in : n.inputs) {
        if (memo_[in.node] != kNone) {
          found = memo_[in.node];
          break;
        }
      }
    }
    memo_.push_back(found);
  }
  const uint32_t found = memo_[wire.node];
  if (found == kNone) return std::nullopt;
  return found;
}

}  // namespace polyrt::ir

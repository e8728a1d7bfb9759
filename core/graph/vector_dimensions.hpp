// The static dimension of vector wires: how many elements every value of a
// wire has when the program fixes it (a constant vector, hash_vec(seed, 768)
// and what keeps its input's length), so that writers can lay a vector output
// out as a fixed-size list (Arrow) before a row exists.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "graph/graph.hpp"

namespace polyrt::ir {

// Per node, the dimension of its first output when it is a vector of a
// dimension fixed at compile time; none otherwise.
std::vector<std::optional<uint64_t>> vector_dimensions(const Graph& g);

}  // namespace polyrt::ir

// A comprehension source that calls a node, `partitions("*/4", 1000)` or
// `subdivide(p, 4)`: evaluated once when the traversal opens, on the host, as
// every engine evaluates the node, and peeled into its elements (a
// partition list into its partitions).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "polyrt/value.hpp"

namespace polyrt {

// The elements of `callee(args)`: the arguments in the node's order, a
// missing trailing constant argument its default. EvalError when the node
// fails or an argument does not fit it (naming the argument and what it
// takes).
std::vector<Value> call_source_values(std::string_view callee, std::span<const Value> args);

}  // namespace polyrt

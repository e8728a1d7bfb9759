// A node called at compile time or when a traversal opens: a comprehension
// source that calls a node (`partitions("*/4", 1000)`, `subdivide(p, 4)`), a
// tile's compile-time call, a cursor's bounds. Evaluated on the host as every
// engine evaluates the node (nodes::run_call), and peeled into its elements
// (a partition list into its partitions, a vector into its values).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "polyrt/value.hpp"

namespace polyrt::nodes {

// `callee(args)`: the arguments in the node's order, a
// missing trailing constant argument its default. EvalError when the node
// fails or an argument does not fit it (naming the argument and what it
// takes).
Value call_node(std::string_view callee, std::span<const Value> args);
// call_node's result peeled into its elements: none for None.
std::vector<Value> call_node_elements(std::string_view callee, std::span<const Value> args);

}  // namespace polyrt::nodes

// The partitions of a partition_list value, in its order: what
// partition_at(list, i) gives for each i, in one pass over the list's text
// (a traversal's `for p in partitions(...)` and a cursor `over` a list peel
// up to 2^20 of them; one partition_at per i re-read the list each time).
#pragma once

#include <vector>

#include "polyrt/value.hpp"

namespace polyrt::nodes {

std::vector<Value> partition_list_elements(const Value& list);

}  // namespace polyrt::nodes

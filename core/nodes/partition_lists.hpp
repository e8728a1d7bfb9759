// Partition values as traversals take them apart.
#pragma once

#include <cstdint>
#include <vector>

#include "polyrt/value.hpp"

namespace polyrt::nodes {

// The partitions of a partition_list value, in its order: what
// partition_at(list, i) gives for each i, in one pass over the list's text
// (a traversal's `for p in partitions(...)` and a cursor `over` a list peel
// up to 2^20 of them; one partition_at per i re-read the list each time).
std::vector<Value> partition_list_elements(const Value& list);

// The base extent a partition value was made over.
uint64_t partition_base_extent(const Value& partition);

// A partition value carried onto an extent of `extent` ordinals
// (partitions::reproject).
Value reprojected_partition(const Value& partition, uint64_t extent);

}  // namespace polyrt::nodes

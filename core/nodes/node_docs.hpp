// Generates the node reference (docs/nodes.md) from the registry, so the
// documentation cannot drift from the implementation.
#pragma once

#include <string>

namespace polyrt::nodes {

std::string node_reference_markdown();

}  // namespace polyrt::nodes

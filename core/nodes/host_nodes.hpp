// The registry of the host's nodes (polyrt/host_nodes.hpp) as the compiler
// sees it: find_node looks here after the language's own nodes.
#pragma once

#include <string_view>

#include "polyrt/host_nodes.hpp"

namespace polyrt::nodes {

struct NodeDef;

// Registers a host node. Throws RegistrationError.
void add_host_node(HostNode node);
// The host's node of this name, or nullptr.
const NodeDef* find_host_node(std::string_view name);

}  // namespace polyrt::nodes

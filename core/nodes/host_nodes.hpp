// The registry of the host's nodes (polyrt/host_nodes.hpp) as the compiler
// sees it: find_node looks here after the language's own nodes.
#pragma once

#include <string>
#include <string_view>

#include "polyrt/host_nodes.hpp"

namespace polyrt::nodes {

struct NodeDef;

// Throws RegistrationError unless `name` may name a host node: an
// identifier, not `__`-prefixed, no word of the language. (Whether a module
// of the standard library has the name, polyrt::register_node asks.)
void check_host_node_name(const std::string& name);
// Registers a host node whose name check_host_node_name passed. Throws
// RegistrationError.
void add_host_node(HostNode node);
// The host's node of this name, or nullptr.
const NodeDef* find_host_node(std::string_view name);

}  // namespace polyrt::nodes

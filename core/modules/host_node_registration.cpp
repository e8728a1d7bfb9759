// The host's nodes as the public API registers them (polyrt/host_nodes.hpp):
// a registration claims a name of the namespace that the language's nodes,
// the host's nodes and the standard library's modules share, so it is
// checked here, where the nodes (nodes/host_nodes.hpp) and the modules are
// both seen; and plugins, libraries that register nodes when loaded.
#include <dlfcn.h>

#include <filesystem>
#include <optional>
#include <string>

#include "modules/module_library.hpp"
#include "nodes/host_nodes.hpp"
#include "polyrt/host_nodes.hpp"
#include "syntax/sources.hpp"

namespace polyrt {

namespace {

// A node takes a call's name before the standard library's modules do: one
// named like a module would change it for every program. The library is
// asked as a program's call asks it (a module path of none).
void refuse_module_name(const std::string& name) {
  const syntax::SourceText nothing("<register_node>", "");
  syntax::Sources sources(nothing);
  modules::ModuleLibrary library(sources, {}, "");
  if (const std::optional<modules::FoundModule> found = library.find(name, syntax::SourcePos{})) {
    throw RegistrationError("host node '" + name + "': the standard library has a module named '" +
                            name + "' (" +
                            std::filesystem::path(found->text->file()).filename().string() +
                            "), which a node of that name would replace in every program");
  }
}

// What a plugin's registration function is handed.
struct ProcessRegistry final : HostRegistry {
  void add(HostNode node) override { register_node(std::move(node)); }
};

}  // namespace

void register_node(HostNode node) {
  nodes::check_host_node_name(node.name);
  refuse_module_name(node.name);
  nodes::add_host_node(std::move(node));
}

bool is_host_node(std::string_view name) {
  return nodes::find_host_node(name) != nullptr;
}

void load_plugin(const std::string& path) {
  // A path without a slash is looked up as dlopen does (LD_LIBRARY_PATH):
  // name a file in the current directory ./lib.so.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    throw RegistrationError("cannot load plugin '" + path + "': " + (why ? why : "unknown error"));
  }
  using Register = void (*)(HostRegistry&);
  const auto entry = reinterpret_cast<Register>(dlsym(library, "polyrt_plugin_register"));
  if (!entry) {
    throw RegistrationError("plugin '" + path +
                            "' has no function polyrt_plugin_register (export it as extern \"C\" "
                            "void polyrt_plugin_register(polyrt::HostRegistry&))");
  }
  ProcessRegistry registry;
  try {
    entry(registry);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw RegistrationError("plugin '" + path + "' failed to register its nodes: " + e.what());
  } catch (...) {  // an int, a string: never let it end the process
    throw RegistrationError("plugin '" + path +
                            "' failed to register its nodes: it threw something that is not a "
                            "std::exception");
  }
}

}  // namespace polyrt

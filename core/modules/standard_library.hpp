// polyrt's standard library of modules: the polydat files of core/modules/stdlib/,
// embedded in the binary at build time (cmake/embed_stdlib.cmake).
#pragma once

#include <string_view>
#include <vector>

namespace polyrt::modules {

struct EmbeddedFile {
  std::string_view name;  // "identity.polydat"
  std::string_view text;
};

// In name order.
const std::vector<EmbeddedFile>& standard_library_files();

}  // namespace polyrt::modules

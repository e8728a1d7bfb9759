#include "io/confinement.hpp"

#include <filesystem>

#include "polyrt/error.hpp"

namespace polyrt::io {

namespace {

thread_local const Confinement* current = nullptr;

bool inside(const std::filesystem::path& path, const std::filesystem::path& dir) {
  auto p = path.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++p) {
    if (d->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *d) return false;
  }
  return true;
}

}  // namespace

ConfinementScope::ConfinementScope(const std::vector<std::string>& data_roots,
                                   std::vector<std::string> allowed_env)
    : outer_(current) {
  namespace fs = std::filesystem;
  for (const std::string& root : data_roots) {
    std::error_code ec;
    const fs::path canonical = fs::canonical(root, ec);
    if (ec || !fs::is_directory(canonical, ec)) {
      throw RefusedError("data root '" + root + "' is not a directory" +
                         (ec ? " (" + ec.message() + ")" : std::string()));
    }
    if (canonical == canonical.root_path()) {
      throw RefusedError("data root '" + root + "' is the root directory, which confines nothing");
    }
    confinement_.data_roots.push_back(canonical.string());
  }
  confinement_.allowed_env = std::move(allowed_env);
  current = &confinement_;
}

ConfinementScope::~ConfinementScope() {
  current = outer_;
}

const Confinement* confinement() {
  return current;
}

std::string data_file_refusal(const Confinement& c, const std::string& path) {
  namespace fs = std::filesystem;
  if (c.data_roots.empty()) {
    return "an untrusted program reads no data file unless given a data root (--data-root DIR; "
           "CompileOptions::data_roots, Python data_roots=)";
  }
  std::error_code ec;
  const fs::path canonical = fs::canonical(path, ec);
  if (ec) return "it cannot be resolved (" + ec.message() + ")";
  for (const char* system : {"/proc", "/sys", "/dev"}) {
    if (inside(canonical, system)) return "it is under " + std::string(system);
  }
  for (const std::string& root : c.data_roots) {
    if (inside(canonical, root)) return "";
  }
  std::string roots;
  for (const std::string& root : c.data_roots) roots += (roots.empty() ? "" : ", ") + root;
  return "it is outside the data roots (" + roots + "), symbolic links resolved";
}

}  // namespace polyrt::io

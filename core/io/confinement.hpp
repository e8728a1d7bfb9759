// What a program compiled as untrusted (CompileOptions::untrusted, `polyrt
// --untrusted`) may read while it compiles: data files only under the data
// roots it was given, the environment only for the names it was allowed.
// Held per thread for the compile, as DataFileScope is; the nodes that read
// files or the environment, and the diagnostics that would quote what they
// read, ask for it. docs/security.md says what else a service must limit.
#pragma once

#include <string>
#include <vector>

namespace polyrt::io {

struct Confinement {
  std::vector<std::string> data_roots;  // canonical directories
  std::vector<std::string> allowed_env;
};

// While alive, on this thread, compiles are confined by `confinement`.
// Throws polyrt::Error for a data root that is not an existing directory,
// or is "/".
class ConfinementScope {
 public:
  ConfinementScope(const std::vector<std::string>& data_roots,
                   std::vector<std::string> allowed_env);
  ~ConfinementScope();
  ConfinementScope(const ConfinementScope&) = delete;
  ConfinementScope& operator=(const ConfinementScope&) = delete;

 private:
  Confinement confinement_;
  const Confinement* outer_;
};

// This thread's confinement, or null when the compile is trusted.
const Confinement* confinement();

// Why the data file at `path` (as resolved from the working or program
// directory) may not be read under `c`, or "" when it may: it must be, with
// every symbolic link resolved, inside a data root and outside /proc, /sys
// and /dev.
std::string data_file_refusal(const Confinement& c, const std::string& path);

}  // namespace polyrt::io

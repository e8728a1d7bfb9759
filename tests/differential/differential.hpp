// The differential driver: the same random program and the same random
// sequence of coordinate writes, extern writes and clears, pulls, evals and
// invalidations run on every engine and provenance mode, and must give the same
// values bit for bit, the same Nones, the same failure messages and the same
// side-channel lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace polyrt::difftest {

struct DiffOptions {
  size_t max_bindings = 60;
  size_t ops = 60;
};

// nullopt when every engine agrees; otherwise a report with the program, a
// minimized op sequence that still disagrees, and both engines' outcomes.
std::optional<std::string> check_seed(uint64_t seed, const DiffOptions& options = {});

}  // namespace polyrt::difftest

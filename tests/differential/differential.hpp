// The differential driver: the same random program and the same random
// sequence of coordinate writes, extern writes and clears, pulls, evals and
// invalidations run on every engine and provenance mode, and must give the same
// values bit for bit, the same Nones, the same failure messages and the same
// side-channel lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "polyrt/polyrt.hpp"
#include "tests/differential/random_program.hpp"

namespace polyrt::difftest {

// Every per-state engine and explicit provenance mode, the interpreter (the
// oracle) first, with the name State::engine() reports for it.
struct EngineConfig {
  Engine engine;
  Provenance provenance;
  const char* name;
};
inline constexpr EngineConfig kEngineConfigs[] = {
    {Engine::Interpreter, Provenance::Auto, "interpreter"},
    {Engine::Closures, Provenance::Raw, "closures (Raw)"},
    {Engine::Closures, Provenance::Pull, "closures (Pull)"},
    {Engine::Closures, Provenance::PushPull, "closures (PushPull)"},
    {Engine::Native, Provenance::Raw, "native (Raw)"},
    {Engine::Native, Provenance::Pull, "native (Pull)"},
    {Engine::Native, Provenance::PushPull, "native (PushPull)"},
};

struct DiffOptions {
  size_t max_bindings = 60;
  size_t ops = 60;
};

// The outputs the batch tier can run: those whose cone holds no side channel.
std::vector<std::string> batch_outputs(const Program& program);

// The random program check_seed runs for `seed`.
RandomProgram program_for_seed(uint64_t seed, const DiffOptions& options = {});

// nullopt when every engine agrees; otherwise a report with the program, a
// minimized op sequence that still disagrees, and both engines' outcomes.
std::optional<std::string> check_seed(uint64_t seed, const DiffOptions& options = {});

}  // namespace polyrt::difftest

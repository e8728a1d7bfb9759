// The P1 interpreter: the semantic oracle. Throws EvalError when a const fails.
#pragma once

#include <memory>

#include "engine/state_engine.hpp"

namespace polyrt {
namespace ir {
struct Graph;
}

namespace interp {
// Runs `graph`, which `owner` keeps alive (State::program() returns it).
std::unique_ptr<StateEngine> make_interpreter(std::shared_ptr<const Program> owner,
                                              const ir::Graph& graph);
}  // namespace interp
}  // namespace polyrt

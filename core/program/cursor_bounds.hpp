// A top-level cursor whose constructor's arguments are expressions
// (`range(0, rows_total)`, `until_elapsed(main_chunk, main_ms)`) or whose
// `over` names a str wire holding a partition spec (`over cursor`, a
// workload's "0..100%"): polydat evaluates them when the traversal opens;
// polyrt's top level opens when the program compiles, so they are evaluated
// then, from constants, bindings that read no coordinate and extern values
// (their defaults, CompileOptions::params), and written back as literals for
// top_level_cursors.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/sources.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt {

// What a probe of the program keeps: the outputs to evaluate, and the
// cursors that stand in as one-ordinal ranges (the host's partition choice
// is not theirs to take).
struct ProbeRequest {
  std::vector<std::string> outputs;
  std::vector<std::string> stand_ins;
};

// Compiles `probe` (a copy of the program, parsed again) keeping only the
// requested outputs, for evaluation on the interpreter.
using ProbeCompiler =
    std::function<std::shared_ptr<const Program>(dsl::Ast probe, const ProbeRequest& request)>;

// Rewrites every top-level cursor of `ast` whose constructor has an argument
// other than an integer literal, or whose `over` names a str wire, to
// literals. `parse_again` gives a fresh copy of the program (its traversals
// taken). CompileError at the argument for a bound that reads a coordinate or
// an extern without a value, fails, or is not an unsigned integer.
void resolve_cursor_bounds(dsl::Ast& ast, const std::function<dsl::Ast()>& parse_again,
                           const ProbeCompiler& compile_probe, const dsl::Sources& sources);

}  // namespace polyrt

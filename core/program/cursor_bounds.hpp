// A cursor whose constructor's arguments are expressions (`range(0,
// rows_total)`, `until_elapsed(main_chunk, main_ms)`), or a top-level one
// whose `over` names a str wire holding a partition spec (`over cursor`, a
// workload's "0..100%"): polydat evaluates them when the traversal opens.
// polyrt's top level opens when the program compiles, and a traversal's
// body reads the program's values as they are then, so both are evaluated
// at compile time, from constants, the program's bindings that read no
// coordinate and its extern values (their defaults, CompileOptions::params),
// and written back as literals for top_level_cursors and body_cursors.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "polyrt/polyrt.hpp"
#include "syntax/ast.hpp"
#include "syntax/sources.hpp"

namespace polyrt {

// What a probe of the program keeps: the outputs to evaluate, and the
// top-level cursors that stand in as one-ordinal ranges (the host's
// partition choice is not theirs to take).
struct ProbeRequest {
  std::vector<std::string> outputs;
  std::vector<std::string> stand_ins;
};

// Compiles `probe` (a copy of the program, parsed again, its traversals
// taken) keeping only the requested outputs, for evaluation on the
// interpreter.
using ProbeCompiler =
    std::function<std::shared_ptr<const Program>(syntax::Ast probe, const ProbeRequest& request)>;

// Rewrites to literals the cursors of `ast` (top level, traversals taken)
// and of the bodies of `traversals` (its top-level traversals, in order)
// whose constructor has an argument other than an integer literal, and the
// top-level ones whose `over` names a str wire, evaluated on a probe compiled
// from a copy of both. CompileError at the argument for a bound that
// reads a coordinate, an element or a body's binding, or an extern without
// a value, fails, or is not an unsigned integer.
void resolve_cursor_bounds(syntax::Ast& ast, std::vector<syntax::Stmt>& traversals,
                           const ProbeCompiler& compile_probe, const syntax::Sources& sources);

}  // namespace polyrt

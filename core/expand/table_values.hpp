// polydat's legacy table values, lowered onto polyrt's own nodes. Old
// programs (`init` era) build a table once and sample it per cycle:
//
//   init normal = dist_normal(100.0, 15.0)      // an inverse-CDF table
//   init pick   = alias_table(0.5, 0.3, 0.2)    // or alias_table([0.5, 0.3, 0.2])
//   height := lut_sample(unit_interval(hash(cycle)), normal)
//   kind   := alias_sample(hash(cycle), pick)
//
// A table is a binding whose value is a table descriptor: dist_normal(mean,
// stddev), dist_exponential(rate) or dist_pareto(scale, shape) written
// without their input, or alias_table(weights...); or a name bound to one
// (a module parameter typed alias_table is such a name once inlined).
// lut_sample(q, T) becomes the descriptor's node sampled at q
// (dist_normal(q, mean, stddev): polyrt's table of that distribution, so the
// values equal the direct node's), and alias_sample(h, T) becomes
// alias_sample(h, weights...). A table has no value of its own: it is no
// output, and any other use of its name is a CompileError.
#pragma once

#include <string_view>

#include "syntax/ast.hpp"
#include "syntax/sources.hpp"

namespace polyrt::expand {

// Rewrites the samplings of tables in `ast` (after module inlining) and
// removes the table bindings. Throws CompileError for a misused table.
void resolve_table_values(syntax::Ast& ast, const syntax::Sources& sources);

}  // namespace polyrt::expand

#include "expand/expansions.hpp"

#include "expand/emitted_rows.hpp"
#include "expand/producers.hpp"
#include "expand/table_values.hpp"
#include "expand/tiles.hpp"
#include "modules/inline_modules.hpp"
#include "polyrt/error.hpp"
#include "syntax/tree_text.hpp"

namespace polyrt::expand {

namespace {

constexpr Expansion kExpansions[] = {
    {"producers", Scope::File,
     "`x := for ...` becomes its canonical text; traversals over a producer take its "
     "comprehension",
     [](syntax::Ast& ast, Context& c) { resolve_producers(ast, c.text); }},
    {"tiles", Scope::File, "each tile's template becomes its binding's value",
     [](syntax::Ast& ast, Context& c) { compile_tiles(ast, c.text); }},
    {"emitted_rows", Scope::File, "emit_row(...) adds its NAME.row output",
     [](syntax::Ast& ast, Context&) { add_emitted_rows(ast); }},
    {"modules", Scope::Program,
     "every module call (the program's, the library's, the standard library's) is inlined",
     [](syntax::Ast& ast, Context& c) {
       ast = modules::inline_modules(std::move(ast), c.sources, c.library);
     }},
    {"table_values", Scope::Program,
     "legacy table values (init, alias_table, lut_sample) become node calls",
     [](syntax::Ast& ast, Context& c) { resolve_table_values(ast, c.sources); }},
};

void run_scope(Scope scope, syntax::Ast& ast, Context& context) {
  for (const Expansion& e : kExpansions) {
    if (e.scope != scope) continue;
    e.run(ast, context);
    if (context.dump && e.name == context.dump_after) {
      (*context.dump)("// " + context.program_name + " after '" + std::string(e.name) + "'\n" +
                      syntax::tree_text(ast));
    }
  }
}

}  // namespace

std::span<const Expansion> expansions() {
  return kExpansions;
}

void expand_file(syntax::Ast& ast, Context& context) {
  if (context.dump) {
    std::string names;
    bool known = false;
    for (const Expansion& e : kExpansions) {
      names += (names.empty() ? "" : ", ") + std::string(e.name);
      known = known || e.name == context.dump_after;
    }
    if (!known) {
      throw RefusedError("no expansion is named '" + std::string(context.dump_after) +
                         "'; the expansions, in the order they run: " + names);
    }
  }
  run_scope(Scope::File, ast, context);
}

void expand_program(syntax::Ast& ast, Context& context) {
  run_scope(Scope::Program, ast, context);
}

}  // namespace polyrt::expand

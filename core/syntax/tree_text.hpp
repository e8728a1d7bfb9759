// The syntax tree written back as polydat-like text, one statement per line:
// what a program looks like after an expansion rewrote it (polyrt check
// --dump-after). For people reading the front end's work, not for parsing:
// compiler-made names (module parameters, hidden bindings) are printed as
// they are, with a trailing comment for what the tree marks but the language
// cannot say.
#pragma once

#include <string>

#include "syntax/ast.hpp"

namespace polyrt::syntax {

std::string tree_text(const Expr& e);
std::string tree_text(const Ast& ast);

}  // namespace polyrt::syntax

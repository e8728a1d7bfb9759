#include "expand/emitted_rows.hpp"

#include "nodes/registry.hpp"

namespace polyrt::expand {

// The syntax tree these expansions rewrite.
using namespace polyrt::syntax;

namespace {

void add_rows(std::vector<Stmt>& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    Stmt& s = list[i];
    if (s.kind == StmtKind::Traversal) add_rows(s.body);
    if (s.kind != StmtKind::Binding || s.names.size() != 1 || !s.expr ||
        s.expr->kind != ExprKind::Call || s.expr->text != "emit_row") {
      continue;
    }
    Stmt row;
    row.kind = StmtKind::Binding;
    row.pos = s.pos;
    row.names = {s.names[0] + ".row"};
    row.name_pos = s.name_pos;
    row.expr = clone(*s.expr, s.expr->pos.origin);
    row.expr->text = std::string(nodes::kEmitTextName);
    list.insert(list.begin() + (ptrdiff_t)i + 1, std::move(row));
    ++i;
  }
}

}  // namespace

void add_emitted_rows(Ast& ast) {
  add_rows(ast.statements);
}

}  // namespace polyrt::expand

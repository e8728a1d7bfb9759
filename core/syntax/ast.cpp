#include "syntax/ast.hpp"

#include <optional>

namespace polyrt::syntax {

Expr::~Expr() {
  std::vector<ExprPtr> pending = std::move(args);
  while (!pending.empty()) {
    ExprPtr e = std::move(pending.back());
    pending.pop_back();
    if (!e) continue;  // moved out
    for (ExprPtr& child : e->args) pending.push_back(std::move(child));
    e->args.clear();
  }
}

namespace {

// origin: the copy's origin, or none to keep each position's.
ExprPtr clone_expr(const Expr& e, std::optional<uint32_t> origin) {
  auto copy_fields = [origin](const Expr& from) {
    auto to = std::make_unique<Expr>();
    to->kind = from.kind;
    to->pos = from.pos;
    if (origin) to->pos.origin = *origin;
    to->length = from.length;
    to->depth = from.depth;
    to->u = from.u;
    to->f = from.f;
    to->text = from.text;
    to->arg_names = from.arg_names;
    to->cast_type = from.cast_type;
    to->cast_logical = from.cast_logical;
    return to;
  };
  ExprPtr root = copy_fields(e);
  std::vector<std::pair<const Expr*, Expr*>> pending{{&e, root.get()}};
  while (!pending.empty()) {
    auto [from, to] = pending.back();
    pending.pop_back();
    for (const ExprPtr& child : from->args) {
      to->args.push_back(copy_fields(*child));
      pending.emplace_back(child.get(), to->args.back().get());
    }
  }
  return root;
}

std::vector<Stmt> clone_all(const std::vector<Stmt>& statements) {
  std::vector<Stmt> copies;
  copies.reserve(statements.size());
  for (const Stmt& s : statements) copies.push_back(clone(s));
  return copies;
}

}  // namespace

ExprPtr clone(const Expr& e, uint32_t origin) {
  return clone_expr(e, origin);
}

ExprPtr clone(const Expr& e) {
  return clone_expr(e, std::nullopt);
}

Stmt clone(const Stmt& s) {
  Stmt copy;
  static_cast<StmtFields&>(copy) = s;
  if (s.expr) copy.expr = clone(*s.expr);
  copy.body = clone_all(s.body);
  return copy;
}

ModuleDef clone(const ModuleDef& m) {
  return ModuleDef{m.name, m.pos, m.params, m.outputs, clone_all(m.body)};
}

Ast clone(const Ast& ast) {
  Ast copy;
  copy.statements = clone_all(ast.statements);
  copy.modules.reserve(ast.modules.size());
  for (const ModuleDef& m : ast.modules) copy.modules.push_back(clone(m));
  copy.warnings = ast.warnings;
  copy.tokens = ast.tokens;
  return copy;
}

}  // namespace polyrt::syntax

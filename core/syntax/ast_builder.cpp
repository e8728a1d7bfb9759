#include "syntax/ast_builder.hpp"

#include <algorithm>

namespace polyrt::syntax {

ExprPtr AstBuilder::node(ExprKind kind, std::vector<ExprPtr> args) const {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = at_;
  for (ExprPtr& a : args) {
    e->depth = std::max(e->depth, 1 + a->depth);
    e->args.push_back(std::move(a));
    e->arg_names.emplace_back();
  }
  return e;
}

ExprPtr AstBuilder::literal(const Value& v) const {
  ExprPtr e = node(v.type() == Type::U64   ? ExprKind::Int
                   : v.type() == Type::F64 ? ExprKind::Float
                                           : ExprKind::Str);
  if (v.type() == Type::U64) e->u = v.as_u64();
  if (v.type() == Type::F64) e->f = v.as_f64();
  if (v.type() == Type::Str) e->text = v.text();
  return e;
}

ExprPtr AstBuilder::name(std::string n) const {
  ExprPtr e = node(ExprKind::Ident);
  e->text = std::move(n);
  return e;
}

ExprPtr AstBuilder::binary(const char* op, ExprPtr a, ExprPtr b) const {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  ExprPtr e = node(ExprKind::Binary, std::move(args));
  e->arg_names.clear();
  e->text = op;
  return e;
}

ExprPtr AstBuilder::call(const char* callee, std::vector<ExprPtr> args) const {
  ExprPtr e = node(ExprKind::Call, std::move(args));
  e->text = callee;
  return e;
}

Stmt AstBuilder::statement(StmtKind kind, std::string n) const {
  Stmt s;
  s.kind = kind;
  s.pos = at_;
  s.names = {std::move(n)};
  s.name_pos = {at_};
  return s;
}

Stmt AstBuilder::binding(std::string n, ExprPtr value, bool hidden) const {
  Stmt s = statement(StmtKind::Binding, std::move(n));
  s.expr = std::move(value);
  s.hidden = hidden;
  return s;
}

}  // namespace polyrt::syntax

#include "dsl/ast.hpp"

namespace polyrt::dsl {

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

ExprPtr clone(const Expr& e, uint32_t origin) {
  auto copy_fields = [origin](const Expr& from) {
    auto to = std::make_unique<Expr>();
    to->kind = from.kind;
    to->pos = from.pos;
    to->pos.origin = origin;
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

}  // namespace polyrt::dsl

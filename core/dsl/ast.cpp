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

}  // namespace polyrt::dsl

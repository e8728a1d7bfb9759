#include "syntax/tree_walk.hpp"

#include <vector>

namespace polyrt::syntax {

void walk(const Expr& root, const std::function<void(const Expr&)>& visit) {
  std::vector<const Expr*> pending{&root};
  while (!pending.empty()) {
    const Expr* e = pending.back();
    pending.pop_back();
    visit(*e);
    for (size_t a = e->args.size(); a-- > 0;) pending.push_back(e->args[a].get());
  }
}

void walk(Expr& root, const std::function<void(Expr&)>& visit) {
  std::vector<Expr*> pending{&root};
  while (!pending.empty()) {
    Expr* e = pending.back();
    pending.pop_back();
    visit(*e);
    for (size_t a = e->args.size(); a-- > 0;) pending.push_back(e->args[a].get());
  }
}

void walk_slots(ExprPtr& root, const std::function<bool(ExprPtr&)>& visit) {
  std::vector<ExprPtr*> pending{&root};
  while (!pending.empty()) {
    ExprPtr* e = pending.back();
    pending.pop_back();
    if (!visit(*e)) continue;
    for (size_t a = (*e)->args.size(); a-- > 0;) pending.push_back(&(*e)->args[a]);
  }
}

}  // namespace polyrt::syntax

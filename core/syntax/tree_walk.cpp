#include "syntax/tree_walk.hpp"

#include <vector>

namespace polyrt::syntax {

namespace {

// Expr or const Expr: each node before its arguments, in source order.
template <typename Node, typename Visit>
void walk_nodes(Node& root, const Visit& visit) {
  std::vector<Node*> pending{&root};
  while (!pending.empty()) {
    Node* e = pending.back();
    pending.pop_back();
    visit(*e);
    for (size_t a = e->args.size(); a-- > 0;) pending.push_back(e->args[a].get());
  }
}

}  // namespace

void walk(const Expr& root, const std::function<void(const Expr&)>& visit) {
  walk_nodes(root, visit);
}

void walk(Expr& root, const std::function<void(Expr&)>& visit) {
  walk_nodes(root, visit);
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

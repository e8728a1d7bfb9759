#include "comprehension/derivation.hpp"

#include <vector>

#include "comprehension/order_strategies.hpp"

namespace polyrt::comprehension {

namespace {

std::string clause(std::string_view keyword, std::string_view text) {
  return text.empty() ? "" : " " + std::string(keyword) + " " + std::string(text);
}

size_t nodes_of(const Predicate* root) {
  size_t count = 0;
  std::vector<const Predicate*> stack{root};
  while (!stack.empty()) {
    const Predicate* p = stack.back();
    stack.pop_back();
    ++count;
    for (const auto& a : p->args) stack.push_back(a.get());
  }
  return count;
}

// `base`'s predicate and then `more`'s: (p1) && (p2).
void narrow(Comprehension& c, const Comprehension& more) {
  if (!more.where) return;
  if (!c.where) {
    c.where = more.where;
    c.where_text = more.where_text;
    return;
  }
  auto both = std::make_shared<Predicate>();
  both->kind = Predicate::Kind::Binary;
  both->op = "&&";
  both->args = {c.where, more.where};
  c.where = std::move(both);
  c.where_text = "(" + c.where_text + ") && (" + more.where_text + ")";
}

}  // namespace

Parsed derive(const Comprehension& base, const Comprehension& derivation) {
  const bool lattice_order_alone =
      !derivation.where && derivation.order && is_lattice_strategy(derivation.order->strategy);
  Comprehension c;
  if (!base.order || (lattice_order_alone && !base.order->count)) {
    c = base;
    narrow(c, derivation);
  } else {
    c.alternatives = {base};
    c.head = "[for " + base.canonical + "]";
    c.where = derivation.where;
    c.where_text = derivation.where_text;
  }
  c.order = derivation.order;
  c.order_text = derivation.order_text;
  if (c.where && nodes_of(c.where.get()) > kMaxPredicateNodes) {
    return {std::nullopt,
            SyntaxError{"the derived predicate has more than " +
                            std::to_string(kMaxPredicateNodes) + " operators and values",
                        0, "derive from a producer with a shorter where"}};
  }
  if (c.order) {
    if (std::optional<SyntaxError> refusal = order_refusal(c, *c.order))
      return {std::nullopt, refusal};
  }
  c.canonical = c.head + clause("where", c.where_text) + clause("order", c.order_text);
  return {std::move(c), std::nullopt};
}

}  // namespace polyrt::comprehension

#include "comprehension/derivation.hpp"

#include <cctype>

#include "comprehension/order_strategies.hpp"

namespace polyrt::comprehension {

namespace {

std::string strategy_of(std::string_view order_text) {
  size_t end = 0;
  while (end < order_text.size() &&
         (std::isalnum((unsigned char)order_text[end]) || order_text[end] == '_')) {
    ++end;
  }
  return std::string(order_text.substr(0, end));
}

std::string clause(std::string_view keyword, std::string_view text) {
  return text.empty() ? "" : " " + std::string(keyword) + " " + std::string(text);
}

}  // namespace

std::string derive(const Comprehension& base, std::string_view where_text,
                   std::string_view order_text) {
  if (!base.order) {
    std::string where(where_text);
    if (!base.where_text.empty()) {
      where = where.empty() ? base.where_text
                            : "(" + base.where_text + ") && (" + std::string(where_text) + ")";
    }
    return base.head + clause("where", where) + clause("order", order_text);
  }
  if (where_text.empty() && is_lattice_strategy(strategy_of(order_text)) && !base.order->count) {
    return base.head + clause("where", base.where_text) + clause("order", order_text);
  }
  return "[for " + base.canonical + "]" + clause("where", where_text) + clause("order", order_text);
}

}  // namespace polyrt::comprehension

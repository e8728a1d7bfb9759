#include "dsl/producer_reference.hpp"

#include <cctype>

#include "dsl/lexer.hpp"

namespace polyrt::dsl {

std::pair<std::string_view, std::string_view> split_producer_reference(std::string_view text) {
  size_t end = 0;
  while (end < text.size() && ident_char(text[end])) ++end;
  std::string_view rest = text.substr(end);
  while (!rest.empty() && std::isspace((unsigned char)rest.front())) rest.remove_prefix(1);
  return {text.substr(0, end), rest};
}

bool is_producer_reference(std::string_view text) {
  const auto [name, rest] = split_producer_reference(text);
  if (name.empty() || std::isdigit((unsigned char)name.front())) return false;
  const auto starts = [&](std::string_view word) {
    return rest.substr(0, word.size()) == word &&
           (rest.size() == word.size() || !ident_char(rest[word.size()]));
  };
  return rest.empty() || starts("where") || starts("order");
}

}  // namespace polyrt::dsl

// The words polydat gives a meaning of its own: statement keywords, which
// never name a module or node, and the words of expressions and cursors.
// A host node may take none of them (register_node("if", ...) compiled and
// could never be called as a node).
#pragma once

#include <algorithm>
#include <iterator>
#include <string_view>

namespace polyrt::syntax {

// The words that start a statement.
inline constexpr std::string_view kStatementKeywords[] = {"input",  "extern",   "pragma",  "const",
                                                          "shared", "volatile", "private", "cursor",
                                                          "over",   "for",      "tile"};

// The words an expression or a cursor gives a meaning: `if c { } else { }`
// and if(c, a, b), true, false, `as`, a comprehension's `in`, `where`,
// `order` and `step`, a cursor's range(START, END).
inline constexpr std::string_view kExpressionWords[] = {"if", "else",  "true",  "false", "as",
                                                        "in", "where", "order", "step",  "range"};

inline bool is_reserved_word(std::string_view word) {
  const auto in = [&](const auto& words) {
    return std::find(std::begin(words), std::end(words), word) != std::end(words);
  };
  return in(kStatementKeywords) || in(kExpressionWords);
}

}  // namespace polyrt::syntax

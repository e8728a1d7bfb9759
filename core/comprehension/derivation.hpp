// polydat's derivations, `y := for x where P order S`: a comprehension made
// from a producer's by a further filter and order, composed as polydat
// composes them.
#pragma once

#include <string>
#include <string_view>

#include "comprehension/comprehension.hpp"

namespace polyrt::comprehension {

// The text of `base` narrowed by `where_text` and reordered by
// `order_text` (either may be empty):
// - a base without an order takes the filter into its own (`where p1`
//   then `where p2` is `where (p1) && (p2)`) and the order as its own;
// - over an ordered base, a filter sees the selected tuples and an order
//   ranks them as one axis (`[for BASE] where ... order ...`), except that
//   an order that reads the lattice (every one but lex and reverse_lex)
//   alone over an untruncated base order reads through it to the base's
//   lattice.
std::string derive(const Comprehension& base, std::string_view where_text,
                   std::string_view order_text);

}  // namespace polyrt::comprehension

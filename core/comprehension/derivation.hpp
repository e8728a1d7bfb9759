// polydat's derivations, `y := for x where P order S`: a comprehension made
// from a producer's by a further filter and order, composed as polydat
// composes them, on the parsed comprehensions (the canonical text of a
// list of quoted items does not parse back to the same items).
#pragma once

#include "comprehension/comprehension.hpp"

namespace polyrt::comprehension {

// `base` narrowed by `derivation`'s where and reordered by its order
// (either may be absent; `derivation` is a producer reference as parsed):
// - a base without an order takes the filter into its own (`where p1`
//   then `where p2` is `where (p1) && (p2)`) and the order as its own;
// - over an ordered base, a filter sees the selected tuples and an order
//   ranks them as one axis (`[for BASE] where ... order ...`), except that
//   an order that reads the lattice (every one but lex and reverse_lex)
//   alone over an untruncated base order reads through it to the base's
//   lattice.
// The error, at offset 0, when the order cannot order the result or the
// composed predicate grows past kMaxPredicateNodes.
Parsed derive(const Comprehension& base, const Comprehension& derivation);

}  // namespace polyrt::comprehension

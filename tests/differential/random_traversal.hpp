// The differential test of traversals: a seeded random program with one
// traversal (a comprehension of random sources, zips or a union, a where and
// an order, over a body of random bindings of its elements and, sometimes,
// of a parent value, or a cursor whose bounds are expressions of the
// program's extern or const: its first and last cycles are read) is opened
// at a few parent coordinates on every
// per-state engine, and its lattice body, when it has one, runs in the
// batch tier: every engine gives the interpreter's tuples, in its order, and
// its values bit for bit, or fails alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace polyrt::difftest {

// The program check_traversal_seed runs for `seed`.
std::string traversal_program_for_seed(uint64_t seed);

// nullopt when every engine and tier agrees; otherwise a report with the
// program and the first difference.
std::optional<std::string> check_traversal_seed(uint64_t seed);

}  // namespace polyrt::difftest

// Traversals, `for COMPREHENSION { body }`: a flat map from one parent
// coordinate to one row per tuple of the comprehension. Opening a traversal
// snapshots what it reads of the parent state (the values its `{name}`
// sources and predicates and its body read) and evaluates its tuples; each
// tuple's activation is a fresh state over the body with its elements and
// the snapshot written, so the body's `const`s are evaluated per activation.
// A body without a cursor has one cycle per activation (cycle 0). A `for`
// inside a body opens from each of its activations (open_nested).
//
//   auto program = polyrt::compile("input cycle\nbase := cycle * 100\n"
//                                  "for a in 0..2, tag in p, q { v := base + a }\n");
//   polyrt::State parent = program->new_state();
//   parent.set_inputs({7});
//   polyrt::Traversal t = polyrt::open_traversal(parent, {{7}}, 0);
//   for (size_t a = 0; a < t.tuples().size(); ++a) t.activation(a).pull("v");  // 700 700 701 701
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "polyrt/polyrt.hpp"

namespace polyrt {

class Traversal {
 public:
  // The comprehension as polydat prints it ("a in 0..2, tag in p, q").
  const std::string& comprehension() const { return comprehension_; }
  // The element names (one per clause) and the tuples, in visiting order.
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<std::vector<Value>>& tuples() const { return tuples_; }
  // The body's program: its outputs are the traversal's row columns.
  const Program& body() const { return *body_; }
  // How many cycles tuple `a`'s activation runs: the size of its narrowest
  // cursor's slice (a body's `cursor rows = range(0, 1000) over p` runs
  // p's ordinals), or 1 for a body without a cursor. EvalError when a
  // cursor cannot take its partition.
  uint64_t cycles(size_t a) const;
  // A fresh state over the body for tuple `a` (0-based), positioned at
  // `cycle` (below cycles(a)): its elements, the parent's values it reads
  // and its cursors' slices written. WriteError past the last tuple or
  // cycle.
  State activation(size_t a, uint64_t cycle = 0) const;
  // What activation(a) writes to the body's externs (its elements, the
  // parent's values it reads, its cursors' slices): with the body's `cycle`
  // iterated over [0, cycles(a)), a BatchEvaluator of body() runs the
  // activation's rows in the batch tier.
  std::vector<std::pair<std::string, Value>> activation_externs(size_t a) const;
  // The traversals nested in the body (`for` inside `for`), in source order.
  size_t nested_count() const;
  // Opens nested traversal `index` of the body from tuple `a`'s activation
  // at its cycle 0 (as polydat does): the nested body reads the outer
  // elements and body values as this body reads the parent's. WriteError
  // for a bad index; EvalError as open_traversal.
  Traversal open_nested(size_t a, size_t index) const;

 private:
  friend Traversal open_traversal(State& parent, std::span<const uint64_t> coordinates,
                                  size_t index);
  // Opens traversal `index` of the parent's program; `externs` are what
  // polyrt wrote to the parent when it is an activation (empty for a
  // program's own state).
  static Traversal open(State& parent, std::span<const uint64_t> coordinates, size_t index,
                        const std::vector<std::pair<std::string, Value>>& externs);
  // Activation `a`'s cycle count and, when `externs` is given, what it
  // writes to the body's externs, from one evaluation of its cursors'
  // slices. WriteError past the last tuple.
  uint64_t prepare_activation(size_t a, std::vector<std::pair<std::string, Value>>* externs) const;
  std::string comprehension_;
  std::vector<std::string> names_;
  std::vector<std::vector<Value>> tuples_;
  std::shared_ptr<const Program> body_;
  std::vector<std::pair<std::string, Value>> cascade_;
  std::shared_ptr<const TraversalDef> def_;  // its cursors
};

// What a traversal is before it opens: its comprehension's text, its
// element names (one per clause) and types, and its body's program. WriteError for a
// bad index.
struct TraversalInfo {
  std::string comprehension;
  std::vector<std::string> names;
  std::vector<Type> types;  // each element's type
  std::shared_ptr<const Program> body;
  // Its batch form, when its tuples are a lattice its text fixes (ranges,
  // literal lists and generators; no where; no order but lex) and its body
  // reads nothing of the parent: every opening gives the same rows, and
  // this program gives them all at once. Its inputs are (row, cycle): row
  // r (any u64) is tuple r mod `lattice_tuples`; cycle is held at 0. Its
  // outputs are the elements, then the body's. Null otherwise.
  std::shared_ptr<const Program> lattice_body;
  uint64_t lattice_tuples = 0;
  // Whether the body declares a cursor: its activations may run many
  // cycles, each such activation one batch (Traversal::activation_externs).
  bool cursors = false;
};
TraversalInfo traversal_info(const Program& program, size_t index);

// The shape of traversal `index`'s rows. Nested traversals flatten: a body
// holding one `for` has the rows of that `for`, opened from each of its
// activations at cycle 0, down to the innermost body. The names and types
// are every level's elements, outermost first; the body is the innermost
// (a lattice body only when nothing nests). WriteError for a bad index or a
// body holding more than one nested traversal (open those with
// Traversal::open_nested).
TraversalInfo flattened_traversal_info(const Program& program, size_t index);

// Every row-giving activation of an opening, in order: for a traversal
// without nested ones, each of its activations; else, for each activation,
// those of its nested traversal opened there (at cycle 0), recursively.
// `visit` gets the enclosing levels' elements (outermost first), the
// innermost opening and the activation's index in it. WriteError as
// flattened_traversal_info.
void for_each_innermost_activation(
    const Traversal& t,
    const std::function<void(std::span<const Value> outer, const Traversal& innermost, size_t a)>&
        visit);

// Opens top-level traversal `index` (0-based, in source order) of the
// parent state's program at its current values; `coordinates` are the
// inputs the parent was last set to (a body may read them). WriteError for
// a bad index or coordinate count; EvalError when a value it reads fails or
// the comprehension cannot be evaluated (a predicate ordering a string and
// a number, more tuples than one opening materializes).
Traversal open_traversal(State& parent, std::span<const uint64_t> coordinates, size_t index);

// The rows of traversal `index` for `count` parent coordinates from
// `first`: one parent state (the first input iterated, the others from
// `coordinates`, one value per input; the externs from `externs`) opens the
// traversal at each coordinate in turn and `visit` gets the coordinate and
// its opening, in order. WriteError as open_traversal.
void for_each_opening(const Program& program, size_t index, uint64_t first, uint64_t count,
                      std::vector<uint64_t> coordinates,
                      std::span<const std::pair<std::string, Value>> externs,
                      const std::function<void(uint64_t coordinate, const Traversal&)>& visit);

}  // namespace polyrt

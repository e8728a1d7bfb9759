#include "polyrt/traversal.hpp"

#include <algorithm>

#include "program/call_source.hpp"
#include "program/program_internals.hpp"
#include "program/traversal_def.hpp"

namespace polyrt {

namespace {

// The parent's value of `name` for a {name} source or predicate: an output
// or an input; nullopt when the parent has neither (it then reads None).
std::optional<Value> parent_value(State& parent, std::span<const uint64_t> coordinates,
                                  std::string_view name) {
  const Program& p = parent.program();
  if (const std::optional<size_t> o = p.output_index(name)) return parent.pull_at(*o);
  for (size_t c = 0; c < p.input_names().size(); ++c) {
    if (p.input_names()[c] == name) return Value::u64(coordinates[c]);
  }
  return std::nullopt;
}

const TraversalDef& definition(const Program& p, size_t index) {
  if (index >= p.traversal_count()) {
    throw WriteError("traversal " + std::to_string(index) + " does not exist; the program has " +
                     std::to_string(p.traversal_count()));
  }
  return ProgramInternals::traversal(p, index);
}

}  // namespace

TraversalInfo traversal_info(const Program& program, size_t index) {
  const TraversalDef& def = definition(program, index);
  TraversalInfo info{def.comprehension.canonical, {}, def.element_types, def.body};
  info.names = comprehension::element_names(def.comprehension);
  info.lattice_body = def.lattice_body;
  info.lattice_tuples = def.lattice_tuples;
  return info;
}

Traversal open_traversal(State& parent, std::span<const uint64_t> coordinates, size_t index) {
  const Program& p = parent.program();
  const TraversalDef& def = definition(p, index);
  if (coordinates.size() != p.input_names().size()) {
    throw WriteError("open_traversal needs the parent's " + std::to_string(p.input_names().size()) +
                     " coordinate(s), got " + std::to_string(coordinates.size()));
  }
  Traversal t;
  t.def_ = ProgramInternals::traversal_def(p, index);
  t.comprehension_ = def.comprehension.canonical;
  t.body_ = def.body;
  for (const TraversalDef::Cascade& c : def.cascade) {
    t.cascade_.emplace_back(
        c.name, c.is_input ? Value::u64(coordinates[c.index]) : parent.pull_at(c.index));
  }
  comprehension::Tuples tuples = comprehension::evaluate(
      def.comprehension,
      [&](std::string_view name) { return parent_value(parent, coordinates, name); },
      call_source_values);
  t.names_ = std::move(tuples.names);
  t.tuples_ = std::move(tuples.rows);
  return t;
}

uint64_t Traversal::prepare_activation(size_t a,
                                       std::vector<std::pair<std::string, Value>>* externs) const {
  if (a >= tuples_.size()) {
    throw WriteError("activation " + std::to_string(a) + " does not exist; the traversal has " +
                     std::to_string(tuples_.size()) + " tuple(s)");
  }
  if (externs) {
    for (size_t k = 0; k < names_.size(); ++k) externs->emplace_back(names_[k], tuples_[a][k]);
    externs->insert(externs->end(), cascade_.begin(), cascade_.end());
  }
  if (def_->cursors.empty()) return 1;
  uint64_t narrowest = ~uint64_t{0};
  for (const BodyCursor& c : def_->cursors) {
    const CursorSlice slice = cursor_slice(c, tuples_[a]);
    narrowest = std::min(narrowest, slice.size);
    if (!externs) continue;
    externs->emplace_back(c.name + "__start", Value::u64(slice.start));
    externs->emplace_back(c.name + "__cursor", slice.partition);
  }
  return narrowest;
}

uint64_t Traversal::cycles(size_t a) const {
  return prepare_activation(a, nullptr);
}

std::vector<std::pair<std::string, Value>> Traversal::activation_externs(size_t a) const {
  std::vector<std::pair<std::string, Value>> out;
  prepare_activation(a, &out);
  return out;
}

State Traversal::activation(size_t a, uint64_t cycle) const {
  std::vector<std::pair<std::string, Value>> externs;
  if (const uint64_t cycles = prepare_activation(a, &externs); cycle >= cycles) {
    throw WriteError("cycle " + std::to_string(cycle) + " of activation " + std::to_string(a) +
                     " does not exist; it runs " + std::to_string(cycles));
  }
  State state = body_->new_state();
  for (const auto& [name, value] : externs) state.set_input(name, value);
  state.set_inputs({cycle});
  return state;
}

void for_each_opening(const Program& program, size_t index, uint64_t first, uint64_t count,
                      std::vector<uint64_t> coordinates,
                      std::span<const std::pair<std::string, Value>> externs,
                      const std::function<void(uint64_t coordinate, const Traversal&)>& visit) {
  State parent = program.new_state();
  for (const auto& [name, value] : externs) parent.set_input(name, value);
  for (uint64_t r = 0; r < count; ++r) {  // counted: the range may end at 2^64 - 1
    if (!coordinates.empty()) coordinates[0] = first + r;
    parent.set_inputs(coordinates);
    visit(first + r, open_traversal(parent, coordinates, index));
  }
}

}  // namespace polyrt

#include "polyrt/traversal.hpp"

#include <algorithm>

#include "nodes/call_node.hpp"
#include "program/program_internals.hpp"
#include "program/traversal_def.hpp"

namespace polyrt {

namespace {

using Externs = std::vector<std::pair<std::string, Value>>;

// The value of extern `name` among what an activation wrote; nullopt when
// absent.
std::optional<Value> written(const Externs& externs, std::string_view name) {
  for (const auto& [n, v] : externs) {
    if (n == name) return v;
  }
  return std::nullopt;
}

// The parent's value of `name` for a {name} source or predicate: an output,
// an input, or (a nested traversal's parent, an activation) an extern it
// was written; nullopt when the parent has none (it then reads None).
std::optional<Value> parent_value(State& parent, std::span<const uint64_t> coordinates,
                                  const Externs& externs, std::string_view name) {
  const Program& p = parent.program();
  if (const std::optional<size_t> o = p.output_index(name)) return parent.pull_at(*o);
  for (size_t c = 0; c < p.input_names().size(); ++c) {
    if (p.input_names()[c] == name) return Value::u64(coordinates[c]);
  }
  if (std::optional<Value> value = written(externs, name)) return value;
  for (const ExternInfo& e : p.externs()) {  // not written: its default
    if (e.name == name) return e.default_value;
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
  info.cursors = !def.cursors.empty();
  return info;
}

namespace {

// The one traversal nested in `body`, if any; WriteError for several.
bool has_one_nested(const Program& body) {
  if (body.traversal_count() > 1) {
    throw WriteError("a traversal's body holds " + std::to_string(body.traversal_count()) +
                     " nested traversals, so its rows have no single shape; open each with "
                     "Traversal::open_nested");
  }
  return body.traversal_count() == 1;
}

void visit_innermost(
    const Traversal& t, std::vector<Value>& outer,
    const std::function<void(std::span<const Value>, const Traversal&, size_t)>& visit) {
  const bool nested = has_one_nested(t.body());
  for (size_t a = 0; a < t.tuples().size(); ++a) {
    if (!nested) {
      visit(outer, t, a);
      continue;
    }
    outer.insert(outer.end(), t.tuples()[a].begin(), t.tuples()[a].end());
    visit_innermost(t.open_nested(a, 0), outer, visit);
    outer.resize(outer.size() - t.tuples()[a].size());
  }
}

}  // namespace

TraversalInfo flattened_traversal_info(const Program& program, size_t index) {
  TraversalInfo info = traversal_info(program, index);
  while (has_one_nested(*info.body)) {
    const TraversalInfo inner = traversal_info(*info.body, 0);
    info.names.insert(info.names.end(), inner.names.begin(), inner.names.end());
    info.types.insert(info.types.end(), inner.types.begin(), inner.types.end());
    info.comprehension += " / " + inner.comprehension;
    info.body = inner.body;
    info.cursors = inner.cursors;
  }
  return info;
}

void for_each_innermost_activation(
    const Traversal& t,
    const std::function<void(std::span<const Value>, const Traversal&, size_t)>& visit) {
  std::vector<Value> outer;
  visit_innermost(t, outer, visit);
}

Traversal open_traversal(State& parent, std::span<const uint64_t> coordinates, size_t index) {
  return Traversal::open(parent, coordinates, index, {});
}

Traversal Traversal::open(State& parent, std::span<const uint64_t> coordinates, size_t index,
                          const Externs& externs) {
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
  using From = TraversalDef::Cascade::From;
  for (const TraversalDef::Cascade& c : def.cascade) {
    switch (c.from) {
      case From::Output:
        t.cascade_.emplace_back(c.name, parent.pull_at(c.index));
        break;
      case From::Input:
        t.cascade_.emplace_back(c.name, Value::u64(coordinates[c.index]));
        break;
      case From::Extern:
        t.cascade_.emplace_back(
            c.name, written(externs, c.name).value_or(p.externs().at(c.index).default_value));
        break;
    }
  }
  comprehension::Tuples tuples = comprehension::evaluate(
      def.comprehension,
      [&](std::string_view name) { return parent_value(parent, coordinates, externs, name); },
      nodes::call_node_elements);
  t.names_ = std::move(tuples.names);
  t.tuples_ = std::move(tuples.rows);
  return t;
}

size_t Traversal::nested_count() const {
  return body_->traversal_count();
}

Traversal Traversal::open_nested(size_t a, size_t index) const {
  Externs externs;
  prepare_activation(a, &externs);
  State state = body_->new_state();
  for (const auto& [name, value] : externs) state.set_input(name, value);
  const uint64_t cycle = 0;
  state.set_inputs({cycle});
  return open(state, std::span(&cycle, 1), index, externs);
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

// The checked program graph: typed nodes in topological order, with the facts
// the passes derive (lifecycle, provenance, cones). Immutable once built.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nodes/registry.hpp"
#include "polyrt/logical_type.hpp"
#include "polyrt/value.hpp"
#include "syntax/source.hpp"

namespace polyrt::ir {

using syntax::SourcePos;

enum class NodeKind : uint8_t { Coordinate, Extern, Constant, Call };

// When a node's value can change.
enum class Lifecycle : uint8_t {
  Constant,     // folded at compile time
  Init,         // a `const` binding (or fed only by them): evaluated once per state
  Dynamic,      // recomputed after a coordinate or extern in its provenance is written
  Volatile,     // nondeterministic or `volatile`: re-evaluated once per write
  SideChannel,  // emits to the log when it runs; never folded
};

std::string_view lifecycle_name(Lifecycle lifecycle);

struct Wire {
  uint32_t node = 0;
  uint32_t port = 0;
  bool operator==(const Wire&) const = default;
};

struct Node {
  NodeKind kind = NodeKind::Call;
  const nodes::NodeDef* def = nullptr;  // Call nodes
  std::vector<Wire> inputs;
  std::vector<Value> params;  // constant arguments, typed as declared
  std::shared_ptr<const nodes::Prepared> prepared;
  std::vector<Type> out_types;
  std::vector<Value> constants;  // Constant nodes: one value per output
  std::string name;              // binding name, or `<binding>__anon_N`
  std::string binding;           // the binding whose expression made this node
  std::string label;             // what messages call it: the node's function or "input", "extern"
  SourcePos pos;
  bool is_const_binding = false;
  bool is_volatile_binding = false;
  // A `shared` cell: outside a `for` body (which polyrt does not have yet) it
  // is a const (a volatile one if also `volatile`) that may not read a coordinate.
  bool is_shared_binding = false;
  uint32_t slot = 0;  // Coordinate: coordinate index; Extern: extern index
  Lifecycle lifecycle = Lifecycle::Dynamic;
};

// What the node's prepare made, or an empty Prepared when it has none.
inline const nodes::Prepared& prepared_of(const Node& n) {
  return nodes::prepared_or_nothing(n.prepared);
}

// An alias binding (`b := a`): its node passes its input through.
inline bool is_alias(const Node& n) {
  return n.kind == NodeKind::Call && n.def == &nodes::passthrough_node();
}

// A `const` binding evaluated when a state is created and never again.
inline bool is_frozen_const(const Node& n) {
  return n.is_const_binding && n.lifecycle == Lifecycle::Init;
}

// What a nullable output's presence output is named after it: no binding
// can be (names are identifiers).
inline constexpr std::string_view kPresenceSuffix = "#present";

struct Output {
  std::string name;
  Wire wire;
  Type type;
  LogicalType logical = {};  // none unless the binding is `... as timestamp`, ...
  // A nullable output: the index of the output whose word is 1 where this
  // one has a value, 0 where it is null. That output is `hidden`: the
  // engines compute it, the program's output names leave it out; hidden
  // outputs come after every other.
  std::optional<uint32_t> presence = {};
  bool hidden = false;
};

struct Extern {
  std::string name;
  Type type;
  Value default_value;  // None when there is no default
  uint32_t node = 0;
};

// Where the positions of one origin (syntax::SourcePos::origin) lie: the file,
// and the module calls that inlined them (syntax::Sources::call_chain; "" for
// the program itself).
struct SourceOrigin {
  std::string file;
  std::string call_chain;
};

struct Graph {
  std::vector<SourceOrigin> origins;  // [0] is the program
  const std::string& file() const { return origins.at(0).file; }
  // "file:line:col" of a node.
  std::string location_of(const Node& n) const {
    return origins.at(n.pos.origin).file + ":" + std::to_string(n.pos.line) + ":" +
           std::to_string(n.pos.col);
  }
  // The module calls that inlined a node, one "\n  in module ..." line each.
  const std::string& call_chain_of(const Node& n) const {
    return origins.at(n.pos.origin).call_chain;
  }
  std::vector<Node> nodes;            // topological order
  std::vector<uint32_t> coordinates;  // node of each coordinate, declaration order
  std::vector<Extern> externs;
  std::vector<Output> outputs;                // named bindings, source order
  std::vector<std::string> private_bindings;  // `private` ones: helpers, not outputs
  std::vector<std::string> warnings;          // full diagnostics (unknown pragmas, ...)

  // Derived by the passes.
  // Per node, the index of its first output port when every node's ports are
  // numbered in node order (the interpreter's values, the slot layout, the
  // batch plan's values); one more entry holds the number of ports.
  std::vector<uint32_t> port_base;
  // Which inputs (coordinates, then externs) each node's value depends on: a
  // bitset of provenance_words words per node (a frozen const contributes none).
  std::vector<uint64_t> provenance;
  size_t provenance_words = 0;
  bool depends_on(uint32_t node, size_t input) const {
    return provenance[(size_t)node * provenance_words + input / 64] >> (input % 64) & 1;
  }
  std::vector<std::vector<uint32_t>> coordinate_dependents;  // nodes to dirty per coordinate
  std::vector<std::vector<uint32_t>> extern_dependents;      // nodes to dirty per extern
  std::vector<uint32_t> volatile_nodes;                      // dirtied by every write
  std::vector<uint32_t> init_nodes;                          // evaluated when a state is created
};

}  // namespace polyrt::ir

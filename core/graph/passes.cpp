#include "graph/passes.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "graph/evaluate_node.hpp"
#include "graph/failure_message.hpp"
#include "io/confinement.hpp"
#include "nodes/tile_holes.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/text.hpp"

namespace polyrt::ir {

std::string_view lifecycle_name(Lifecycle lifecycle) {
  switch (lifecycle) {
    case Lifecycle::Constant:
      return "constant";
    case Lifecycle::Init:
      return "init";
    case Lifecycle::Dynamic:
      return "dynamic";
    case Lifecycle::Volatile:
      return "volatile";
    case Lifecycle::SideChannel:
      return "side channel";
  }
  return "?";
}

namespace {

// Lifecycle is the join over producers: Constant < Init < Dynamic; volatility
// is contagious except through a const binding, which captures a value once.
void classify(Graph& g, const syntax::Sources& src) {
  const uint32_t none = ~0u;
  std::vector<uint32_t> coordinate_read(g.nodes.size(), none);  // first coordinate in provenance
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    switch (n.kind) {
      case NodeKind::Coordinate:
        n.lifecycle = Lifecycle::Dynamic;
        coordinate_read[i] = n.slot;
        continue;
      case NodeKind::Extern:
        n.lifecycle = Lifecycle::Dynamic;
        continue;
      case NodeKind::Constant:
        n.lifecycle = Lifecycle::Constant;
        continue;
      case NodeKind::Call:
        break;
    }
    Lifecycle joined = Lifecycle::Constant;
    bool volatile_input = false;
    for (const Wire& w : n.inputs) {
      const Node& p = g.nodes[w.node];
      if (!is_frozen_const(p) && coordinate_read[w.node] != none)
        coordinate_read[i] = coordinate_read[w.node];
      switch (p.lifecycle) {
        case Lifecycle::Volatile:
          volatile_input = true;
          break;
        case Lifecycle::SideChannel:
          joined = std::max(joined, Lifecycle::Dynamic);
          break;
        default:
          joined = std::max(joined, p.lifecycle);
          break;
      }
    }
    const bool nondeterministic =
        n.def->purity == nodes::Purity::Nondeterministic || n.is_volatile_binding || volatile_input;
    if (n.is_shared_binding && coordinate_read[i] != none) {
      const Node& c = g.nodes[g.coordinates[coordinate_read[i]]];
      src.fail(n.pos, "shared binding '" + n.name + "' reads the coordinate '" + c.name + "'",
               n.name.size(),
               "a shared cell's starting value is computed once, when a state is created");
    }
    if (n.is_const_binding) {
      if (coordinate_read[i] != none) {
        const Node& c = g.nodes[g.coordinates[coordinate_read[i]]];
        src.fail(
            n.pos, "const binding '" + n.name + "' reads the coordinate '" + c.name + "'",
            n.name.size(),
            "a const is evaluated once per state; drop 'const' to recompute it per coordinate");
      }
      n.lifecycle = (joined == Lifecycle::Constant && !nondeterministic) ? Lifecycle::Constant
                                                                         : Lifecycle::Init;
    } else if (nondeterministic) {
      n.lifecycle = Lifecycle::Volatile;
    } else if (n.def->purity == nodes::Purity::SideChannel) {
      n.lifecycle = Lifecycle::SideChannel;
    } else {
      n.lifecycle = joined;
    }
  }
}

void fold_constants(Graph& g) {
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if (n.kind != NodeKind::Call || n.lifecycle != Lifecycle::Constant) continue;
    std::vector<const Value*> inputs;
    for (const Wire& w : n.inputs) inputs.push_back(&g.nodes[w.node].constants[w.port]);
    std::vector<Value> outputs(n.out_types.size());
    if (auto failure = run_node(n, inputs.data(), outputs.data(), discarded_side_channel())) {
      if (io::confinement()) {
        // The message and inputs may quote a data file or the environment.
        throw ConstantFoldError("constant node '" + n.label + "' in binding '" + n.binding +
                                "' at " + g.location_of(n) +
                                " fails when folded at compile time (an untrusted program is "
                                "not shown why: the message may quote what it read)");
      }
      throw ConstantFoldError("constant " + failure_message(g, i, *failure, inputs, nullptr));
    }
    n.kind = NodeKind::Constant;
    n.constants = std::move(outputs);
    n.inputs.clear();
  }
}

// A call with a ConstantInputForm whose input is now a constant becomes the
// native node of that form (see registry.hpp).
void bind_constant_inputs(Graph& g) {
  for (Node& n : g.nodes) {
    if (n.kind != NodeKind::Call || !n.def->constant_input_form) continue;
    const nodes::ConstantInputForm& form = *n.def->constant_input_form;
    const Wire w = n.inputs[form.input];
    const Node& source = g.nodes[w.node];
    if (source.kind != NodeKind::Constant) continue;
    n.params = form.params(source.constants[w.port]);
    n.inputs.erase(n.inputs.begin() + form.input);
    n.def = &form.node();
  }
}

// The format text of a literal part: braces doubled.
std::string format_literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    out.push_back(c);
    if (c == '{' || c == '}') out.push_back(c);
  }
  return out;
}

// A str_concat that reads a zero_pad_u64 (`"user-" + zero_pad_u64(id, 7)`)
// becomes one printf ("user-{:07}" of id): the same bytes (both write
// through rt::write_u64_zero_pad, and printf's {} of a u64 or str is its
// Display), but one pass over a chunk instead of a padded column that is
// then copied. The zero_pad_u64 is left to dead-code elimination when
// nothing else reads it. Parts other than u64, str and str constants leave
// the concatenation as it is (an f64's Display is not printf's {}).
void fuse_padded_concatenations(Graph& g) {
  const nodes::NodeDef* concat = nodes::find_node("str_concat");
  const nodes::NodeDef* zero_pad = nodes::find_node("zero_pad_u64");
  const nodes::NodeDef* printf_def = nodes::find_node("printf");
  for (Node& n : g.nodes) {
    if (n.kind != NodeKind::Call || n.def != concat) continue;
    std::string format;
    std::vector<Wire> args;
    bool fused = false, plain = true;
    for (const Wire& w : n.inputs) {
      const Node& part = g.nodes[w.node];
      const Type type = part.out_types[w.port];
      if (part.kind == NodeKind::Constant && type == Type::Str) {
        format += format_literal(part.constants[w.port].as_str());
      } else if (part.kind == NodeKind::Call && part.def == zero_pad &&
                 g.nodes[part.inputs[0].node].out_types[part.inputs[0].port] == Type::U64) {
        const uint64_t width = part.params[0].as_u64();
        format += width ? "{:0" + std::to_string(width) + "}" : "{}";
        args.push_back(part.inputs[0]);
        fused = true;
      } else if (type == Type::U64 || type == Type::Str) {
        format += "{}";
        args.push_back(w);
      } else {
        plain = false;
        break;
      }
    }
    if (!fused || !plain) continue;
    n.def = printf_def;
    n.params = {Value::str(format)};
    n.prepared = printf_def->prepare(n.params);
    n.inputs = std::move(args);
  }
}

// A pure str function of one table pick (`str_lower(first_names(h))`) is a
// pick of the function's values: it becomes a pick from its entries mapped
// through the function, computed once here instead of once per row (and a
// pick a GPU kernel writes). A function that fails on an entry, or that
// takes other inputs besides the pick, is left as it is.
void map_picked_entries(Graph& g) {
  const nodes::NodeDef& pick = nodes::pick_str_node();
  for (Node& n : g.nodes) {
    if (n.kind != NodeKind::Call || n.def == &pick || n.def->purity != nodes::Purity::Pure ||
        n.def->accepts_none ||
        (n.lifecycle != Lifecycle::Dynamic && n.lifecycle != Lifecycle::Init) ||
        n.inputs.size() != 1 || n.out_types != std::vector<Type>{Type::Str}) {
      continue;
    }
    const Node& source = g.nodes[n.inputs[0].node];
    if (source.kind != NodeKind::Call || source.def != &pick) continue;
    std::vector<Value> entries;
    for (const Value& entry : source.params) {
      const Value* input = &entry;
      Value out;
      if (run_node(n, &input, &out, discarded_side_channel())) break;
      entries.push_back(std::move(out));
    }
    if (entries.size() != source.params.size()) continue;
    n.def = &pick;
    n.inputs = source.inputs;
    n.params = std::move(entries);
    n.prepared = pick.prepare(n.params);
  }
}

// json_with, and json_object whose parts are all json_with (or such
// objects), become one __json_object: the object's text is written from its
// members' values, with no JSON parsed and merged per row (and a GPU kernel
// can write it). Its keys are json_object's: sorted, a later part's member
// replacing an earlier one's. Parts no longer read are left to dead-code
// elimination. (Nodes are in topological order: parts come first.)
void build_json_objects(Graph& g) {
  const nodes::NodeDef* with = nodes::find_node("json_with");
  const nodes::NodeDef* object = nodes::find_node("json_object");
  const nodes::NodeDef& direct = nodes::json_object_node();
  for (Node& n : g.nodes) {
    if (n.kind != NodeKind::Call) continue;
    if (n.def == with) {
      n.def = &direct;  // the same key (its one parameter) and value
      n.prepared = direct.prepare(n.params);
      continue;
    }
    if (n.def != object) continue;
    std::map<std::string, Wire> members;
    bool direct_parts = true;
    for (const Wire& w : n.inputs) {
      const Node& part = g.nodes[w.node];
      direct_parts = direct_parts && part.kind == NodeKind::Call && part.def == &direct;
      if (!direct_parts) break;
      for (size_t k = 0; k < part.inputs.size(); ++k) {
        members.insert_or_assign(part.params[k].as_str(), part.inputs[k]);
      }
    }
    if (!direct_parts) continue;
    n.def = &direct;
    n.params.clear();
    n.inputs.clear();
    for (const auto& [key, value] : members) {
      n.params.push_back(Value::str(key));
      n.inputs.push_back(value);
    }
    n.prepared = direct.prepare(n.params);
  }
}

// A tile branch's condition (__tile_truth) of a number or a bool is a
// native comparison with 0, which kernels compute with the rest of their
// work; of a str it stays a host step.
void specialize_tile_truths(Graph& g) {
  const nodes::NodeDef& truth = nodes::tile_truth_node();
  for (Node& n : g.nodes) {
    if (n.kind != NodeKind::Call || n.def != &truth) continue;
    const Type t = g.nodes[n.inputs[0].node].out_types[n.inputs[0].port];
    if (is_integer(t) || t == Type::Bool) {
      n.def = &nodes::tile_truth_of_word_node();
      n.params = {Value::u64(0)};
    } else if (is_float(t)) {
      n.def = &nodes::tile_truth_of_f64_node();
      n.params = {Value::f64(0.0)};
    }
  }
}

// Whether a printf placeholder, with the spec set here, writes a tile
// hole's value as its encoder (nodes/tile_holes.hpp) would: a number or a
// bool with no format (and no declared type that converts it) is its
// digits or true/false in every place; an f64's `.N` is printf's {:.N} and
// an unsigned integer's `x`, `X`, `0N`, `N` and `>N` its {:x}, {:X}, {:0N}
// and {:N}; a str is itself in text and escaped as a JSON string, the
// inside of one or a CSV field; a json value in a JSON value position is
// its text.
bool printf_writes_hole(const Node& encoder, Type value, rt::FormatSegment& seg) {
  using D = nodes::TileDeclared;
  using F = nodes::TileFormat::Kind;
  const auto rule = (nodes::TileRule)encoder.params[0].as_u64();
  const auto declared = (D)encoder.params[1].as_u64();
  const auto format = (F)encoder.params[2].as_u64();
  const uint64_t n = encoder.params[3].as_u64();
  const bool own_type = declared == D::None || (declared == D::U64 && is_unsigned_integer(value)) ||
                        (declared == D::I64 && is_signed_integer(value)) ||
                        (declared == D::F64 && value == Type::F64) ||
                        (declared == D::Bool && value == Type::Bool) ||
                        (declared == D::Str && value == Type::Str);
  if (!own_type) return false;
  if (format != F::None) {
    if (format == F::Precision && value == Type::F64) {
      seg.precision = (int)n;
      return true;
    }
    if (!is_unsigned_integer(value)) return false;
    switch (format) {
      case F::Hex:
      case F::UpperHex:
        seg.radix = format == F::Hex ? 'x' : 'X';
        return true;
      case F::ZeroPad:
      case F::Right:
        seg.width = (int)n;
        seg.zero_pad = format == F::ZeroPad;
        return true;
      default:
        return false;
    }
  }
  if (is_integer(value) || is_float(value) || value == Type::Bool) return true;
  if (value == Type::Json) return rule == nodes::TileRule::Json;
  if (value != Type::Str) return false;
  seg.escape = rule == nodes::TileRule::Json         ? rt::TextEscape::JsonQuoted
               : rule == nodes::TileRule::JsonString ? rt::TextEscape::JsonInside
               : rule == nodes::TileRule::Csv        ? rt::TextEscape::Csv
                                                     : rt::TextEscape::None;
  return true;
}

// A tile is a printf of its holes' encoders (expand/tiles.hpp). Where printf
// writes a hole's value as its encoder would (printf_writes_hole), the
// printf reads the value itself, escaped by its placeholder's spec, and
// becomes a __tile_printf when it escapes: one pass over a chunk instead of
// a column per hole copied again. Encoders no longer read are left to
// dead-code elimination.
void fold_tile_holes(Graph& g) {
  const nodes::NodeDef* printf_def = nodes::find_node("printf");
  const nodes::NodeDef& encoder = nodes::tile_encode_node();
  const nodes::NodeDef& tile_printf = nodes::tile_printf_node();
  for (Node& n : g.nodes) {
    if (n.kind != NodeKind::Call || n.def != printf_def) continue;
    std::vector<rt::FormatSegment> segments;
    std::string error;
    if (!rt::parse_format(n.params[0].as_str(), segments, error)) continue;
    bool folded = false, escaped = false;
    size_t k = 0;
    for (rt::FormatSegment& seg : segments) {
      if (!seg.placeholder) continue;
      Wire& w = n.inputs[k++];
      const Node& hole = g.nodes[w.node];
      if (hole.kind != NodeKind::Call || hole.def != &encoder || seg.width || seg.radix ||
          seg.precision >= 0) {
        continue;
      }
      const Wire value = hole.inputs[0];
      rt::FormatSegment spec = seg;
      if (!printf_writes_hole(hole, g.nodes[value.node].out_types[value.port], spec)) continue;
      seg = spec;
      w = value;
      folded = true;
      escaped = escaped || seg.escape != rt::TextEscape::None;
    }
    if (!folded) continue;
    if (escaped) n.def = &tile_printf;
    n.params = {Value::str(rt::format_text(segments))};
    n.prepared = n.def->prepare(n.params);
  }
}

void eliminate_dead(Graph& g, const syntax::Sources& src,
                    const std::vector<std::string>& required) {
  if (!required.empty()) {
    std::unordered_map<std::string_view, size_t> by_name;
    for (size_t i = 0; i < g.outputs.size(); ++i) by_name.emplace(g.outputs[i].name, i);
    std::vector<Output> kept;
    std::unordered_set<std::string_view> taken;
    for (const std::string& name : required) {
      auto it = by_name.find(name);
      if (it == by_name.end()) {
        std::vector<std::string> names;
        for (const Output& o : g.outputs) names.push_back(o.name);
        const std::string near = syntax::closest_name(name, names);
        src.fail(syntax::SourcePos{},
                 "required output '" + name + "' is not a binding of the program", 1,
                 near.empty() ? "" : "did you mean '" + near + "'?");
      }
      if (taken.insert(name).second && !g.outputs[it->second].hidden) {
        kept.push_back(g.outputs[it->second]);
      }
    }
    // The kept outputs' presence outputs, after them again.
    const size_t visible = kept.size();
    for (size_t o = 0; o < visible; ++o) {
      if (!kept[o].presence) continue;
      const Output hidden = g.outputs[*kept[o].presence];
      kept[o].presence = (uint32_t)kept.size();
      kept.push_back(hidden);
    }
    g.outputs = std::move(kept);
  }
  std::vector<uint8_t> live(g.nodes.size(), 0);
  for (const Output& o : g.outputs) live[o.wire.node] = 1;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.kind == NodeKind::Coordinate || n.kind == NodeKind::Extern) live[i] = 1;
    if (n.def && n.def->purity == nodes::Purity::SideChannel && n.kind == NodeKind::Call)
      live[i] = 1;
  }
  for (uint32_t i = (uint32_t)g.nodes.size(); i-- > 0;) {
    if (!live[i]) continue;
    for (const Wire& w : g.nodes[i].inputs) live[w.node] = 1;
  }
  // Compacted in place (a live node only moves down): a second vector of
  // nodes would double the pass's memory on programs of millions of terms.
  std::vector<uint32_t> remap(g.nodes.size(), ~0u);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (!live[i]) continue;
    remap[i] = kept;
    if (kept != i) g.nodes[kept] = std::move(g.nodes[i]);
    ++kept;
  }
  g.nodes.erase(g.nodes.begin() + kept, g.nodes.end());
  for (Node& n : g.nodes) {
    for (Wire& w : n.inputs) w.node = remap[w.node];
  }
  for (uint32_t& c : g.coordinates) c = remap[c];
  for (Extern& e : g.externs) e.node = remap[e.node];
  for (Output& o : g.outputs) o.wire.node = remap[o.wire.node];
}

// Which coordinates and externs each node's value depends on (bitsets, no
// limit on their number), inverted into per-input dependents lists.
void derive_provenance(Graph& g) {
  const size_t inputs = g.coordinates.size() + g.externs.size();
  const size_t words = (inputs + 63) / 64;
  g.provenance_words = words;
  g.provenance.assign(g.nodes.size() * words, 0);
  std::vector<uint64_t>& prov = g.provenance;
  g.coordinate_dependents.assign(g.coordinates.size(), {});
  g.extern_dependents.assign(g.externs.size(), {});
  g.volatile_nodes.clear();
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    uint64_t* mine = prov.data() + (size_t)i * words;
    if (n.kind == NodeKind::Coordinate) {
      mine[n.slot / 64] |= 1ULL << (n.slot % 64);
      continue;
    }
    if (n.kind == NodeKind::Extern) {
      const size_t bit = g.coordinates.size() + n.slot;
      mine[bit / 64] |= 1ULL << (bit % 64);
      continue;
    }
    if (n.kind != NodeKind::Call) continue;
    for (const Wire& w : n.inputs) {
      if (is_frozen_const(g.nodes[w.node])) continue;
      const uint64_t* theirs = prov.data() + (size_t)w.node * words;
      for (size_t k = 0; k < words; ++k) mine[k] |= theirs[k];
    }
    if (is_frozen_const(n)) continue;
    if (n.lifecycle == Lifecycle::Volatile) g.volatile_nodes.push_back(i);
    for (size_t k = 0; k < words; ++k) {
      for (uint64_t bits = mine[k]; bits; bits &= bits - 1) {
        const size_t bit = k * 64 + (size_t)std::countr_zero(bits);
        if (bit < g.coordinates.size()) {
          g.coordinate_dependents[bit].push_back(i);
        } else {
          g.extern_dependents[bit - g.coordinates.size()].push_back(i);
        }
      }
    }
  }
}

}  // namespace

std::vector<uint8_t> cone_mask(const Graph& g, const std::vector<uint32_t>& roots,
                               bool enter_consts) {
  std::vector<uint8_t> in(g.nodes.size(), 0);
  for (uint32_t r : roots) in[r] = 1;
  for (uint32_t i = (uint32_t)g.nodes.size(); i-- > 0;) {
    if (!in[i]) continue;
    const Node& n = g.nodes[i];
    if (is_frozen_const(n) && !enter_consts) continue;
    for (const Wire& w : n.inputs) in[w.node] = 1;
  }
  return in;
}

std::vector<uint32_t> cone_of(const Graph& g, const std::vector<uint32_t>& roots,
                              bool enter_consts) {
  const std::vector<uint8_t> in = cone_mask(g, roots, enter_consts);
  std::vector<uint32_t> cone;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (in[i] && g.nodes[i].kind == NodeKind::Call) cone.push_back(i);
  }
  return cone;
}

void run_passes(Graph& g, const syntax::Sources& src, const std::vector<std::string>& required) {
  classify(g, src);
  fold_constants(g);
  bind_constant_inputs(g);
  fuse_padded_concatenations(g);
  map_picked_entries(g);
  build_json_objects(g);
  specialize_tile_truths(g);
  fold_tile_holes(g);
  eliminate_dead(g, src, required);
  derive_provenance(g);
  g.port_base.assign(1, 0);
  for (const Node& n : g.nodes)
    g.port_base.push_back(g.port_base.back() + (uint32_t)n.out_types.size());
  std::vector<uint32_t> consts;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (is_frozen_const(g.nodes[i])) consts.push_back(i);
  }
  g.init_nodes = cone_of(g, consts, true);
}

}  // namespace polyrt::ir

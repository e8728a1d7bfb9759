// Nodes added to the graph, and the bindings lowered in dependency order.
#include "graph/lowerer.hpp"
#include "syntax/tree_walk.hpp"

namespace polyrt::ir::lowering {

uint32_t Lowerer::add_node(Node n) {
  g_.nodes.push_back(std::move(n));
  return (uint32_t)(g_.nodes.size() - 1);
}

std::string Lowerer::anon_name() {
  return binding_name_ + "__anon_" + std::to_string(anon_counter_++);
}

Typed Lowerer::constant(Value v, SourcePos pos) {
  Node n;
  n.kind = NodeKind::Constant;
  n.out_types = {v.type()};
  n.constants = {std::move(v)};
  n.name = anon_name();
  n.binding = binding_name_;
  n.label = "literal";
  n.pos = pos;
  const Type t = n.out_types[0];
  return Typed{Wire{add_node(std::move(n)), 0}, t};
}

std::vector<Typed> Lowerer::call_node(const NodeDef& def, std::vector<Typed> inputs,
                                      std::vector<Value> params, SourcePos pos, size_t length,
                                      const std::vector<SourcePos>& param_pos) {
  std::optional<Wire> present;
  for (Typed& t : inputs) {
    if (!t.present) continue;
    if (def.accepts_none) {
      src_.fail(pos,
                "'" + std::string(def.name) +
                    "' reads a value that may be null (null_if, an if with a None branch)",
                length, "default_or(value, fallback) gives a value on every row");
    }
    present = both_present(present, t.present, pos, length);
    t.present.reset();
  }
  std::vector<Typed> results =
      call_node_values(def, std::move(inputs), std::move(params), pos, length, param_pos);
  for (Typed& t : results) t.present = present;
  return results;
}

void Lowerer::warn_if_unhashed(const NodeDef& def, Wire input, SourcePos pos, size_t length) {
  const std::optional<uint32_t> coordinate = provenance_.unhashed_coordinate(input);
  if (!coordinate) return;
  const std::string& name = g_.nodes[*coordinate].name;
  g_.warnings.push_back(
      src_.warning(pos,
                   "'" + std::string(def.name) +
                       "' picks by its input's value and does not hash it, but it "
                       "reads the coordinate '" +
                       name +
                       "' unhashed: rows step through its table in "
                       "turn instead of following its weights; pass hash(" +
                       name +
                       ") (or a hashed "
                       "value)",
                   length));
}

std::optional<Wire> Lowerer::both_present(std::optional<Wire> a, std::optional<Wire> b,
                                          SourcePos pos, size_t length) {
  if (!a || (b && *a == *b)) return b;
  if (!b) return a;
  return call_node(*nodes::find_node("u64_and"), {Typed{*a, Type::U64}, Typed{*b, Type::U64}}, {},
                   pos, length)[0]
      .wire;
}

std::vector<Typed> Lowerer::call_node_values(const NodeDef& def, std::vector<Typed> inputs,
                                             std::vector<Value> params, SourcePos pos,
                                             size_t length,
                                             const std::vector<SourcePos>& param_pos) {
  if (def.wants_hashed_input) warn_if_unhashed(def, inputs[0].wire, pos, length);
  if (seed_key_ && def.keyed_by_seed) {
    inputs[0] = call_node(*nodes::find_node("u64_xor"),
                          {inputs[0], constant(Value::u64(*seed_key_), pos)}, {}, pos, length)[0];
  }
  Node n = checked_call(def, inputs, std::move(params), pos, length, param_pos);
  if (!def.table_pick) return add_call(std::move(n));
  const nodes::TablePick& pick = *def.table_pick;
  Node index = checked_call(pick.index(), inputs, pick.index_params(n.params, n.prepared.get()),
                            pos, length);
  index.label = std::string(def.name) + " index";
  const Typed entry_index = add_call(std::move(index))[0];
  if (pick.row_pick) {
    Node row = checked_call(pick.row_pick(), {entry_index}, n.params, pos, length);
    row.prepared = std::move(n.prepared);  // the table, read once
    row.label = std::string(def.name);
    return add_call(std::move(row));
  }
  std::vector<Value> entries = pick.entries(n.params, n.prepared.get());
  // The entries hold the table now: the called node's copy (a data file's
  // rows) goes before the pick's prepare makes its own.
  n.prepared.reset();
  Node entry = checked_call(nodes::pick_str_node(), {entry_index}, std::move(entries), pos, length);
  entry.label = std::string(def.name);
  return add_call(std::move(entry));
}

Node Lowerer::checked_call(const NodeDef& def, const std::vector<Typed>& inputs,
                           std::vector<Value> params, SourcePos pos, size_t length,
                           const std::vector<SourcePos>& param_pos) {
  Node n;
  n.kind = NodeKind::Call;
  n.def = &def;
  std::vector<Type> in_types;
  for (const Typed& t : inputs) {
    n.inputs.push_back(t.wire);
    in_types.push_back(t.type);
  }
  auto at_param = [&](size_t i) { return i < param_pos.size() ? param_pos[i] : pos; };
  try {
    n.prepared = def.prepare ? def.prepare(params) : def.shared_prepared;
    n.out_types = def.result_types ? def.result_types(in_types, params) : def.results;
  } catch (const nodes::ParamError& e) {
    src_.fail(at_param(e.param_index),
              "bad argument of '" + std::string(def.name) + "': " + e.message, length,
              "signature: " + nodes::signature(def));
  }
  n.params = std::move(params);
  n.name = anon_name();
  n.binding = binding_name_;
  n.label = std::string(def.name);
  n.pos = pos;
  return n;
}

std::vector<Typed> Lowerer::add_call(Node n) {
  const std::vector<Type> outs = n.out_types;
  const uint32_t id = add_node(std::move(n));
  std::vector<Typed> result;
  for (uint32_t p = 0; p < outs.size(); ++p) result.push_back(Typed{Wire{id, p}, outs[p]});
  return result;
}

Typed Lowerer::call1(const NodeDef& def, std::vector<Typed> inputs, const Expr& at) {
  return call_node(def, std::move(inputs), {}, at.pos, at.length)[0];
}

Typed Lowerer::call1(std::string_view name, std::vector<Typed> inputs, const Expr& at) {
  return call1(*nodes::find_node(name), std::move(inputs), at);
}

std::vector<const Stmt*> Lowerer::referenced_bindings(const Stmt& s) const {
  std::vector<const Stmt*> out;
  syntax::walk(*s.expr, [&](const Expr& e) {
    if (e.kind != ExprKind::Ident) return;
    if (auto b = bindings_.find(e.text); b != bindings_.end()) out.push_back(b->second.stmt);
  });
  return out;
}

void Lowerer::lower_every_binding() {
  std::vector<CompileError> errors;
  std::unordered_set<const Stmt*> failed;
  for (const Stmt* s : dependency_order()) {
    if (!failed.empty()) {
      const std::vector<const Stmt*> reads = referenced_bindings(*s);
      if (std::any_of(reads.begin(), reads.end(), [&](const Stmt* r) { return failed.count(r); })) {
        failed.insert(s);
        continue;
      }
    }
    try {
      lower_binding(*s);
    } catch (const CompileError& e) {
      errors.push_back(e);
      failed.insert(s);
      if (errors.size() == syntax::kMostReportedErrors) break;
    }
  }
  if (!errors.empty()) throw syntax::combined_errors(std::move(errors));
}

std::vector<const Stmt*> Lowerer::dependency_order() {
  std::unordered_map<const Stmt*, Visit> visit;
  std::vector<const Stmt*> order;
  struct Frame {
    const Stmt* stmt;
    std::vector<const Stmt*> deps;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  for (const Stmt& root : ast_.statements) {
    if (root.kind != StmtKind::Binding || visit[&root] != Visit::NotStarted) continue;
    visit[&root] = Visit::InProgress;
    stack.push_back(Frame{&root, referenced_bindings(root)});
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next == top.deps.size()) {
        visit[top.stmt] = Visit::Done;
        order.push_back(top.stmt);
        stack.pop_back();
        continue;
      }
      const Stmt* dep = top.deps[top.next++];
      Visit& state = visit[dep];
      if (state == Visit::Done) continue;
      if (state == Visit::InProgress) {
        std::string cycle;
        for (const Frame& f : stack) cycle += f.stmt->names[0] + " -> ";
        src_.fail(dep->name_pos[0], "dependency cycle: " + cycle + dep->names[0],
                  dep->names[0].size(), "a binding cannot depend on itself");
      }
      state = Visit::InProgress;
      stack.push_back(Frame{dep, referenced_bindings(*dep)});
    }
  }
  return order;
}

void Lowerer::lower_binding(const Stmt& s) {
  if (s.deferred_error) throw *s.deferred_error;
  const std::string& first = s.names[0];
  binding_name_ = s.names.size() == 1 ? first : "__destruct_" + first;
  anon_counter_ = 0;
  const uint32_t first_new = (uint32_t)g_.nodes.size();

  std::vector<Typed> results;
  if (s.expr->kind == ExprKind::Array) {
    results.push_back(constant(Value::str(array_text(*s.expr)), s.expr->pos));
  } else if (s.names.size() > 1) {
    if (s.expr->kind != ExprKind::Call) {
      src_.fail(s.pos, "destructuring needs a call with several outputs on the right", 1);
    }
    results = lower_call(*s.expr);
    if (s.names.size() > results.size()) {
      src_.fail(s.name_pos[results.size()],
                "'" + s.expr->text + "' has " + std::to_string(results.size()) + " output(s) but " +
                    std::to_string(s.names.size()) + " names are bound",
                s.names[results.size()].size());
    }
    results.resize(s.names.size());
  } else if (auto literal = shared_literal(s)) {
    results.push_back(constant(*literal, s.expr->pos));
  } else {
    results.push_back(lower_expr(*s.expr));
  }
  if (s.is_shared && s.type && results[0].type != *s.type) {
    src_.fail(s.expr->pos,
              "shared binding '" + first + "' is declared " + std::string(type_name(*s.type)) +
                  " but its starting value is " + std::string(type_name(results[0].type)),
              s.expr->length);
  }

  for (const Stmt::Declared& d : s.declared) {
    results[d.target] = declared_value(s, d, results[d.target]);
  }
  for (size_t i = 0; i < s.names.size(); ++i) {
    Typed t = results[i];
    const Node& root = g_.nodes[t.wire.node];
    const bool own_node = t.wire.node >= first_new && root.binding == binding_name_ &&
                          root.name.find("__anon_") != std::string::npos;
    if (!own_node) {
      t = call1(nodes::passthrough_node(), {t}, *s.expr);
      t.logical = results[i].logical;
    }
    Node& n = g_.nodes[t.wire.node];
    if (s.names.size() == 1) n.name = first;
    n.is_const_binding = s.is_const || (s.is_shared && !s.is_volatile);
    n.is_volatile_binding = s.is_volatile;
    n.is_shared_binding = s.is_shared;
    bound_[s.names[i]] = t;
  }
}

Typed Lowerer::declared_value(const Stmt& s, const Stmt::Declared& d, const Typed& v) {
  const Type want = d.type, got = v.type;
  if (got == want || (want == Type::U64 && got == Type::Bool)) return v;
  if (widens_implicitly(got, want)) return convert(v, want, *s.expr, false);
  std::string hint = narrowing_hint(got, want);
  if (want == Type::U64 && got == Type::F64)
    hint = "convert with f64_to_u64, round_to_u64, floor_to_u64 or ceil_to_u64";
  if (want == Type::Str) hint = "convert with '... as str' or format it with printf";
  if (want == Type::Bytes || want == Type::Json) {
    hint = "convert with '... as " + std::string(type_name(want)) + "'";
  }
  src_.fail(s.expr->pos,
            d.role + " is declared " + std::string(type_name(want)) + " but gets " +
                std::string(type_name(got)),
            s.expr->length, hint);
}

std::string Lowerer::narrowing_hint(Type got, Type want) {
  if (is_integer(want) && is_integer(got)) {
    return "convert with '... as " + std::string(type_name(want)) +
           "' (checked: a value outside its range fails the row)";
  }
  return "";
}

std::string Lowerer::array_text(const Expr& e) {
  std::string out;
  for (size_t i = 0; i < e.args.size(); ++i) {
    const Expr& a = *e.args[i];
    if (i) out += ", ";
    if (a.kind == ExprKind::Int) {
      out += std::to_string(a.u);
    } else if (a.kind == ExprKind::Float) {
      std::string s = rt::f64_display(a.f);
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
      out += s;
    } else if (a.kind == ExprKind::Str) {
      out += a.text;
    } else {
      src_.fail(a.pos, "array elements must be literals", a.length);
    }
  }
  return out;
}

}  // namespace polyrt::ir::lowering

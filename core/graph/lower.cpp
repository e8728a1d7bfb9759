#include "graph/lower.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "dsl/lexer.hpp"
#include "graph/evaluate_node.hpp"
#include "graph/hash_provenance.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/splitmix.h"
#include "rtlib/text.hpp"

namespace polyrt::ir {

namespace {

using dsl::Expr;
using dsl::ExprKind;
using dsl::Stmt;
using dsl::StmtKind;
using nodes::ArgKind;
using nodes::NodeDef;
using nodes::PortType;

struct Typed {
  Wire wire;
  Type type;
  // What the word means to a writer (`as timestamp`, ...): kept by a binding
  // of the value, dropped by arithmetic on it.
  LogicalType logical = {};
  // A nullable value: a u64 word, 1 where the row has a value and 0 where it
  // is null (null_if, an `if` with a None branch). A node's result is null
  // where any input is (SQL's propagation); absent: never null.
  std::optional<Wire> present = {};
};

struct BindingInfo {
  const Stmt* stmt = nullptr;
  size_t target = 0;  // index into stmt->names
};

enum class Visit : uint8_t { NotStarted, InProgress, Done };

class Lowerer {
 public:
  Lowerer(const dsl::Sources& src, const dsl::Ast& ast, const CompileOptions& options)
      : src_(src), ast_(ast), strict_inputs_(options.strict_inputs), params_(options.params) {
    if (options.seed) seed_key_ = rt::splitmix64(*options.seed);
  }

  Graph run() {
    g_.nodes.reserve(ast_.tokens + 16);
    declare_all();
    lower_every_binding();
    std::vector<std::pair<size_t, Wire>> nullable;  // output, its presence
    for (const Stmt& s : ast_.statements) {
      if (s.kind != StmtKind::Binding || s.hidden) continue;
      if (s.is_private) {
        g_.private_bindings.insert(g_.private_bindings.end(), s.names.begin(), s.names.end());
        continue;
      }
      for (const std::string& name : s.names) {
        const Typed& t = bound_.at(name);
        g_.outputs.push_back(Output{name, t.wire, t.type, t.logical});
        if (t.present) nullable.emplace_back(g_.outputs.size() - 1, *t.present);
      }
    }
    // Each nullable output's presence word: an output of its own after the
    // program's, which the engines compute like any other.
    for (const auto& [output, present] : nullable) {
      g_.outputs[output].presence = (uint32_t)g_.outputs.size();
      g_.outputs.push_back(
          Output{g_.outputs[output].name + std::string(kPresenceSuffix), present, Type::U64});
      g_.outputs.back().hidden = true;
    }
    for (uint32_t o = 0; o < src_.origin_count(); ++o) {
      const SourcePos start{0, 0, o};
      g_.origins.push_back(SourceOrigin{src_.text_of(start).file(), src_.call_chain(start)});
    }
    return std::move(g_);
  }

 private:
  // ---- declarations -------------------------------------------------------

  void claim_name(const std::string& name, SourcePos pos, bool hidden = false) {
    if (hidden) {
      declared_at_.emplace(name, pos);
      return;
    }
    if (name.rfind("__", 0) == 0) {
      src_.fail(pos, "names starting with '__' are reserved for the compiler", name.size());
    }
    auto [it, inserted] = declared_at_.emplace(name, pos);
    if (!inserted) {
      src_.fail(pos, "'" + name + "' is already defined", name.size(),
                "first defined at " + src_.location(it->second));
    }
    known_names_.push_back(name);
  }

  void declare_all() {
    for (const dsl::Warning& w : ast_.warnings) {
      g_.warnings.push_back(src_.warning(w.pos, w.message, w.length));
    }
    for (const Stmt& s : ast_.statements) {
      switch (s.kind) {
        case StmtKind::Input:
          for (size_t i = 0; i < s.names.size(); ++i) {
            claim_name(s.names[i], s.name_pos[i]);
            declare_coordinate(s.names[i], s.name_pos[i]);
          }
          break;
        case StmtKind::Extern: {
          claim_name(s.names[0], s.name_pos[0], s.hidden);
          Extern e;
          e.name = s.names[0];
          e.type = *s.type;
          // The host writes an extern, so a partition (whose invariants a
          // host value would not keep) is made in the program; a traversal's
          // partition element (a hidden extern) is written by polyrt.
          if (is_partition(e.type) && !s.hidden) {
            src_.fail(s.name_pos[0],
                      "extern '" + e.name + "' cannot be a " + std::string(type_name(e.type)),
                      e.name.size(),
                      "partition values are made in the program, e.g. partitions(\"20%,30%,*\", "
                      "1000000); an extern can carry the spec as a str");
          }
          if (s.expr) e.default_value = literal_default(*s.expr, e.type);
          if (const auto param = params_.find(e.name); param != params_.end() && !s.hidden) {
            e.default_value = declared_param(e, param->second);
          }
          declare_extern(std::move(e), s.name_pos[0]);
          break;
        }
        case StmtKind::Binding:
          for (size_t i = 0; i < s.names.size(); ++i) {
            claim_name(s.names[i], s.name_pos[i], s.hidden);
            bindings_[s.names[i]] = BindingInfo{&s, i};
          }
          break;
        case StmtKind::Pragma:
          if (!is_known_pragma(s.names[0])) {
            g_.warnings.push_back(src_.warning(
                s.name_pos[0], "unknown pragma '" + s.names[0] + "' ignored", s.names[0].size()));
          }
          break;
        case StmtKind::Cursor:
        case StmtKind::Traversal:
          // Taken before: program/top_level_cursors.hpp, program/body_cursors.hpp
          // and program/compile_traversals.hpp.
          internal_error("a cursor or a traversal reached the lowering");
      }
    }
    infer_inputs();
  }

  // polydat's pragmas. polyrt already holds what they ask for: constant
  // arguments are checked at compile time and a zero divisor of mod_wire or
  // div_wire fails its row (strict_values); wires are statically typed
  // (strict_types); strict adds name checks in comprehensions, which polyrt
  // does not have yet.
  static bool is_known_pragma(const std::string& name) {
    return name == "strict_values" || name == "strict_types" || name == "strict";
  }

  void declare_extern(Extern e, SourcePos pos) {
    Node n;
    n.kind = NodeKind::Extern;
    n.out_types = {e.type};
    n.name = n.binding = e.name;
    n.label = "extern";
    n.pos = pos;
    n.slot = (uint32_t)g_.externs.size();
    e.node = add_node(std::move(n));
    bound_[e.name] = Typed{Wire{e.node, 0}, e.type};
    g_.externs.push_back(std::move(e));
  }

  // A param's text as the value of the extern that declares it. A bad one
  // is the caller's error, not the program's: a CompileError without a line.
  Value declared_param(const Extern& e, const std::string& text) {
    if (e.type == Type::U64) {
      if (const std::optional<uint64_t> n = dsl::integer_literal(text)) return Value::u64(*n);
    }
    try {
      return parse_value(text, e.type, "extern " + e.name);
    } catch (const WriteError& error) {
      throw CompileError(src_.file() + ": " + error.what(), src_.file(), 0, 0);
    }
  }

  // A param of a name the program does not declare, typed as nmbrs types a
  // workload's params: an integer literal is a u64, another number an f64,
  // true or false a bool, anything else a str.
  static Value undeclared_param(const std::string& text) {
    if (const std::optional<uint64_t> n = dsl::integer_literal(text)) return Value::u64(*n);
    const char* begin = text.c_str();
    char* end = nullptr;
    const double f = std::strtod(begin, &end);
    if (!text.empty() && !std::isspace((unsigned char)text[0]) && end == begin + text.size()) {
      return Value::f64(f);
    }
    if (text == "true" || text == "false") return Value::boolean(text == "true");
    return Value::str(text);
  }

  void declare_coordinate(const std::string& name, SourcePos pos) {
    Node n;
    n.kind = NodeKind::Coordinate;
    n.out_types = {Type::U64};
    n.name = n.binding = name;
    n.label = "input";
    n.pos = pos;
    n.slot = (uint32_t)g_.coordinates.size();
    g_.coordinates.push_back(add_node(std::move(n)));
    bound_[name] = Typed{Wire{g_.coordinates.back(), 0}, Type::U64};
  }

  // polydat's inferred inputs: a name the program reads but neither declares
  // nor binds is a coordinate the host supplies, after the declared ones, in
  // the order of first use. A likely misspelling of a declared or bound name
  // (dsl::typo_of) stays unknown: lookup reports it with "did you mean".
  void infer_inputs() {
    const std::vector<std::string> known = known_names_;
    for (const Stmt& s : ast_.statements) {
      if (s.kind != StmtKind::Binding) continue;
      std::vector<const Expr*> pending{s.expr.get()};
      while (!pending.empty()) {
        const Expr* e = pending.back();
        pending.pop_back();
        for (size_t i = e->args.size(); i-- > 0;) pending.push_back(e->args[i].get());
        if (e->kind != ExprKind::Ident || declared_at_.count(e->text)) continue;
        if (e->text == "true" || e->text == "false" || e->text == "None" ||
            nodes::find_node(e->text)) {
          continue;
        }
        if (const auto param = params_.find(e->text); param != params_.end()) {
          claim_name(e->text, e->pos);
          Extern given;
          given.name = e->text;
          given.default_value = undeclared_param(param->second);
          given.type = given.default_value.type();
          declare_extern(std::move(given), e->pos);
          continue;
        }
        if (!dsl::typo_of(e->text, known).empty()) continue;
        // A field (`q.cursor.idx`, flattened to q__cursor__idx) is never a
        // coordinate: unbound, it is an error naming it (lookup).
        if (const size_t field = e->text.find("__"); field != std::string::npos && field > 0) {
          continue;
        }
        if (strict_inputs_) {
          src_.fail(e->pos,
                    "'" + e->text +
                        "' is neither declared nor bound, and strict inputs (--strict, "
                        "CompileOptions::strict_inputs) refuse inferred inputs",
                    e->text.size(), "declare a coordinate: input " + e->text + ": u64");
        }
        claim_name(e->text, e->pos);
        declare_coordinate(e->text, e->pos);
      }
    }
  }

  // An extern's default that is no literal of its type: an expression of
  // literals (constant_default), else a CompileError.
  Value non_literal_default(const Expr& e, Type type) {
    if (e.kind != ExprKind::Int && e.kind != ExprKind::Float && e.kind != ExprKind::Str &&
        e.kind != ExprKind::Ident && e.kind != ExprKind::Array) {
      return constant_default(e, type);
    }
    src_.fail(e.pos,
              "the default of an extern must be a " + std::string(type_name(type)) +
                  " literal or an expression of literals",
              e.length, type == Type::Bool ? "write true or false" : "");
  }

  Value literal_default(const Expr& e, Type type) {
    const auto bad = [&] { return non_literal_default(e, type); };
    switch (type) {
      case Type::U64:
        if (e.kind == ExprKind::Int) return Value::u64(e.u);
        return bad();
      case Type::F64:
        if (e.kind == ExprKind::Float) return Value::f64(e.f);
        if (e.kind == ExprKind::Int) return Value::f64(exact_f64(e));
        if (e.kind == ExprKind::Unary && e.text == "-" && is_number(*e.args[0])) {
          return Value::f64(-number_of(*e.args[0]));
        }
        return bad();
      case Type::Str:
        if (e.kind == ExprKind::Str) return Value::str(e.text);
        return bad();
      case Type::Bool:
        if (e.kind == ExprKind::Ident && (e.text == "true" || e.text == "false")) {
          return Value::boolean(e.text == "true");
        }
        return bad();
      case Type::Bytes:   // hex text, as the host writes it
      case Type::Json:    // the JSON text
      case Type::VecF32:  // a JSON array of numbers
      case Type::VecF64:
      case Type::VecI32:
      case Type::VecI64:
      case Type::VecU64:
        if (e.kind != ExprKind::Str) return bad();
        try {
          return parse_value(e.text, type);
        } catch (const WriteError& error) {
          src_.fail(e.pos, error.what(), e.length);
        }
      default:
        if (auto v = numeric_literal(e, type)) return *v;
        return bad();
    }
  }

  // An extern's default written as an expression of literals and pure nodes
  // (`2 * 1024`, `"user-" + "x"`, `hash(42)`): lowered and evaluated here,
  // once. It reads no coordinate, extern or binding (a default is the
  // host's value before it writes one).
  Value constant_default(const Expr& e, Type type) {
    std::vector<const Expr*> pending{&e};
    while (!pending.empty()) {
      const Expr* x = pending.back();
      pending.pop_back();
      if (x->kind == ExprKind::Ident && x->text != "true" && x->text != "false") {
        src_.fail(x->pos,
                  "the default of an extern cannot read '" + x->text +
                      "': it is an expression of literals and nodes, evaluated once",
                  x->length, "compute it in a binding instead: v := default_or(e, EXPR)");
      }
      for (const auto& a : x->args) pending.push_back(a.get());
    }
    const uint32_t first = (uint32_t)g_.nodes.size();
    const Typed lowered = convert(lower_expr(e), type, e, false);
    // Per node made here, its outputs; a wire to an earlier node is a constant's.
    std::vector<std::vector<Value>> values(g_.nodes.size() - first);
    const auto value_of = [&](const Wire& w) -> const Value& {
      if (w.node >= first) return values[w.node - first][w.port];
      const Node& earlier = g_.nodes[w.node];
      if (earlier.kind != NodeKind::Constant) internal_error("an extern's default read a wire");
      return earlier.constants[w.port];
    };
    std::vector<const Value*> inputs;
    for (uint32_t i = first; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      std::vector<Value>& outs = values[i - first];
      if (n.kind == NodeKind::Constant) {
        outs = n.constants;
        continue;
      }
      if (n.def->purity != nodes::Purity::Pure) {
        src_.fail(e.pos,
                  "the default of an extern cannot call '" + n.label +
                      "', which is not pure (it would be read once, when the program compiles)",
                  e.length);
      }
      inputs.clear();
      for (const Wire& w : n.inputs) inputs.push_back(&value_of(w));
      outs.resize(n.out_types.size());
      if (const auto failure = run_node(n, inputs.data(), outs.data(), discarded_side_channel())) {
        src_.fail(e.pos, "the default of an extern fails: " + *failure, e.length);
      }
    }
    const Value v = value_of(lowered.wire);
    if (v.is_none()) src_.fail(e.pos, "the default of an extern is None", e.length);
    return v;
  }

  // The starting value of a `shared` cell annotated with a number type other
  // than u64, when it is a number literal: a constant of that type.
  std::optional<Value> shared_literal(const Stmt& s) {
    if (!s.is_shared || !s.type || !is_scalar(*s.type) || *s.type == Type::Bool ||
        *s.type == Type::U64) {
      return std::nullopt;
    }
    return numeric_literal(*s.expr, *s.type);
  }

  static bool is_negative_literal(const Expr& e) {
    return e.kind == ExprKind::Unary && e.text == "-" && is_number(*e.args[0]);
  }

  // A number literal (or a negated one) as a value of the narrow, signed or
  // f32 type `type`; nullopt when `e` is no number literal. An integer
  // outside the type's range is a compile error; a float literal for an
  // integer type too.
  std::optional<Value> numeric_literal(const Expr& e, Type type) {
    const bool negative = is_negative_literal(e);
    const Expr& digits = negative ? *e.args[0] : e;
    if (!is_number(digits)) return std::nullopt;
    if (type == Type::F32) {
      const double d = digits.kind == ExprKind::Int ? (double)(float)digits.u : digits.f;
      return Value::f32((float)(negative ? -d : d));
    }
    if (type == Type::F64) {
      const double d = digits.kind == ExprKind::Int ? exact_f64(digits) : digits.f;
      return Value::f64(negative ? -d : d);
    }
    const std::string range = std::string(type_name(type)) + " (" +
                              std::to_string(integer_min(type)) + ".." +
                              std::to_string(integer_max(type)) + ")";
    if (digits.kind == ExprKind::Float) {
      src_.fail(e.pos, "a float literal is not a " + range, e.length,
                "write an integer literal, or convert with f64_to_i64 or round_to_i64");
    }
    const bool too_negative = negative && digits.u > (uint64_t)1 << 63;
    const uint64_t word = negative ? 0 - digits.u : digits.u;
    if (too_negative || !integer_fits(word, negative ? Type::I64 : Type::U64, type)) {
      src_.fail(e.pos,
                "literal " + std::string(negative ? "-" : "") + std::to_string(digits.u) +
                    " does not fit " + range,
                e.length);
    }
    return Value::of_word(type, word);
  }

  static bool is_number(const Expr& e) {
    return e.kind == ExprKind::Int || e.kind == ExprKind::Float;
  }
  static double number_of(const Expr& e) { return e.kind == ExprKind::Int ? (double)e.u : e.f; }

  double exact_f64(const Expr& e) {
    const double d = (double)e.u;
    if (d >= 18446744073709551616.0 || (uint64_t)d != e.u) {
      src_.fail(e.pos, "integer " + std::to_string(e.u) + " has no exact f64 value", e.length,
                "write it as a float literal to accept rounding");
    }
    return d;
  }

  // ---- nodes --------------------------------------------------------------

  uint32_t add_node(Node n) {
    g_.nodes.push_back(std::move(n));
    return (uint32_t)(g_.nodes.size() - 1);
  }

  std::string anon_name() { return binding_name_ + "__anon_" + std::to_string(anon_counter_++); }

  Typed constant(Value v, SourcePos pos) {
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

  // Adds a call node whose arguments are already lowered and type-checked; a
  // table pick becomes its native index node and the pick of that entry
  // (nodes::TablePick), both labelled with the called node's name.
  std::vector<Typed> call_node(const NodeDef& def, std::vector<Typed> inputs,
                               std::vector<Value> params, SourcePos pos, size_t length,
                               const std::vector<SourcePos>& param_pos = {}) {
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

  // A node that picks by its input's value, fed a coordinate that no hash
  // mixed: rows step through its table in turn (weighted_strings(cycle,
  // "a:70;b:30") gives a and b half the rows each, not 70 % and 30 %).
  void warn_if_unhashed(const NodeDef& def, Wire input, SourcePos pos, size_t length) {
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

  // 1 where both are present (either may be always present).
  std::optional<Wire> both_present(std::optional<Wire> a, std::optional<Wire> b, SourcePos pos,
                                   size_t length) {
    if (!a || (b && *a == *b)) return b;
    if (!b) return a;
    return call_node(*nodes::find_node("u64_and"), {Typed{*a, Type::U64}, Typed{*b, Type::U64}}, {},
                     pos, length)[0]
        .wire;
  }

  // call_node without the presence of its results.
  std::vector<Typed> call_node_values(const NodeDef& def, std::vector<Typed> inputs,
                                      std::vector<Value> params, SourcePos pos, size_t length,
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
    Node entry =
        checked_call(nodes::pick_str_node(), {entry_index}, std::move(entries), pos, length);
    entry.label = std::string(def.name);
    return add_call(std::move(entry));
  }

  // A call node of `def`, its constant arguments checked and prepared (a bad
  // one is a CompileError at its position) and its output types decided.
  Node checked_call(const NodeDef& def, const std::vector<Typed>& inputs, std::vector<Value> params,
                    SourcePos pos, size_t length, const std::vector<SourcePos>& param_pos = {}) {
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

  std::vector<Typed> add_call(Node n) {
    const std::vector<Type> outs = n.out_types;
    const uint32_t id = add_node(std::move(n));
    std::vector<Typed> result;
    for (uint32_t p = 0; p < outs.size(); ++p) result.push_back(Typed{Wire{id, p}, outs[p]});
    return result;
  }

  Typed call1(const NodeDef& def, std::vector<Typed> inputs, const Expr& at) {
    return call_node(def, std::move(inputs), {}, at.pos, at.length)[0];
  }
  Typed call1(std::string_view name, std::vector<Typed> inputs, const Expr& at) {
    return call1(*nodes::find_node(name), std::move(inputs), at);
  }

  // ---- bindings -----------------------------------------------------------

  // The bindings a statement's expression names, in the order lowering meets them.
  std::vector<const Stmt*> referenced_bindings(const Stmt& s) const {
    std::vector<const Stmt*> out;
    std::vector<const Expr*> pending{s.expr.get()};
    while (!pending.empty()) {
      const Expr* e = pending.back();
      pending.pop_back();
      if (e->kind == ExprKind::Ident) {
        if (auto b = bindings_.find(e->text); b != bindings_.end()) out.push_back(b->second.stmt);
      }
      for (size_t i = e->args.size(); i-- > 0;) pending.push_back(e->args[i].get());
    }
    return out;
  }

  // Every binding's own error, not only the first: a binding that fails is
  // reported and those that read it are skipped (their errors would only
  // repeat it); the program then fails with all of them, in order.
  void lower_every_binding() {
    std::vector<CompileError> errors;
    std::unordered_set<const Stmt*> failed;
    for (const Stmt* s : dependency_order()) {
      if (!failed.empty()) {
        const std::vector<const Stmt*> reads = referenced_bindings(*s);
        if (std::any_of(reads.begin(), reads.end(),
                        [&](const Stmt* r) { return failed.count(r); })) {
          failed.insert(s);
          continue;
        }
      }
      try {
        lower_binding(*s);
      } catch (const CompileError& e) {
        errors.push_back(e);
        failed.insert(s);
        if (errors.size() == dsl::kMostReportedErrors) break;
      }
    }
    if (!errors.empty()) throw dsl::combined_errors(std::move(errors));
  }

  // Bindings in an order where each comes after the bindings it reads (source
  // order otherwise). An explicit stack, not recursion: a forward chain may be
  // as long as the program.
  std::vector<const Stmt*> dependency_order() {
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

  // Lowers one binding; every binding it reads is already lowered.
  void lower_binding(const Stmt& s) {
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
                  "'" + s.expr->text + "' has " + std::to_string(results.size()) +
                      " output(s) but " + std::to_string(s.names.size()) + " names are bound",
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

  // A module's parameter or output as the type its signature declares: the
  // value itself, or its implicit widening (a bool passes for a u64, as
  // everywhere).
  Typed declared_value(const Stmt& s, const Stmt::Declared& d, const Typed& v) {
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

  // How to reach integer type `want` from `got` explicitly, when it is one.
  static std::string narrowing_hint(Type got, Type want) {
    if (is_integer(want) && is_integer(got)) {
      return "convert with '... as " + std::string(type_name(want)) +
             "' (checked: a value outside its range fails the row)";
    }
    return "";
  }

  std::string array_text(const Expr& e) {
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

  // ---- expressions --------------------------------------------------------

  Typed lookup(const Expr& e) {
    auto it = bound_.find(e.text);
    if (it != bound_.end()) return it->second;
    if (nodes::find_node(e.text)) {
      src_.fail(e.pos, "'" + e.text + "' is a function, not a value", e.length,
                "call it: " + e.text + "(...)");
    }
    // polydat's bool literals (a program's own binding of the name wins).
    if (e.text == "true" || e.text == "false")
      return constant(Value::boolean(e.text == "true"), e.pos);
    // Never an inferred input (`if c { None } else { x }` once asked for
    // `--set None=...`): the null value, which takes its type from the
    // other branch of an `if`.
    if (e.text == "None") {
      src_.fail(e.pos, "'None' (null) is a branch of an if, whose other branch gives its type",
                e.length,
                "if c { None } else { value }, or null_if(c, value) and "
                "null_with_probability(input, p, value)");
    }
    if (const size_t field = e.text.find("__"); field != std::string::npos && field > 0) {
      std::string dotted;
      for (size_t k = 0; k < e.text.size(); ++k) {
        if (e.text.compare(k, 2, "__") == 0) {
          dotted.push_back('.');
          ++k;
        } else {
          dotted.push_back(e.text[k]);
        }
      }
      src_.fail(e.pos,
                "'" + dotted + "' reads a field of '" + e.text.substr(0, field) +
                    "' that nothing here binds",
                e.length,
                "fields are a cursor's projections (c.idx, c.ordinal) and a module call's "
                "outputs (m.out) where they are bound");
    }
    // Only a near miss of a known name is left unknown (infer_inputs).
    const std::string near = dsl::typo_of(e.text, known_names_);
    src_.fail(e.pos, "unknown name '" + e.text + "'", e.length,
              "did you mean '" + near + "'? (declare it with 'input " + e.text +
                  "' if it is a coordinate of its own)");
  }

  Typed lower_expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Int:
        return constant(Value::u64(e.u), e.pos);
      case ExprKind::Float:
        return constant(Value::f64(e.f), e.pos);
      case ExprKind::Str:
        return constant(Value::str(e.text), e.pos);
      case ExprKind::Ident:
        return lookup(e);
      case ExprKind::Call: {
        std::vector<Typed> outs = lower_call(e);
        if (outs.size() != 1) {
          src_.fail(e.pos,
                    "'" + e.text + "' has " + std::to_string(outs.size()) +
                        " outputs; bind them with (a, b, ...) := " + e.text + "(...)",
                    e.length);
        }
        return outs[0];
      }
      case ExprKind::Binary:
        return lower_binary(e);
      case ExprKind::Unary:
        return lower_unary(e);
      case ExprKind::Cast:
        return lower_cast(e);
      case ExprKind::If:
        return lower_if(e);
      case ExprKind::Array:
        src_.fail(e.pos, "an array literal is only allowed as the whole value of a binding",
                  e.length, "pass lists as trailing literal arguments, e.g. is_one_of(x, 1, 2, 3)");
    }
    src_.fail(e.pos, "unsupported expression", e.length);
  }

  // A numeric operand as f64; an integer literal becomes an f64 constant.
  Typed to_f64(const Typed& t, const Expr& e) {
    if (t.type == Type::F64) return t;
    if (t.type == Type::Str) {
      src_.fail(e.pos, "expected a number, got str", e.length);
    }
    if (e.kind == ExprKind::Int) return constant(Value::f64(exact_f64(e)), e.pos);
    return convert(t, Type::F64, e, false);
  }

  Typed to_str(const Typed& t, const Expr& e) {
    return t.type == Type::Str ? t : call1(nodes::to_str_node(), {t}, e);
  }

  // `v` as type `to`: what `as` converts (`is_cast`), or what the checker
  // converts silently (only the widenings that never fail: widens_implicitly).
  Typed convert(const Typed& v, Type to, const Expr& e, bool is_cast) {
    const Type from = v.type;
    if (from == to) return v;
    auto refuse = [&](const std::string& hint) -> Typed {
      src_.fail(e.pos,
                "no " + std::string(is_cast ? "" : "implicit ") + "conversion from " +
                    std::string(type_name(from)) + " to " + std::string(type_name(to)),
                e.length, hint);
    };
    if (!is_cast && !widens_implicitly(from, to)) refuse(narrowing_hint(from, to));
    if (to == Type::Str) return to_str(v, e);
    if (to == Type::Bytes) {
      if (from == Type::Json) return refuse("take its text first: 'j as str as bytes'");
      return call1(nodes::to_bytes_node(), {v}, e);
    }
    if (to == Type::Json) {
      if (from == Type::Str) return call1(nodes::parse_json_node(), {v}, e);
      return call1("to_json", {v}, e);
    }
    if (from == Type::Bytes || from == Type::Json) {
      return refuse("bytes and json convert to str, and str to numbers");
    }
    if (is_vector(from) || is_vector(to)) {
      return refuse(is_vector(from)
                        ? "a vector converts to str, bytes and json only; its elements and "
                          "measures come from the vector nodes (vec_len_i64, vec_dot, ...)"
                        : "vectors come from the vector nodes: hash_vec, str_to_vec_f32, ...");
    }
    if (from == Type::Str) {
      if (to == Type::U64) return call1(nodes::str_to_u64_node(), {v}, e);
      return refuse("text converts to u64 only ('s as u64'); convert that value further");
    }
    if (to == Type::Bool) return refuse("compare instead, e.g. x != 0");
    if (is_float(from) && is_integer(to)) {
      return refuse(is_signed_integer(to)
                        ? "the rounding must be explicit: use f64_to_i64 (truncate) or "
                          "round_to_i64, then 'as " +
                              std::string(type_name(to)) + "'"
                        : "the rounding must be explicit: use f64_to_u64 (truncate), "
                          "round_to_u64, floor_to_u64 or ceil_to_u64");
    }
    const bool from_signed = is_signed_integer(from);
    if (to == Type::F64) {
      if (from == Type::F32) return retag(v, to, e);
      return call1(from_signed ? "i64_to_f64" : "to_f64", {v}, e);
    }
    if (to == Type::F32) {
      if (from == Type::F64) return call1("f64_to_f32", {v}, e);
      return call1(from_signed ? "i64_to_f32" : "u64_to_f32", {v}, e);
    }
    // Between integers (bool is 0 or 1): a widening keeps the word.
    if (from == Type::Bool && to == Type::U64) {
      return call1("u64_ne", {v, constant(Value::u64(0), e.pos)}, e);
    }
    if (widens_implicitly(from, to)) return retag(v, to, e);
    Typed checked = call_node(nodes::int_convert_node(), {v},
                              {Value::u64(from_signed), Value::u64((uint64_t)integer_bits(to)),
                               Value::u64(is_signed_integer(to))},
                              e.pos, e.length)[0];
    g_.nodes[checked.wire.node].label = "as " + std::string(type_name(to));  // what failures name
    return checked;
  }

  Typed retag(const Typed& v, Type to, const Expr& e) {
    return call_node(nodes::retag_node(), {v}, {Value::u64((uint64_t)to)}, e.pos, e.length)[0];
  }

  // An unsigned integer (or bool) operand of u64 operators.
  Typed require_u64(const Typed& t, const Expr& e, const std::string& what) {
    if (is_unsigned_integer(t.type) || t.type == Type::Bool) return t;
    src_.fail(
        e.pos, what + " needs unsigned integer operands, got " + std::string(type_name(t.type)),
        e.length,
        is_float(t.type) ? "convert with f64_to_u64, round_to_u64, floor_to_u64 or ceil_to_u64"
        : is_signed_integer(t.type)
            ? "convert with '... as u64' (checked: a negative value fails the row)"
            : "");
  }

  Typed truth(const Typed& t, const Expr& e) {
    if (is_float(t.type)) return call1("f64_ne", {t, constant(Value::f64(0.0), e.pos)}, e);
    if (is_signed_integer(t.type)) {
      return call1("i64_ne", {t, constant(Value::i64(0), e.pos)}, e);
    }
    require_u64(t, e, "'&&' and '||'");
    return call1("u64_ne", {t, constant(Value::u64(0), e.pos)}, e);
  }

  // The type two numeric operands meet in: f64 when either is a float, u64
  // when both are unsigned (or bool), i64 when one is signed and both widen
  // to i64; nullopt for a signed integer and a u64 (no type holds both).
  static std::optional<Type> common_numeric(Type a, Type b) {
    if (is_float(a) || is_float(b)) return Type::F64;
    if (!is_signed_integer(a) && !is_signed_integer(b)) return Type::U64;
    if (widens_implicitly(a, Type::I64) && widens_implicitly(b, Type::I64)) return Type::I64;
    return std::nullopt;
  }

  // An integer literal operand beside a signed one is an i64 constant.
  Typed signed_operand(const Typed& t, const Expr& e, Type other) {
    if (!is_signed_integer(other)) return t;
    if (e.kind == ExprKind::Int || is_negative_literal(e)) {
      if (auto v = numeric_literal(e, Type::I64)) return constant(*v, e.pos);
    }
    return t;
  }

  // The common type of the operands of `op` (see common_numeric), or a
  // compile error naming both.
  Type meet(const Expr& op, Type a, Type b) {
    if (auto t = common_numeric(a, b)) return *t;
    src_.fail(op.pos,
              "operator '" + op.text + "' mixes " + std::string(type_name(a)) + " and " +
                  std::string(type_name(b)) + ": no type holds every value of both",
              op.length, "convert one side with 'as' (checked), e.g. x as i64 or y as u64");
  }

  static bool is_left_associative(const Expr& e) {
    return e.kind == ExprKind::Binary && e.text != "**";
  }

  // A left-associative chain (a + b - c ...) is a deep left spine: walk it in
  // a loop so that its length never costs stack (only rhs operands recurse).
  Typed lower_binary(const Expr& e) {
    std::vector<const Expr*> spine{&e};
    while (is_left_associative(*spine.back()) && is_left_associative(*spine.back()->args[0]))
      spine.push_back(spine.back()->args[0].get());
    Typed acc = lower_expr(*spine.back()->args[0]);
    // A run of string `+` becomes one str_concat, made after its last operand
    // so that nodes stay in topological order.
    std::vector<Typed> parts;
    const Expr* concat_at = nullptr;
    auto flush = [&] {
      if (parts.empty()) return;
      acc = call1("str_concat", std::move(parts), *concat_at);
      parts.clear();
    };
    for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
      const Expr& op = **it;
      Typed rhs = lower_expr(*op.args[1]);
      const bool acc_is_str = !parts.empty() || acc.type == Type::Str;
      if (op.text == "+" && (acc_is_str || rhs.type == Type::Str)) {
        if (parts.empty()) parts.push_back(acc);
        parts.push_back(rhs);
        concat_at = &op;
        continue;
      }
      flush();
      acc = combine(op, acc, rhs);
    }
    flush();
    return acc;
  }

  // One binary operator over lowered operands.
  Typed combine(const Expr& e, Typed a, Typed b) {
    const std::string& op = e.text;
    const Expr& le = *e.args[0];
    const Expr& re = *e.args[1];
    a = signed_operand(a, le, b.type);
    b = signed_operand(b, re, a.type);
    const bool any_str = a.type == Type::Str || b.type == Type::Str;
    if (op == "&&" || op == "||") {
      return call1(op == "&&" ? "u64_and" : "u64_or", {truth(a, le), truth(b, re)}, e);
    }
    if (op == "==" || op == "!=") {
      if (any_str)
        return call1(op == "==" ? "str_eq" : "str_ne", {to_str(a, le), to_str(b, re)}, e);
      const Type t = meet(e, a.type, b.type);
      if (t == Type::F64)
        return call1(op == "==" ? "f64_eq" : "f64_ne", {to_f64(a, le), to_f64(b, re)}, e);
      const std::string prefix = t == Type::I64 ? "i64_" : "u64_";
      return call1(prefix + (op == "==" ? "eq" : "ne"), {a, b}, e);
    }
    if (any_str) {
      src_.fail(e.pos, "operator '" + op + "' is not defined on str", e.length,
                op == "<" || op == ">" || op == "<=" || op == ">="
                    ? "strings only compare with == and !="
                    : "strings support + (concatenation), == and !=");
    }
    if (op == "**") return call1("pow", {to_f64(a, le), to_f64(b, re)}, e);
    static const std::map<std::string, std::string> arith = {
        {"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}, {"%", "mod"},
        {"<", "lt"},  {">", "gt"},  {"<=", "le"}, {">=", "ge"}};
    static const std::map<std::string, std::string> bitwise = {
        {"&", "and"}, {"|", "or"}, {"^", "xor"}, {"<<", "shl"}, {">>", "shr"}};
    if (auto it = bitwise.find(op); it != bitwise.end()) {
      return call1("u64_" + it->second,
                   {require_u64(a, le, "operator '" + op + "'"),
                    require_u64(b, re, "operator '" + op + "'")},
                   e);
    }
    const std::string& suffix = arith.at(op);
    const Type t = meet(e, a.type, b.type);
    if (t == Type::F64) return call1("f64_" + suffix, {to_f64(a, le), to_f64(b, re)}, e);
    return call1((t == Type::I64 ? "i64_" : "u64_") + suffix, {a, b}, e);
  }

  Typed lower_unary(const Expr& e) {
    const Expr& x = *e.args[0];
    if (e.text == "-") {
      if (is_number(x)) return constant(Value::f64(-number_of(x)), e.pos);
      Typed v = lower_expr(x);
      if (is_signed_integer(v.type)) return call1("i64_neg", {v}, e);
      return call1("f64_sub", {constant(Value::f64(0.0), e.pos), to_f64(v, x)}, e);
    }
    Typed v = lower_expr(x);
    return call1("u64_not", {require_u64(v, x, "operator '!'")}, e);
  }

  Typed lower_cast(const Expr& e) {
    const Expr& x = *e.args[0];
    if (!e.cast_logical.is_none()) return to_logical(lower_expr(x), e.cast_logical, e);
    const Type to = e.cast_type;
    // A literal becomes a constant of the type (checked at compile time).
    if (to != Type::U64 && to != Type::Str && to != Type::Bool) {
      if (auto v = numeric_literal(x, to)) return constant(*v, e.pos);
    }
    Typed v = lower_expr(x);
    if (!v.logical.is_none()) return from_logical(v, to, e);
    if (v.type == to) return v;
    if (to == Type::U64 && v.type == Type::F64) {
      src_.fail(e.pos, "'f64 as u64' is not allowed: the rounding must be explicit", e.length,
                "use f64_to_u64 (truncate), round_to_u64, floor_to_u64 or ceil_to_u64");
    }
    return convert(v, to, e, true);
  }

  // ---- logical types (polyrt/logical_type.hpp) ----------------------------

  // A conversion node of `as <label>` (what its failures name).
  Typed call_with(const NodeDef& def, const Typed& v, std::vector<uint64_t> params,
                  const std::string& label, const Expr& e) {
    std::vector<Value> constants;
    for (uint64_t p : params) constants.push_back(Value::u64(p));
    const Typed out = call_node(def, {v}, std::move(constants), e.pos, e.length)[0];
    g_.nodes[out.wire.node].label = "as " + label;
    return out;
  }

  [[noreturn]] void refuse_logical(const Expr& e, const std::string& from, LogicalType to,
                                   const std::string& hint) {
    src_.fail(e.pos, "no conversion from " + from + " to " + logical_type_name(to), e.length, hint);
  }

  // `v as <logical type>`.
  Typed to_logical(Typed v, LogicalType to, const Expr& e) {
    const LogicalType from = v.logical;
    const std::string from_name =
        from.is_none() ? std::string(type_name(v.type)) : logical_type_name(from);
    if (from == to) return v;
    Typed out;
    if (to.kind == LogicalKind::Decimal) {
      if (from.kind == LogicalKind::Decimal) {
        out = call_with(nodes::decimal_rescale_node(), v, {from.scale, to.scale, to.precision},
                        logical_type_name(to), e);
      } else if (!from.is_none()) {
        refuse_logical(e, from_name, to, "a decimal is made from a number");
      } else if (is_float(v.type)) {
        out = call_with(nodes::decimal_from_f64_node(), to_f64(v, *e.args[0]),
                        {to.scale, to.precision}, logical_type_name(to), e);
      } else if (is_integer(v.type)) {
        out = call_with(nodes::decimal_rescale_node(), convert(v, Type::I64, e, true),
                        {0, to.scale, to.precision}, logical_type_name(to), e);
      } else {
        refuse_logical(e, from_name, to,
                       "a decimal is made from a number: an integer is its value ('7 as "
                       "decimal(12, 2)' is 7.00), a float its value rounded half to even");
      }
    } else {
      out = to_time(v, from, from_name, to, e);
    }
    out.logical = to;
    return out;
  }

  // `v as timestamp`, `as timestamp_us` or `as date`, the word in its units.
  Typed to_time(const Typed& v, LogicalType from, const std::string& from_name, LogicalType to,
                const Expr& e) {
    const auto digits = [](LogicalKind kind) { return kind == LogicalKind::Timestamp ? 3 : 6; };
    const auto per_day = [&](LogicalKind kind) {
      return kind == LogicalKind::Date ? 1 : 86400 * rt::kPowersOf10[digits(kind)];
    };
    Typed out;
    if (from.kind == LogicalKind::Decimal) {
      refuse_logical(e, from_name, to, "times and dates are made from integers and text");
    } else if (!from.is_none()) {
      // Between units: a time's day, a day's first instant, ms <-> us.
      const uint64_t from_units = per_day(from.kind), to_units = per_day(to.kind);
      const std::string label = logical_type_name(to);
      out = from_units < to_units
                ? call_with(nodes::time_rescale_node(), v, {to_units / from_units, 1}, label, e)
                : call_with(nodes::time_rescale_node(), v, {1, from_units / to_units}, label, e);
    } else if (v.type == Type::Str) {
      out = call_with(nodes::parse_time_node(), v,
                      {to.kind == LogicalKind::Date ? 0u : (uint64_t)digits(to.kind)},
                      logical_type_name(to), e);
    } else if (is_integer(v.type)) {
      out = convert(v, Type::I64, e, true);
    } else {
      refuse_logical(e, from_name, to,
                     to.kind == LogicalKind::Date
                         ? "a date is made from days since 1970-01-01 (an integer), "
                           "\"YYYY-MM-DD\" text or a timestamp"
                         : "a timestamp is made from epoch " +
                               std::string(digits(to.kind) == 3 ? "milliseconds" : "microseconds") +
                               " (an integer), ISO 8601 text or another timestamp or date" +
                               (is_float(v.type) ? "; round a float first (round_to_i64)" : ""));
    }
    return convert(out, physical_type(to), e, true);
  }

  // `v as <type>` for a logical value: its text, a decimal's value (a float,
  // or rounded half to even for an integer), or a time's number.
  Typed from_logical(Typed v, Type to, const Expr& e) {
    const LogicalType from = v.logical;
    v.logical = {};
    if (to == Type::Str || to == Type::Bytes || to == Type::Json) {
      Typed text =
          call_with(nodes::logical_text_node(), v, {(uint64_t)from.kind, from.scale}, "str", e);
      return convert(text, to, e, true);
    }
    if (from.kind == LogicalKind::Decimal) {
      if (is_float(to)) {
        return convert(call_with(nodes::decimal_to_f64_node(), v, {from.scale}, "f64", e), to, e,
                       true);
      }
      if (!is_integer(to)) {
        src_.fail(
            e.pos,
            "no conversion from " + logical_type_name(from) + " to " + std::string(type_name(to)),
            e.length, "a decimal converts to the numbers and str");
      }
      // Its value rounded half to even, then checked like any integer.
      v = call_with(nodes::decimal_rescale_node(), v, {from.scale, 0, kMaxDecimalPrecision},
                    std::string(type_name(to)), e);
    }
    return convert(v, to, e, true);
  }

  // An `if`'s condition: an integer or bool, nonzero selecting the first
  // branch (a signed one compared with 0).
  Typed condition(const Expr& cond, const char* what) {
    Typed c = lower_expr(cond);
    if (!is_integer(c.type) && c.type != Type::Bool) {
      src_.fail(cond.pos,
                std::string("the condition of '") + what +
                    "' must be an integer (nonzero selects the first branch), got " +
                    std::string(type_name(c.type)),
                cond.length, is_float(c.type) ? "compare explicitly, e.g. x != 0.0" : "");
    }
    if (is_signed_integer(c.type)) c = truth(c, cond);
    return c;
  }

  // `None` as a branch of an if: a null, unless the program binds the name.
  bool is_null_literal(const Expr& e) const {
    return e.kind == ExprKind::Ident && e.text == "None" && !bound_.count("None");
  }

  // 1 where `c` is nonzero (`nonzero`) or zero (!nonzero), never null.
  Wire test_of(Typed c, bool nonzero, const Expr& e) {
    c.present.reset();
    return call1(nonzero ? "u64_ne" : "u64_eq", {c, constant(Value::u64(0), e.pos)}, e).wire;
  }

  // `value` where `keep` is 1, null elsewhere (and where value or the
  // condition is null).
  Typed null_unless(Typed value, Wire keep, const Typed& c, const Expr& e) {
    value.present = both_present(both_present(value.present, keep, e.pos, e.length), c.present,
                                 e.pos, e.length);
    return value;
  }

  Typed lower_if(const Expr& e) {
    Typed c = condition(*e.args[0], "if");
    const bool null_then = is_null_literal(*e.args[1]), null_else = is_null_literal(*e.args[2]);
    if (null_then && null_else) {
      src_.fail(e.pos, "both branches of this if are None: nothing gives the value a type",
                e.length, "a null column is null_if(1, value)");
    }
    if (null_then) return null_unless(lower_expr(*e.args[2]), test_of(c, false, e), c, e);
    if (null_else) return null_unless(lower_expr(*e.args[1]), test_of(c, true, e), c, e);
    return choose(c, lower_expr(*e.args[1]), lower_expr(*e.args[2]), e, *e.args[1], *e.args[2]);
  }

  // `if c { a } else { b }` of lowered values: the value of the branch taken,
  // null where that branch is (or c is).
  Typed choose(Typed c, Typed a, Typed b, const Expr& e, const Expr& ea, const Expr& eb) {
    const std::optional<Wire> present_c = c.present, present_a = a.present, present_b = b.present;
    c.present.reset();
    a.present.reset();
    b.present.reset();
    Typed picked = select_value(c, a, b, e, ea, eb);
    std::optional<Wire> present;
    if (present_a || present_b) {
      const auto or_one = [&](std::optional<Wire> w) {
        return w ? Typed{*w, Type::U64} : constant(Value::u64(1), e.pos);
      };
      present = call1("select_u64", {c, or_one(present_a), or_one(present_b)}, e).wire;
    }
    picked.present = both_present(present, present_c, e.pos, e.length);
    return picked;
  }

  // The selection of values `a` and `b` (written as `ea` and `eb`).
  Typed select_value(const Typed& c, Typed a, Typed b, const Expr& e, const Expr& ea,
                     const Expr& eb) {
    if (a.type == Type::Str || b.type == Type::Str) {
      return call1("select_str", {c, to_str(a, ea), to_str(b, eb)}, e);
    }
    a = signed_operand(a, ea, b.type);
    b = signed_operand(b, eb, a.type);
    const Type t = meet(e, a.type, b.type);
    if (t == Type::F64) {
      return call1("select_f64", {c, to_f64(a, ea), to_f64(b, eb)}, e);
    }
    Typed picked = call1(t == Type::I64 ? "select_i64" : "select_u64", {c, a, b}, e);
    // Both branches of one narrower type: so is the result.
    if (a.type == b.type && a.type != t && a.type != Type::Bool) picked = retag(picked, a.type, e);
    if (a.logical == b.logical) picked.logical = a.logical;  // both timestamps, ...
    return picked;
  }

  // ---- calls --------------------------------------------------------------

  Value const_argument(const Expr& a, const nodes::ArgSpec& spec, const NodeDef& def) {
    const std::string where =
        "argument '" + std::string(spec.name) + "' of '" + std::string(def.name) + "'";
    const bool negative = a.kind == ExprKind::Unary && a.text == "-" && is_number(*a.args[0]);
    if (a.kind != ExprKind::Int && a.kind != ExprKind::Float && a.kind != ExprKind::Str &&
        !negative) {
      if (const Stmt* param = module_parameter(a)) {
        src_.fail(a.pos,
                  where + " must be a literal constant, but it is " + param->role +
                      ", which the call passes as an expression at " +
                      src_.location(param->expr->pos),
                  a.length, "a module parameter that fills a constant argument takes a literal");
      }
      src_.fail(
          a.pos, where + " must be a literal constant, not an expression", a.length,
          def.name == "mod" || def.name == "div"
              ? "constant arguments are fixed at compile time; for a computed divisor use the "
                "% or / operator"
              : "constant arguments are fixed at compile time; signature: " +
                    nodes::signature(def));
    }
    switch (spec.type) {
      case PortType::I64:
      case PortType::U64:
        if (a.kind == ExprKind::Int) return Value::u64(a.u);
        src_.fail(a.pos, where + " must be a non-negative integer literal", a.length,
                  "signature: " + nodes::signature(def));
      case PortType::F64:
        if (a.kind == ExprKind::Float) return Value::f64(a.f);
        if (a.kind == ExprKind::Int) return Value::f64(exact_f64(a));
        if (negative) return Value::f64(-number_of(*a.args[0]));
        src_.fail(a.pos, where + " must be a number literal", a.length);
      case PortType::Str:
        if (a.kind == ExprKind::Str) return Value::str(a.text);
        src_.fail(a.pos, where + " must be a string literal", a.length);
      case PortType::Any:
      case PortType::Bytes:
      case PortType::Json:
      case PortType::Partition:
      case PortType::PartitionList:
      case PortType::VecF32:
      case PortType::VecI32:
      case PortType::VecI64:
      case PortType::Vector:
        break;
    }
    src_.fail(a.pos, where + " has an unsupported literal", a.length);
  }

  // The hidden binding of a module parameter that `a` names, if it does.
  const Stmt* module_parameter(const Expr& a) const {
    if (a.kind != ExprKind::Ident) return nullptr;
    auto it = bindings_.find(a.text);
    if (it == bindings_.end() || !it->second.stmt->hidden) return nullptr;
    const Stmt* s = it->second.stmt;
    return s->role.empty() ? nullptr : s;
  }

  Typed wire_argument(const Expr& a, const nodes::ArgSpec& spec, const NodeDef& def) {
    if (spec.type == PortType::F64 && a.kind == ExprKind::Int) {
      return constant(Value::f64(exact_f64(a)), a.pos);
    }
    if (spec.type == PortType::I64 && (a.kind == ExprKind::Int || is_negative_literal(a))) {
      return constant(*numeric_literal(a, Type::I64), a.pos);
    }
    Typed t = lower_expr(a);
    // The implicit widenings a parameter takes with a conversion node (an
    // integer to f64, as the arithmetic operators make it; a number to bytes,
    // an integer to json). The u64 and i64 ports take theirs as the word.
    if (auto want = converting_port_type(spec.type);
        want && !nodes::port_accepts(spec.type, t.type) && widens_implicitly(t.type, *want)) {
      return convert(t, *want, a, false);
    }
    if (!nodes::port_accepts(spec.type, t.type)) {
      std::string hint = "signature: " + nodes::signature(def);
      if (spec.type == PortType::U64 && is_signed_integer(t.type)) {
        hint = "convert with '... as u64' (checked: a negative value fails the row)";
      }
      if (spec.type == PortType::U64 && t.type == Type::F64) {
        hint = "convert with f64_to_u64, round_to_u64, floor_to_u64 or ceil_to_u64";
      }
      if (spec.type == PortType::Str) hint = "convert with '... as str' or format it with printf";
      src_.fail(a.pos,
                "argument '" + std::string(spec.name) + "' of '" + std::string(def.name) +
                    "' expects " + std::string(nodes::port_type_name(spec.type)) + ", got " +
                    std::string(type_name(t.type)),
                a.length, hint);
    }
    return t;
  }

  // The type a port converts its widenings to, for the ports that need a
  // conversion node for them.
  static std::optional<Type> converting_port_type(PortType port) {
    switch (port) {
      case PortType::F64:
        return Type::F64;
      case PortType::Bytes:
        return Type::Bytes;
      case PortType::Json:
        return Type::Json;
      default:
        return std::nullopt;
    }
  }

  // null_if(cond, value) and null_with_probability(input, p, value).
  Typed lower_null(const Expr& e) {
    const bool by_chance = e.text == dsl::kNullWithProbabilityIntrinsic;
    const size_t arity = by_chance ? 3 : 2;
    const bool named = std::any_of(e.arg_names.begin(), e.arg_names.end(),
                                   [](const std::string& n) { return !n.empty(); });
    if (e.args.size() != arity || named) {
      src_.fail(e.pos,
                by_chance ? "null_with_probability(input, probability, value) takes 3 arguments, "
                            "by position"
                          : "null_if(condition, value) takes 2 arguments, by position",
                e.length);
    }
    Typed c;
    if (by_chance) {
      // Null where unfair_coin(input, probability) is 1: hashed, seeded.
      const NodeDef& coin = *nodes::find_node("unfair_coin");
      c = call_node(coin, {lower_expr(*e.args[0])},
                    {const_argument(*e.args[1], coin.args[1], coin)}, e.pos, e.length,
                    {e.args[0]->pos, e.args[1]->pos})[0];
    } else {
      c = condition(*e.args[0], "null_if");
    }
    return null_unless(lower_expr(*e.args[arity - 1]), test_of(c, false, e), c, e);
  }

  // default_or(value, fallback) and this_or of a nullable value (its
  // arguments lowered): the value where it is present, else the fallback.
  // Of any other value they are None-aware nodes, as before (an unset extern).
  // Both take two wire arguments, `args` the expressions they were given.
  std::optional<Typed> default_of_nullable(const NodeDef& def, const std::vector<Typed>& inputs,
                                           const std::vector<const Expr*>& args, const Expr& e) {
    if ((def.name != "default_or" && def.name != "this_or") || !inputs[0].present) {
      return std::nullopt;
    }
    Typed value = inputs[0];
    const Typed present{*value.present, Type::U64};
    value.present.reset();  // taken only where it is present
    return choose(present, value, inputs[1], e, *args[0], *args[1]);
  }

  // The call's argument for each of the node's arguments (null: not given),
  // named arguments by name, the others in order; the ones past a variadic
  // argument into `rest`. CompileError for an unknown or repeated name, a
  // named variadic argument, or too many arguments.
  std::vector<const Expr*> match_arguments(const Expr& e, const NodeDef& def,
                                           std::vector<const Expr*>& rest) {
    const auto& specs = def.args;
    std::vector<const Expr*> assigned(specs.size(), nullptr);
    const bool variadic = !specs.empty() && specs.back().variadic;
    size_t next = 0;
    for (size_t i = 0; i < e.args.size(); ++i) {
      const Expr* a = e.args[i].get();
      if (!e.arg_names[i].empty()) {
        const size_t k = named_argument(e, def, i);
        if (assigned[k])
          src_.fail(a->pos, "argument '" + e.arg_names[i] + "' is given twice", a->length);
        assigned[k] = a;
        continue;
      }
      while (next < specs.size() && !specs[next].variadic && assigned[next]) ++next;
      if (next < specs.size() && !specs[next].variadic) {
        assigned[next++] = a;
      } else if (variadic) {
        rest.push_back(a);
      } else {
        src_.fail(a->pos,
                  "too many arguments to '" + e.text + "' (it takes " +
                      std::to_string(specs.size()) + ")",
                  a->length, "signature: " + nodes::signature(def));
      }
    }
    return assigned;
  }

  // The index of the node's argument that call argument i names (by its
  // name or polydat's other name); CompileError for none or a variadic one.
  size_t named_argument(const Expr& e, const NodeDef& def, size_t i) {
    const auto& specs = def.args;
    const Expr* a = e.args[i].get();
    size_t k = 0;
    while (k < specs.size() && specs[k].name != e.arg_names[i] &&
           (specs[k].other_name.empty() || specs[k].other_name != e.arg_names[i])) {
      ++k;
    }
    if (k < specs.size() && specs[k].variadic) {
      src_.fail(a->pos,
                "'" + e.arg_names[i] + "' collects the remaining arguments of '" + e.text +
                    "'; pass them by position, without a name",
                a->length, "signature: " + nodes::signature(def));
    }
    if (k == specs.size()) {
      std::vector<std::string> names;
      for (const auto& spec : specs) names.emplace_back(spec.name);
      const std::string near = dsl::closest_name(e.arg_names[i], names);
      src_.fail(
          a->pos, "'" + e.text + "' has no argument named '" + e.arg_names[i] + "'", a->length,
          near.empty() ? "signature: " + nodes::signature(def) : "did you mean '" + near + "'?");
    }
    return k;
  }

  std::vector<Typed> lower_call(const Expr& e) {
    if (e.text == dsl::kNullIfIntrinsic || e.text == dsl::kNullWithProbabilityIntrinsic) {
      return {lower_null(e)};
    }
    if (e.text == "if") {
      src_.fail(e.pos, "if(cond, then, else) takes 3 arguments", e.length);
    }
    if (e.text == dsl::kSelectIntrinsic) {
      const bool named = std::any_of(e.arg_names.begin(), e.arg_names.end(),
                                     [](const std::string& n) { return !n.empty(); });
      if (e.args.size() != 3 || named) {
        src_.fail(e.pos, "select(cond, if_true, if_false) takes 3 arguments, by position", e.length,
                  "it is polydat's name of if(cond, then, else)");
      }
      return {lower_if(e)};
    }
    const NodeDef* def = nodes::find_node(e.text);
    // Module inlining resolved every other name, or refused it.
    if (!def) internal_error("call of '" + e.text + "' reached the lowering unresolved");
    const auto& specs = def->args;
    std::vector<const Expr*> rest;  // variadic
    const std::vector<const Expr*> assigned = match_arguments(e, *def, rest);
    std::vector<Typed> inputs;
    std::vector<Value> params;
    std::vector<SourcePos> param_pos;
    for (size_t k = 0; k < specs.size(); ++k) {
      const auto& spec = specs[k];
      if (spec.variadic) {
        for (const Expr* a : rest) {
          if (spec.kind == ArgKind::Wire) {
            inputs.push_back(wire_argument(*a, spec, *def));
          } else {
            params.push_back(const_argument(*a, spec, *def));
            param_pos.push_back(a->pos);
          }
        }
        continue;
      }
      const Expr* a = assigned[k];
      if (!a) {
        if (spec.kind == ArgKind::Const && !spec.default_value.is_none()) {
          params.push_back(spec.default_value);
          param_pos.push_back(e.pos);
          continue;
        }
        src_.fail(e.pos, "missing argument '" + std::string(spec.name) + "' of '" + e.text + "'",
                  e.length, "signature: " + nodes::signature(*def));
      }
      if (spec.kind == ArgKind::Wire) {
        inputs.push_back(wire_argument(*a, spec, *def));
      } else {
        params.push_back(const_argument(*a, spec, *def));
        param_pos.push_back(a->pos);
      }
    }
    if (std::optional<Typed> chosen = default_of_nullable(*def, inputs, assigned, e)) {
      return {*chosen};
    }
    return call_node(*def, std::move(inputs), std::move(params), e.pos, e.length, param_pos);
  }

  const dsl::Sources& src_;
  const dsl::Ast& ast_;
  // splitmix64(seed), XORed into every keyed_by_seed node's hashed input.
  std::optional<uint64_t> seed_key_;
  const bool strict_inputs_;
  const std::map<std::string, std::string>& params_;
  Graph g_;
  HashProvenance provenance_{g_};
  std::unordered_map<std::string, SourcePos> declared_at_;
  std::vector<std::string> known_names_;
  std::unordered_map<std::string, BindingInfo> bindings_;
  std::unordered_map<std::string, Typed> bound_;
  std::string binding_name_;
  uint32_t anon_counter_ = 0;
};

}  // namespace

Graph lower(const dsl::Sources& sources, const dsl::Ast& ast, const CompileOptions& options) {
  return Lowerer(sources, ast, options).run();
}

}  // namespace polyrt::ir

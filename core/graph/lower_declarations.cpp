// Names and declarations: inputs, externs and params, and literal defaults.
#include "graph/lowerer.hpp"
#include "syntax/tree_walk.hpp"

namespace polyrt::ir::lowering {

namespace {

// polydat's binary appends `__emit := emit_row(...)` to a program it runs
// with --emit; a program saved from that expansion keeps the name.
constexpr std::string_view kPolydatEmitName = "__emit";

}  // namespace

void Lowerer::claim_name(const std::string& name, SourcePos pos, bool hidden) {
  if (hidden) {
    declared_at_.emplace(name, pos);
    return;
  }
  const bool emit = name == kPolydatEmitName ||
                    (name.starts_with(kPolydatEmitName) && name[kPolydatEmitName.size()] == '.');
  if (name.rfind("__", 0) == 0 && !emit) {
    src_.fail(pos, "names starting with '__' are reserved for the compiler", name.size(),
              "except __emit, the name polydat's binary binds emit_row(...) to");
  }
  auto [it, inserted] = declared_at_.emplace(name, pos);
  if (!inserted) {
    src_.fail(pos, "'" + name + "' is already defined", name.size(),
              "first defined at " + src_.location(it->second));
  }
  known_names_.push_back(name);
}

void Lowerer::declare_all() {
  for (const syntax::Warning& w : ast_.warnings) {
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

bool Lowerer::is_known_pragma(const std::string& name) {
  return name == "strict_values" || name == "strict_types" || name == "strict";
}

void Lowerer::declare_extern(Extern e, SourcePos pos) {
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

Value Lowerer::declared_param(const Extern& e, const std::string& text) {
  if (e.type == Type::U64) {
    if (const std::optional<uint64_t> n = syntax::integer_literal(text)) return Value::u64(*n);
  }
  try {
    return parse_value(text, e.type, "extern " + e.name);
  } catch (const WriteError& error) {
    throw CompileError(src_.file() + ": " + error.what(), src_.file(), 0, 0);
  }
}

Value Lowerer::undeclared_param(const std::string& text) {
  if (const std::optional<uint64_t> n = syntax::integer_literal(text)) return Value::u64(*n);
  const char* begin = text.c_str();
  char* end = nullptr;
  const double f = std::strtod(begin, &end);
  if (!text.empty() && !std::isspace((unsigned char)text[0]) && end == begin + text.size()) {
    return Value::f64(f);
  }
  if (text == "true" || text == "false") return Value::boolean(text == "true");
  return Value::str(text);
}

void Lowerer::declare_coordinate(const std::string& name, SourcePos pos) {
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

void Lowerer::infer_inputs() {
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
      if (!syntax::typo_of(e->text, known).empty()) continue;
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

Value Lowerer::non_literal_default(const Expr& e, Type type) {
  if (e.kind != ExprKind::Int && e.kind != ExprKind::Float && e.kind != ExprKind::Str &&
      e.kind != ExprKind::Ident && e.kind != ExprKind::Array) {
    return constant_default(e, type);
  }
  src_.fail(e.pos,
            "the default of an extern must be a " + std::string(type_name(type)) +
                " literal or an expression of literals",
            e.length, type == Type::Bool ? "write true or false" : "");
}

Value Lowerer::literal_default(const Expr& e, Type type) {
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

Value Lowerer::constant_default(const Expr& e, Type type) {
  syntax::walk(e, [&](const Expr& x) {
    if (x.kind == ExprKind::Ident && x.text != "true" && x.text != "false") {
      src_.fail(x.pos,
                "the default of an extern cannot read '" + x.text +
                    "': it is an expression of literals and nodes, evaluated once",
                x.length, "compute it in a binding instead: v := default_or(e, EXPR)");
    }
  });
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

std::optional<Value> Lowerer::shared_literal(const Stmt& s) {
  if (!s.is_shared || !s.type || !is_scalar(*s.type) || *s.type == Type::Bool ||
      *s.type == Type::U64) {
    return std::nullopt;
  }
  return numeric_literal(*s.expr, *s.type);
}

bool Lowerer::is_negative_literal(const Expr& e) {
  return e.kind == ExprKind::Unary && e.text == "-" && is_number(*e.args[0]);
}

std::optional<Value> Lowerer::numeric_literal(const Expr& e, Type type) {
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

bool Lowerer::is_number(const Expr& e) {
  return e.kind == ExprKind::Int || e.kind == ExprKind::Float;
}

double Lowerer::number_of(const Expr& e) {
  return e.kind == ExprKind::Int ? (double)e.u : e.f;
}

double Lowerer::exact_f64(const Expr& e) {
  const double d = (double)e.u;
  if (d >= 18446744073709551616.0 || (uint64_t)d != e.u) {
    src_.fail(e.pos, "integer " + std::to_string(e.u) + " has no exact f64 value", e.length,
              "write it as a float literal to accept rounding");
  }
  return d;
}

}  // namespace polyrt::ir::lowering

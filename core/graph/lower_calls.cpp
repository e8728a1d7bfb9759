// Node calls: their constant and wired arguments, named arguments and None.
#include "graph/lowerer.hpp"

namespace polyrt::ir::lowering {

Value Lowerer::const_argument(const Expr& a, const nodes::ArgSpec& spec, const NodeDef& def) {
  const std::string where =
      "argument '" + std::string(spec.name) + "' of '" + std::string(def.name) + "'";
  const bool negative = a.kind == ExprKind::Unary && a.text == "-" && is_number(*a.args[0]);
  const bool truth = a.kind == ExprKind::Ident && (a.text == "true" || a.text == "false");
  if (a.kind != ExprKind::Int && a.kind != ExprKind::Float && a.kind != ExprKind::Str &&
      !negative && !truth) {
    refuse_non_literal(a, where, def);
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
    case PortType::Bool:
      if (truth) return Value::boolean(a.text == "true");
      src_.fail(a.pos, where + " must be true or false", a.length);
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

void Lowerer::refuse_non_literal(const Expr& a, const std::string& where, const NodeDef& def) {
  if (const Stmt* param = module_parameter(a)) {
    src_.fail(a.pos,
              where + " must be a literal constant, but it is " + param->role +
                  ", which the call passes as an expression at " + src_.location(param->expr->pos),
              a.length, "a module parameter that fills a constant argument takes a literal");
  }
  src_.fail(
      a.pos, where + " must be a literal constant, not an expression", a.length,
      def.name == "mod" || def.name == "div"
          ? "constant arguments are fixed at compile time; for a computed divisor use the "
            "% or / operator"
          : "constant arguments are fixed at compile time; signature: " + nodes::signature(def));
}

const Stmt* Lowerer::module_parameter(const Expr& a) const {
  if (a.kind != ExprKind::Ident) return nullptr;
  auto it = bindings_.find(a.text);
  if (it == bindings_.end() || !it->second.stmt->hidden) return nullptr;
  const Stmt* s = it->second.stmt;
  return s->role.empty() ? nullptr : s;
}

Typed Lowerer::wire_argument(const Expr& a, const nodes::ArgSpec& spec, const NodeDef& def) {
  if (spec.type == PortType::F64 && a.kind == ExprKind::Int) {
    return constant(Value::f64(exact_f64(a)), a.pos);
  }
  if (spec.type == PortType::I64 && (a.kind == ExprKind::Int || is_negative_literal(a))) {
    return constant(*numeric_literal(a, Type::I64), a.pos);
  }
  Typed t = lower_expr(a);
  // polydat's boundary adapter: a vector port reads a text as the JSON array
  // it holds (lid_mle("[0.1, 0.2, 0.4]", 3)), through the str_to_vec node of
  // its type, which fails the row for a text that is none.
  if (t.type == Type::Str) {
    if (const std::string adapter = text_to_vector_node(spec.type); !adapter.empty()) {
      return call1(adapter, {t}, a);
    }
  }
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

std::string Lowerer::text_to_vector_node(PortType port) {
  switch (port) {
    case PortType::VecF32:
    case PortType::VecI32:
    case PortType::VecI64:
      return "str_to_" + std::string(nodes::port_type_name(port));  // str_to_vec_f32, ...
    default:
      return "";  // any vector (PortType::Vector): which one is not said
  }
}

std::optional<Type> Lowerer::converting_port_type(PortType port) {
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

Typed Lowerer::lower_null(const Expr& e) {
  const bool by_chance = e.text == syntax::kNullWithProbabilityIntrinsic;
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
    c = call_node(coin, {lower_expr(*e.args[0])}, {const_argument(*e.args[1], coin.args[1], coin)},
                  e.pos, e.length, {e.args[0]->pos, e.args[1]->pos})[0];
  } else {
    c = condition(*e.args[0], "null_if");
  }
  return null_unless(lower_expr(*e.args[arity - 1]), test_of(c, false, e), c, e);
}

std::optional<Typed> Lowerer::default_of_nullable(const NodeDef& def,
                                                  const std::vector<Typed>& inputs,
                                                  const std::vector<const Expr*>& args,
                                                  const Expr& e) {
  if ((def.name != "default_or" && def.name != "this_or") || !inputs[0].present) {
    return std::nullopt;
  }
  Typed value = inputs[0];
  const Typed present{*value.present, Type::U64};
  value.present.reset();  // taken only where it is present
  return choose(present, value, inputs[1], e, *args[0], *args[1]);
}

std::vector<const Expr*> Lowerer::match_arguments(const Expr& e, const NodeDef& def,
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
      src_.fail(
          a->pos,
          "too many arguments to '" + e.text + "' (it takes " + std::to_string(specs.size()) + ")",
          a->length, "signature: " + nodes::signature(def));
    }
  }
  return assigned;
}

size_t Lowerer::named_argument(const Expr& e, const NodeDef& def, size_t i) {
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
    const std::string near = syntax::closest_name(e.arg_names[i], names);
    src_.fail(
        a->pos, "'" + e.text + "' has no argument named '" + e.arg_names[i] + "'", a->length,
        near.empty() ? "signature: " + nodes::signature(def) : "did you mean '" + near + "'?");
  }
  return k;
}

std::vector<Typed> Lowerer::lower_call(const Expr& e) {
  if (e.text == syntax::kNullIfIntrinsic || e.text == syntax::kNullWithProbabilityIntrinsic) {
    return {lower_null(e)};
  }
  if (e.text == "if") {
    src_.fail(e.pos, "if(cond, then, else) takes 3 arguments", e.length);
  }
  if (e.text == syntax::kSelectIntrinsic) {
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

}  // namespace polyrt::ir::lowering

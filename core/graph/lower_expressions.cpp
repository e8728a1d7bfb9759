// Expressions: names, operators, conversions, conditions and logical types.
#include "graph/lowerer.hpp"

namespace polyrt::ir::lowering {

Typed Lowerer::lookup(const Expr& e) {
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
  const std::string near = syntax::typo_of(e.text, known_names_);
  src_.fail(e.pos, "unknown name '" + e.text + "'", e.length,
            "did you mean '" + near + "'? (declare it with 'input " + e.text +
                "' if it is a coordinate of its own)");
}

Typed Lowerer::lower_expr(const Expr& e) {
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
      src_.fail(e.pos, "an array literal is only allowed as the whole value of a binding", e.length,
                "pass lists as trailing literal arguments, e.g. is_one_of(x, 1, 2, 3)");
  }
  src_.fail(e.pos, "unsupported expression", e.length);
}

Typed Lowerer::to_f64(const Typed& t, const Expr& e) {
  if (t.type == Type::F64) return t;
  if (t.type == Type::Str) {
    src_.fail(e.pos, "expected a number, got str", e.length);
  }
  if (e.kind == ExprKind::Int) return constant(Value::f64(exact_f64(e)), e.pos);
  return convert(t, Type::F64, e, false);
}

Typed Lowerer::to_str(const Typed& t, const Expr& e) {
  return t.type == Type::Str ? t : call1(nodes::to_str_node(), {t}, e);
}

Typed Lowerer::convert(const Typed& v, Type to, const Expr& e, bool is_cast) {
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

Typed Lowerer::retag(const Typed& v, Type to, const Expr& e) {
  return call_node(nodes::retag_node(), {v}, {Value::u64((uint64_t)to)}, e.pos, e.length)[0];
}

Typed Lowerer::require_u64(const Typed& t, const Expr& e, const std::string& what) {
  if (is_unsigned_integer(t.type) || t.type == Type::Bool) return t;
  src_.fail(e.pos, what + " needs unsigned integer operands, got " + std::string(type_name(t.type)),
            e.length,
            is_float(t.type) ? "convert with f64_to_u64, round_to_u64, floor_to_u64 or ceil_to_u64"
            : is_signed_integer(t.type)
                ? "convert with '... as u64' (checked: a negative value fails the row)"
                : "");
}

Typed Lowerer::truth(const Typed& t, const Expr& e) {
  if (is_float(t.type)) return call1("f64_ne", {t, constant(Value::f64(0.0), e.pos)}, e);
  if (is_signed_integer(t.type)) {
    return call1("i64_ne", {t, constant(Value::i64(0), e.pos)}, e);
  }
  require_u64(t, e, "'&&' and '||'");
  return call1("u64_ne", {t, constant(Value::u64(0), e.pos)}, e);
}

std::optional<Type> Lowerer::common_numeric(Type a, Type b) {
  if (is_float(a) || is_float(b)) return Type::F64;
  if (!is_signed_integer(a) && !is_signed_integer(b)) return Type::U64;
  if (widens_implicitly(a, Type::I64) && widens_implicitly(b, Type::I64)) return Type::I64;
  return std::nullopt;
}

Typed Lowerer::signed_operand(const Typed& t, const Expr& e, Type other) {
  if (!is_signed_integer(other)) return t;
  if (e.kind == ExprKind::Int || is_negative_literal(e)) {
    if (auto v = numeric_literal(e, Type::I64)) return constant(*v, e.pos);
  }
  return t;
}

Type Lowerer::meet(const Expr& op, Type a, Type b) {
  if (auto t = common_numeric(a, b)) return *t;
  src_.fail(op.pos,
            "operator '" + op.text + "' mixes " + std::string(type_name(a)) + " and " +
                std::string(type_name(b)) + ": no type holds every value of both",
            op.length, "convert one side with 'as' (checked), e.g. x as i64 or y as u64");
}

bool Lowerer::is_left_associative(const Expr& e) {
  return e.kind == ExprKind::Binary && e.text != "**";
}

Typed Lowerer::lower_binary(const Expr& e) {
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

Typed Lowerer::combine(const Expr& e, Typed a, Typed b) {
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
    if (any_str) return call1(op == "==" ? "str_eq" : "str_ne", {to_str(a, le), to_str(b, re)}, e);
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
    return call1(
        "u64_" + it->second,
        {require_u64(a, le, "operator '" + op + "'"), require_u64(b, re, "operator '" + op + "'")},
        e);
  }
  const std::string& suffix = arith.at(op);
  const Type t = meet(e, a.type, b.type);
  if (t == Type::F64) return call1("f64_" + suffix, {to_f64(a, le), to_f64(b, re)}, e);
  return call1((t == Type::I64 ? "i64_" : "u64_") + suffix, {a, b}, e);
}

Typed Lowerer::lower_unary(const Expr& e) {
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

Typed Lowerer::lower_cast(const Expr& e) {
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

Typed Lowerer::call_with(const NodeDef& def, const Typed& v, std::vector<uint64_t> params,
                         const std::string& label, const Expr& e) {
  std::vector<Value> constants;
  for (uint64_t p : params) constants.push_back(Value::u64(p));
  const Typed out = call_node(def, {v}, std::move(constants), e.pos, e.length)[0];
  g_.nodes[out.wire.node].label = "as " + label;
  return out;
}

[[noreturn]] void Lowerer::refuse_logical(const Expr& e, const std::string& from, LogicalType to,
                                          const std::string& hint) {
  src_.fail(e.pos, "no conversion from " + from + " to " + logical_type_name(to), e.length, hint);
}

Typed Lowerer::to_logical(Typed v, LogicalType to, const Expr& e) {
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

Typed Lowerer::to_time(const Typed& v, LogicalType from, const std::string& from_name,
                       LogicalType to, const Expr& e) {
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

Typed Lowerer::from_logical(Typed v, Type to, const Expr& e) {
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

Typed Lowerer::condition(const Expr& cond, const char* what) {
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

bool Lowerer::is_null_literal(const Expr& e) const {
  return e.kind == ExprKind::Ident && e.text == "None" && !bound_.count("None");
}

Wire Lowerer::test_of(Typed c, bool nonzero, const Expr& e) {
  c.present.reset();
  return call1(nonzero ? "u64_ne" : "u64_eq", {c, constant(Value::u64(0), e.pos)}, e).wire;
}

Typed Lowerer::null_unless(Typed value, Wire keep, const Typed& c, const Expr& e) {
  value.present =
      both_present(both_present(value.present, keep, e.pos, e.length), c.present, e.pos, e.length);
  return value;
}

Typed Lowerer::lower_if(const Expr& e) {
  Typed c = condition(*e.args[0], "if");
  const bool null_then = is_null_literal(*e.args[1]), null_else = is_null_literal(*e.args[2]);
  if (null_then && null_else) {
    src_.fail(e.pos, "both branches of this if are None: nothing gives the value a type", e.length,
              "a null column is null_if(1, value)");
  }
  if (null_then) return null_unless(lower_expr(*e.args[2]), test_of(c, false, e), c, e);
  if (null_else) return null_unless(lower_expr(*e.args[1]), test_of(c, true, e), c, e);
  return choose(c, lower_expr(*e.args[1]), lower_expr(*e.args[2]), e, *e.args[1], *e.args[2]);
}

Typed Lowerer::choose(Typed c, Typed a, Typed b, const Expr& e, const Expr& ea, const Expr& eb) {
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

Typed Lowerer::select_value(const Typed& c, Typed a, Typed b, const Expr& e, const Expr& ea,
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

}  // namespace polyrt::ir::lowering

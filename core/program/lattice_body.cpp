#include "program/lattice_body.hpp"

#include <set>

#include "comprehension/generators.hpp"
#include "syntax/ast_builder.hpp"
#include "syntax/tree_walk.hpp"

namespace polyrt {

namespace {

using syntax::Expr;
using syntax::ExprKind;
using syntax::ExprPtr;

// One element's values: a progression start + k * step (k < size), or a
// list of entries.
struct Axis {
  uint64_t size = 0;
  std::optional<std::pair<uint64_t, uint64_t>> progression;  // (start, step), u64 wrapping
  std::vector<Value> entries;
};

std::optional<Axis> axis_of(const comprehension::Source& s) {
  using Kind = comprehension::Source::Kind;
  if (s.kind == Kind::Range && !s.arguments.empty()) return std::nullopt;  // known when it opens
  if (s.kind == Kind::Range) {
    const uint64_t n = s.end > s.start ? (s.end - s.start - 1) / s.step + 1 : 0;
    return Axis{n, std::pair(s.start, s.step), {}};
  }
  std::vector<Value> values;
  if (s.kind == Kind::List) {
    values = s.values;
  } else if (s.kind == Kind::Generator) {
    std::vector<Value> args;
    for (const comprehension::Source& a : s.arguments) {
      if (a.kind != Kind::List) return std::nullopt;  // a {name}: known when it opens
      args.push_back(a.values[0]);
    }
    values = comprehension::generate(s.generator, args);
  } else {
    return std::nullopt;
  }
  Axis axis{values.size(), std::nullopt, {}};
  if (!values.empty() && values[0].type() == Type::U64) {
    // A u64 list that steps evenly (mod 2^64) is a progression.
    const uint64_t start = values[0].as_u64();
    const uint64_t step = values.size() > 1 ? values[1].as_u64() - start : 0;
    bool even = true;
    for (size_t k = 0; k < values.size(); ++k)
      even = even && values[k].as_u64() == start + k * step;
    if (even) {
      axis.progression = std::pair(start, step);
      return axis;
    }
  }
  const Type type = values.empty() ? Type::U64 : values[0].type();
  if (values.size() > kMaxLatticeListEntries ||
      (type != Type::U64 && type != Type::F64 && type != Type::Str)) {
    return std::nullopt;
  }
  axis.entries = std::move(values);
  return axis;
}

// entries[digit]: a chain of selects, the last entry the default.
ExprPtr pick(const syntax::AstBuilder& b, const std::string& digit,
             const std::vector<Value>& entries) {
  const char* select = entries[0].type() == Type::U64   ? "select_u64"
                       : entries[0].type() == Type::F64 ? "select_f64"
                                                        : "select_str";
  ExprPtr chosen = b.literal(entries.back());
  for (size_t k = entries.size() - 1; k-- > 0;) {
    std::vector<ExprPtr> test;
    test.push_back(b.name(digit));
    test.push_back(b.literal(Value::u64(k)));
    std::vector<ExprPtr> args;
    args.push_back(b.call("u64_eq", std::move(test)));
    args.push_back(b.literal(entries[k]));
    args.push_back(std::move(chosen));
    chosen = b.call(select, std::move(args));
  }
  return chosen;
}

// A name no statement of the body binds or reads, for the row input.
std::string fresh_name(const syntax::Ast& ast, const std::vector<std::string>& elements) {
  std::set<std::string> used(elements.begin(), elements.end());
  for (const syntax::Stmt& s : ast.statements) used.insert(s.names.begin(), s.names.end());
  for (const syntax::Stmt& s : ast.statements) {
    if (!s.expr) continue;
    syntax::walk(*s.expr, [&](const Expr& e) {
      if (e.kind == ExprKind::Ident) used.insert(e.text);
    });
  }
  std::string n = "tuple_row";
  while (used.count(n)) n += "_";
  return n;
}

}  // namespace

std::optional<LatticeBodyAst> lattice_body_ast(const comprehension::Comprehension& c,
                                               syntax::Ast ast, syntax::SourcePos at) {
  if (!c.alternatives.empty() || c.where || (c.order && c.order->strategy != "lex")) {
    return std::nullopt;
  }
  std::vector<Axis> axes;
  uint64_t total = 1;
  for (const comprehension::Clause& clause : c.clauses) {
    if (clause.zip != comprehension::Clause::Zip::None) return std::nullopt;
    std::optional<Axis> axis = axis_of(clause.sources[0]);
    if (!axis || axis->size == 0 || total > ~uint64_t{0} / axis->size) return std::nullopt;
    total *= axis->size;
    axes.push_back(std::move(*axis));
  }
  const uint64_t tuples = c.order && c.order->count ? std::min(*c.order->count, total) : total;
  if (tuples == 0) return std::nullopt;

  const std::vector<std::string> elements = comprehension::element_names(c);
  const syntax::AstBuilder b(at);
  const std::string row = fresh_name(ast, elements);
  std::vector<syntax::Stmt> head;
  syntax::Stmt inputs = b.statement(syntax::StmtKind::Input, row);
  inputs.names.push_back("cycle");
  inputs.name_pos.push_back(at);
  head.push_back(std::move(inputs));
  // The tuple's position, then each element's digit in the mixed radix of
  // the axis sizes (the rightmost fastest) and its value.
  head.push_back(
      b.binding("__position", b.binary("%", b.name(row), b.literal(Value::u64(tuples))), true));
  uint64_t stride = total;
  for (size_t k = 0; k < axes.size(); ++k) {
    const Axis& axis = axes[k];
    stride /= axis.size;
    const std::string digit = "__digit_" + elements[k];
    head.push_back(
        b.binding(digit,
                  b.binary("%", b.binary("/", b.name("__position"), b.literal(Value::u64(stride))),
                           b.literal(Value::u64(axis.size))),
                  true));
    ExprPtr value = axis.progression
                        ? b.binary("+", b.literal(Value::u64(axis.progression->first)),
                                   b.binary("*", b.name(digit),
                                            b.literal(Value::u64(axis.progression->second))))
                        : pick(b, digit, axis.entries);
    head.push_back(b.binding(elements[k], std::move(value), false));
  }
  std::move(ast.statements.begin(), ast.statements.end(), std::back_inserter(head));
  ast.statements = std::move(head);
  return LatticeBodyAst{std::move(ast), tuples};
}

}  // namespace polyrt

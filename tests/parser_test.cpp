#include <gtest/gtest.h>

#include "nodes/registry.hpp"
#include "polyrt/error.hpp"
#include "syntax/ast.hpp"
#include "syntax/tree_walk.hpp"

namespace polyrt::syntax {
namespace {

// Fully parenthesized rendering of an expression, to check the tree shape.
std::string show(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int:
      return std::to_string(e.u);
    case ExprKind::Float:
      return std::to_string(e.f).substr(0, 4);
    case ExprKind::Str:
      return "\"" + e.text + "\"";
    case ExprKind::Ident:
      return e.text;
    case ExprKind::Array:
      return "[" + std::to_string(e.args.size()) + "]";
    case ExprKind::Binary:
      return "(" + show(*e.args[0]) + " " + e.text + " " + show(*e.args[1]) + ")";
    case ExprKind::Unary:
      return "(" + e.text + show(*e.args[0]) + ")";
    case ExprKind::Cast:
      return "(" + show(*e.args[0]) + " as " + std::string(type_name(e.cast_type)) + ")";
    case ExprKind::If:
      return "if(" + show(*e.args[0]) + ", " + show(*e.args[1]) + ", " + show(*e.args[2]) + ")";
    case ExprKind::Call: {
      std::string out = e.text + "(";
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i) out += ", ";
        if (!e.arg_names[i].empty()) out += e.arg_names[i] + ": ";
        out += show(*e.args[i]);
      }
      return out + ")";
    }
  }
  return "?";
}

Ast parse_text(const std::string& text) {
  static std::vector<std::unique_ptr<SourceText>> keep;
  keep.push_back(std::make_unique<SourceText>("t.polydat", text));
  return parse(*keep.back(), nodes::comprehension_call_element);
}

std::string expr_of(const std::string& rhs) {
  Ast ast = parse_text("v := " + rhs);
  return show(*ast.statements.at(0).expr);
}

TEST(Parser, PrecedenceFollowsPolydat) {
  EXPECT_EQ(expr_of("a & b == c"), "((a & b) == c)");
  EXPECT_EQ(expr_of("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(expr_of("a < b == c < d"), "((a < b) == (c < d))");
  EXPECT_EQ(expr_of("a || b && c"), "(a || (b && c))");
  EXPECT_EQ(expr_of("a | b ^ c & d"), "(a | (b ^ (c & d)))");
  EXPECT_EQ(expr_of("a << b + c"), "(a << (b + c))");
  EXPECT_EQ(expr_of("2 ** 3 ** 2"), "(2 ** (3 ** 2))");
  EXPECT_EQ(expr_of("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(expr_of("-a ** 2"), "((-a) ** 2)");  // prefix - binds tighter than **
  EXPECT_EQ(expr_of("a + b as f64"), "(a + (b as f64))");
  EXPECT_EQ(expr_of("x as u64 as f64"), "((x as u64) as f64)");
  EXPECT_EQ(expr_of("!a & b"), "((!a) & b)");
}

TEST(Parser, CallsIfAndFields) {
  EXPECT_EQ(expr_of("mod(hash(x), 10)"), "mod(hash(x), 10)");
  EXPECT_EQ(expr_of("f(a, n: 3)"), "f(a, n: 3)");
  EXPECT_EQ(expr_of("if(c, 1, 2)"), "if(c, 1, 2)");
  EXPECT_EQ(expr_of("if c > 0 { 1 } else { 2 }"), "if((c > 0), 1, 2)");
  EXPECT_EQ(expr_of("if (c) { 1 } else if d { 2 } else { 3 }"), "if(c, 1, if(d, 2, 3))");
  EXPECT_EQ(expr_of("q.cursor.idx"), "q__cursor__idx");
}

TEST(Parser, Interpolation) {
  EXPECT_EQ(expr_of("\"id-{x + 1}!\""), "printf(\"id-{}!\", (x + 1))");
  EXPECT_EQ(expr_of("\"{{literal}} {x}\""), "printf(\"{{literal}} {}\", x)");
  EXPECT_EQ(expr_of("\"{x:05}-{x + 1:x}\""), "printf(\"{:05}-{:x}\", x, (x + 1))");
  EXPECT_EQ(expr_of("printf(\"{:05}\", x)"), "printf(\"{:05}\", x)");  // printf's own format
  EXPECT_EQ(expr_of("\"{'a': 1}\""), "\"{'a': 1}\"");  // a quoted body is literal text
  // Literal braces do not depend on whether a placeholder is present.
  EXPECT_EQ(expr_of("\"{{x}}\""), "\"{x}\"");
  EXPECT_EQ(expr_of("\"{{x}} {x}\""), "printf(\"{{x}} {}\", x)");
  EXPECT_EQ(expr_of("\"{'a': 1} {x}\""), "printf(\"{{'a': 1}} {}\", x)");
  EXPECT_EQ(expr_of("\"plain\""), "\"plain\"");
}

// A `{...}` that is neither a placeholder nor an escape is an error at its column.
// polydat's rule: a brace that opens no placeholder leaves the literal as
// written, and polyrt warns at the brace.
TEST(Parser, MalformedPlaceholdersLeaveTheTextWithAWarning) {
  for (const char* bad :
       {"\"{:05}\"", "\"a{}b\"", "\"{x\"", "\"x}\"", "\"{1 +}\"", "\"{y}-{m:02\""}) {
    const Ast ast = parse_text(std::string("v := ") + bad);
    ASSERT_EQ(ast.warnings.size(), 1u) << bad;
    EXPECT_EQ(ast.warnings[0].pos.line, 1u) << bad;
    EXPECT_GE(ast.warnings[0].pos.col, 7u) << bad;
    ASSERT_EQ(ast.statements[0].expr->kind, ExprKind::Str) << bad;
    const std::string written(bad);
    EXPECT_EQ(ast.statements[0].expr->text, written.substr(1, written.size() - 2)) << bad;
  }
}

TEST(Parser, Statements) {
  Ast ast = parse_text(
      "input (a, b: u64)\n"
      "input c\n"
      "extern rate: f64 = 0.5\n"
      "const k := 3 volatile now := current_epoch_millis()\n"
      "(d, e) := mixed_radix(a, 10, 0)\n"
      "pragma strict\n");
  ASSERT_EQ(ast.statements.size(), 7u);
  EXPECT_EQ(ast.statements[0].names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ast.statements[2].kind, StmtKind::Extern);
  EXPECT_TRUE(ast.statements[3].is_const);
  EXPECT_TRUE(ast.statements[4].is_volatile);
  EXPECT_EQ(ast.statements[5].names, (std::vector<std::string>{"d", "e"}));
  EXPECT_EQ(ast.statements[6].kind, StmtKind::Pragma);
}

TEST(Parser, NewlineSeparatesACalleeFromAParenthesizedStatement) {
  Ast ast = parse_text("a := b\n(c, d) := mixed_radix(a, 2, 0)");
  EXPECT_EQ(ast.statements.size(), 2u);
}

TEST(Parser, ModuleDefinitions) {
  Ast ast = parse_text(
      "input cycle\nm(input: u64, scale: f64) -> (v: u64, w: String) := {\n"
      "  h := hash(input)\n  v := h\n  w := \"x\"\n}\nm2() -> (k: u64) := { k := 1 }\n"
      "y := m(cycle, 2.0)\n");
  ASSERT_EQ(ast.modules.size(), 2u);
  const ModuleDef& m = ast.modules[0];
  EXPECT_EQ(m.name, "m");
  ASSERT_EQ(m.params.size(), 2u);
  EXPECT_EQ(m.params[0].name, "input");
  EXPECT_EQ(*m.params[1].type, Type::F64);
  ASSERT_EQ(m.outputs.size(), 2u);
  EXPECT_EQ(*m.outputs[1].type, Type::Str);  // String is str
  EXPECT_EQ(m.body.size(), 3u);
  EXPECT_EQ(m.pos.line, 2);
  EXPECT_TRUE(ast.modules[1].params.empty());
  EXPECT_EQ(ast.statements.size(), 2u);  // the input and y
}

// Traversal bodies and cursor probes compile from copies of the parsed tree:
// a copy must carry every statement's fields and own its expressions.
TEST(Parser, CloneCopiesTheWholeTreeAndSharesNoExpression) {
  const Ast original = parse_text(
      "input cycle\nm(x: u64) -> (v: u64) := { v := hash(x) }\n"
      "extern rows: u64 = 10\nprivate h := hash(cycle) + 1\nshared s: u64 := 0\n"
      "p := for a in 0..3\ncursor c = range(0, rows) over \"0..100%\"\n"
      "for k in 0..2 where k > 0 {\n  y := k * 2\n  for j in 0..4 { z := j }\n}\n");
  Ast copy = clone(original);
  ASSERT_EQ(copy.statements.size(), original.statements.size());
  ASSERT_EQ(copy.modules.size(), 1u);
  EXPECT_EQ(copy.tokens, original.tokens);
  for (size_t i = 0; i < original.statements.size(); ++i) {
    const Stmt& a = original.statements[i];
    const Stmt& b = copy.statements[i];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.names, b.names);
    EXPECT_EQ(a.is_private, b.is_private);
    EXPECT_EQ(a.is_shared, b.is_shared);
    EXPECT_EQ(a.is_producer, b.is_producer);
    EXPECT_EQ(a.comprehension.canonical, b.comprehension.canonical);
    EXPECT_EQ(a.over, b.over);
    EXPECT_EQ(a.over_spec, b.over_spec);
    EXPECT_EQ(a.body.size(), b.body.size());
    ASSERT_EQ(!a.expr, !b.expr);
    if (!a.expr) continue;
    EXPECT_NE(a.expr.get(), b.expr.get());
    EXPECT_EQ(show(*a.expr), show(*b.expr));
    EXPECT_EQ(a.expr->pos.line, b.expr->pos.line);
  }
  const Stmt& traversal = copy.statements.back();
  ASSERT_EQ(traversal.kind, StmtKind::Traversal);
  ASSERT_EQ(traversal.body.size(), 2u);
  EXPECT_EQ(traversal.body[1].body.at(0).names, (std::vector<std::string>{"z"}));
  copy.statements.back().body[0].expr->text = "changed";
  EXPECT_EQ(show(*original.statements.back().body[0].expr), "(k * 2)");
  EXPECT_EQ(copy.modules[0].body.at(0).names, original.modules[0].body.at(0).names);
}

// A copy of a long left spine is made without recursion, as its parse was.
TEST(Parser, CloneOfALongChainDoesNotRecurse) {
  std::string chain = "v := a";
  for (int i = 0; i < 200000; ++i) chain += " + a";
  const Ast original = parse_text(chain);
  const Ast copy = clone(original);
  const Expr* e = copy.statements.at(0).expr.get();
  size_t depth = 0;
  while (e->kind == ExprKind::Binary) {
    e = e->args[0].get();
    ++depth;
  }
  EXPECT_EQ(depth, 200000u);
}

// The walk the passes share: each node before its arguments, in source
// order; a visit may replace a node, and says whether to go into it; a
// chain as long as the file walks without recursion.
TEST(TreeWalk, SourceOrderReplacementAndNoRecursion) {
  Ast ast = parse_text("v := f(a, g(b, c)) + d");
  std::string names;
  walk(static_cast<const Expr&>(*ast.statements.at(0).expr), [&](const Expr& e) {
    if (e.kind == ExprKind::Ident) names += e.text;
  });
  EXPECT_EQ(names, "abcd");
  walk_slots(ast.statements.at(0).expr, [](ExprPtr& e) {
    if (e->kind != ExprKind::Call || e->text != "g") return true;
    auto x = std::make_unique<Expr>();
    x->kind = ExprKind::Call;
    x->text = "h";
    x->args.push_back(std::make_unique<Expr>());
    x->args.back()->kind = ExprKind::Ident;
    x->args.back()->text = "z";
    x->arg_names = {""};
    e = std::move(x);
    return false;  // the replacement is not walked
  });
  EXPECT_EQ(show(*ast.statements.at(0).expr), "(f(a, h(z)) + d)");
  std::string chain = "v := a";
  for (int i = 0; i < 200000; ++i) chain += " + a";
  const Ast long_chain = parse_text(chain);
  size_t idents = 0;
  walk(*long_chain.statements.at(0).expr,
       [&](const Expr& e) { idents += e.kind == ExprKind::Ident; });
  EXPECT_EQ(idents, 200001u);
}

TEST(Parser, Rejections) {
  const char* bad[] = {
      "x = 1",
      "const volatile x := 1",
      "const const x := 1",
      "x: u64 := 1",
      "input ()",
      "v := if c { 1 }",
      "v := f(1",
      "v := (1 + 2",
      "hash(x)",
      "v := ",
      "shared const x := 1",
      "shared shared x := 1",
      "const x: u64 := 1",
      "input x: blob",
      "for k in 1..3\n{ x := k }",
      "v := 1 + for k in 1..3",
      "cursor c = range(0, 3) over",
      "tile t : json := { \"a\": ${ }",
      "extern e: nope",
      "v := 1 as blob",
      "m(a: u64) -> b := { b := a }",
      "m(a) -> (b: u64) := { b := a }",
      "m(a: u64) -> (b: u64) { b := a }",
      "m(a: u64) -> (b: u64) := { b := a ",
      "m(a: u64) -> (b: u64) := { x(c: u64) -> (d: u64) := { d := c } }",
  };
  for (const char* text : bad) EXPECT_THROW(parse_text(text), CompileError) << text;
}

}  // namespace
}  // namespace polyrt::syntax

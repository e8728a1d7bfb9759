// The syntax tree the parser produces. Sugar (block if, interpolation, field
// access) is already rewritten; operators stay operators until the checker
// lowers them to typed nodes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/source.hpp"
#include "polyrt/value.hpp"

namespace polyrt::dsl {

enum class ExprKind : uint8_t {
  Int,     // u
  Float,   // f
  Str,     // text
  Array,   // args; only valid as a whole binding's value
  Ident,   // text
  Call,    // text = callee; args; arg_names ("" for positional)
  Binary,  // text = operator; args[0], args[1]
  Unary,   // text = "-" or "!"; args[0]
  Cast,    // args[0] as cast_type
  If,      // args = cond, then, else
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;
  // Frees the subtree with an explicit stack: a long flat chain (a + a + ...)
  // is a deep left spine, and recursive destruction would overflow the stack.
  ~Expr();

  ExprKind kind;
  SourcePos pos;
  size_t length = 1;  // bytes to underline in diagnostics
  // Nesting depth as written: parentheses, calls, unary operators, `**`,
  // `if`. A left-associative chain (a + b - c) stays at its operands' depth:
  // passes walk its left spine in a loop, so flat is not deep. Bounded by the
  // parser so that no recursive walk overflows the stack.
  int depth = 1;
  uint64_t u = 0;
  double f = 0;
  std::string text;
  std::vector<ExprPtr> args;
  std::vector<std::string> arg_names;
  Type cast_type = Type::U64;
};

enum class StmtKind : uint8_t { Input, Extern, Binding, Pragma };

struct Stmt {
  StmtKind kind;
  SourcePos pos;
  std::vector<std::string> names;  // one, or several for destructuring
  std::vector<SourcePos> name_pos;
  std::optional<Type> type;  // input / extern type
  ExprPtr expr;              // binding value or extern default
  bool is_const = false;
  bool is_volatile = false;
};

struct Ast {
  std::vector<Stmt> statements;
};

// Parses a whole program. Throws CompileError.
Ast parse(const SourceText& source);

}  // namespace polyrt::dsl

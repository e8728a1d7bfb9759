// The syntax tree the parser produces. Sugar (block if, interpolation, field
// access) is already rewritten; operators stay operators until the checker
// lowers them to typed nodes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "comprehension/comprehension.hpp"
#include "polyrt/logical_type.hpp"
#include "polyrt/value.hpp"
#include "syntax/source.hpp"

namespace polyrt::syntax {

// polydat's `select(cond, a, b)`: the if intrinsic under another name (a
// program's own module of that name shadows it).
inline constexpr std::string_view kSelectIntrinsic = "select";
// Nulls on purpose (docs/language.md, "Nulls"): `null_if(cond, value)` and
// `null_with_probability(input, probability, value)`; the checker lowers them.
inline constexpr std::string_view kNullIfIntrinsic = "null_if";
inline constexpr std::string_view kNullWithProbabilityIntrinsic = "null_with_probability";

// Calls the checker lowers itself rather than a node or a module.
inline bool is_intrinsic(std::string_view name) {
  return name == "if" || name == kSelectIntrinsic || name == kNullIfIntrinsic ||
         name == kNullWithProbabilityIntrinsic;
}

// The calls of polydat's legacy table values, which an expansion resolves
// once modules are inlined (expand/table_values.hpp): module inlining lets
// them through as it does nodes'.
inline bool is_table_form(std::string_view name) {
  return name == "alias_table" || name == "lut_sample";
}

enum class ExprKind : uint8_t {
  Int,     // u
  Float,   // f
  Str,     // text
  Array,   // args; only valid as a whole binding's value
  Ident,   // text
  Call,    // text = callee; args; arg_names ("" for positional)
  Binary,  // text = operator; args[0], args[1]
  Unary,   // text = "-" or "!"; args[0]
  Cast,    // args[0] as cast_type, or as cast_logical when it is not none
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
  LogicalType cast_logical;
};

// A deep copy of `e`, every position moved to `origin` (the inlined copy of a
// module body gets its own origin). An explicit stack: a left spine may be as
// long as the file.
ExprPtr clone(const Expr& e, uint32_t origin);
// A deep copy of `e`, positions as they are.
ExprPtr clone(const Expr& e);

enum class StmtKind : uint8_t { Input, Extern, Binding, Pragma, Traversal, Cursor };

// A `tile NAME [: ENCODING] [(OPTIONS)] := BODY` as written: its binding's
// value is compiled from the template once the program is parsed
// (expand/tiles.hpp).
struct TileHeader {
  std::string encoding = "text";  // json, text or csv
  std::string open = "${", close = "}", sigil = "@";
  bool strict = false;
  // polytile_json's structural JSON template (expand/structural_tiles.hpp).
  bool structural = false;
  // The body's raw text in the source: a block, a heredoc or a string
  // literal (the lexer's Tok::TileBody, or polytile's template argument).
  size_t body_offset = 0, body_length = 0;
};

// Everything a statement holds but what it owns (Stmt): plain values, so
// that a copy of a statement (clone) copies them all, whatever is added.
struct StmtFields {
  StmtKind kind;
  SourcePos pos;
  std::vector<std::string> names;  // one, or several for destructuring
  std::vector<SourcePos> name_pos;
  std::optional<Type> type;  // extern type, or a shared binding's annotation
  bool is_const = false;
  bool is_volatile = false;
  bool is_shared = false;
  // `private NAME := ...`: a helper the program's other bindings use, not an
  // output (polyrt's addition; polydat makes every binding an output).
  bool is_private = false;
  // Made by module inlining: a module's parameter, internal binding or
  // output. Not an output of the program; its names are compiler-made.
  bool hidden = false;
  // Hidden bindings: a name the module's signature types (the lowering
  // checks the bound value against it), and what it is in diagnostics
  // ("output 'id' of module 'hashed_id'").
  struct Declared {
    size_t target;  // index into names
    Type type;
    std::string role;
  };
  std::vector<Declared> declared;
  // The hidden binding of a module parameter's expression argument:
  // "parameter 'max' of module 'bounded'".
  std::string role;
  // A binding whose module inlining failed (an unknown function, a bad
  // module call): it stands in for it with a placeholder value, so that the
  // lowering reports this error beside the program's others and skips the
  // bindings that read it.
  std::shared_ptr<const CompileError> deferred_error;
  // A producer, `x := for COMPREHENSION`: a binding whose value is its
  // comprehension (expand/producers.hpp turns it into its canonical text).
  bool is_producer = false;
  // A traversal, `for COMPREHENSION { body }`, or a producer: its
  // comprehension, parsed once (a reference to a producer until the
  // producers' expansion resolves it), and where its text starts and how
  // long it is, for diagnostics; a traversal's body is Stmt::body.
  comprehension::Comprehension comprehension;
  SourcePos comprehension_pos;
  size_t comprehension_length = 0;
  // A cursor, `cursor NAME = range(a, b) [over ELEMENT | over "SPEC"]`: the
  // constructor in `expr`, the element or partition spec it ranges over
  // (empty: none).
  std::string over;
  bool over_spec = false;
  SourcePos over_pos;
  // A tile: a binding whose value its template compiles to.
  std::optional<TileHeader> tile;
};

struct Stmt : StmtFields {
  ExprPtr expr;            // binding value, extern default or cursor constructor
  std::vector<Stmt> body;  // a traversal's statements
};

// One `name: type` of a module signature (no type: a binding a library file
// exports, whose boundary is typed only by the graph it joins).
struct Param {
  std::string name;
  std::optional<Type> type;
  SourcePos pos;
};

// `name(params) -> (outputs) := { body }`.
struct ModuleDef {
  std::string name;
  SourcePos pos;
  std::vector<Param> params;
  std::vector<Param> outputs;
  std::vector<Stmt> body;
};

// Something the parser accepted but the author should know.
struct Warning {
  SourcePos pos;
  size_t length;
  std::string message;
};

struct Ast {
  std::vector<Stmt> statements;
  std::vector<ModuleDef> modules;
  std::vector<Warning> warnings;
  // The program's tokens: a bound on its graph's nodes, reserved up front so
  // that a program of millions of terms never holds two copies of them.
  size_t tokens = 0;
};

// Deep copies of the move-only tree (its expressions are owned once): a
// traversal's body and a cursor bound's probe compile from a copy of the
// parsed program, never from a second parse of its text.
Stmt clone(const Stmt& s);
ModuleDef clone(const ModuleDef& m);
Ast clone(const Ast& ast);

// Parses a whole program into its tree as written: no expansion has run
// (expand/expansions.hpp); `calls` says which node calls its comprehensions
// may take as sources (nodes::comprehension_call_element). Throws
// CompileError.
Ast parse(const SourceText& source, comprehension::CallSources calls);

// Parses the expression in bytes [begin, end) of `source`, which must be
// all of it (a tile's hole). Throws CompileError.
ExprPtr parse_expression(const SourceText& source, size_t begin, size_t end);

}  // namespace polyrt::syntax

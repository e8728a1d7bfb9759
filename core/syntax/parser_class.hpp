// The parser (syntax::parse; parser.hpp's entry points live in parser.cpp), one
// class over four files by responsibility: the program, modules and their
// recovery from syntax errors (parser.cpp), one function per statement form
// (parse_statements.cpp), expressions (parse_expressions.cpp) and string
// literals with their interpolation (parse_strings.cpp). Included by those
// files only.
#pragma once

#include <algorithm>
#include <cstring>

#include "comprehension/comprehension.hpp"
#include "polyrt/error.hpp"
#include "syntax/ast.hpp"
#include "syntax/lexer.hpp"
#include "syntax/reserved_words.hpp"

namespace polyrt::syntax::parsing {

inline ExprPtr make(ExprKind kind, const Token& at) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = at.pos;
  e->length = at.length;
  return e;
}

inline std::string unescape(std::string_view raw, char quote) {
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      const char e = raw[i + 1];
      if (e == 'n') {
        out.push_back('\n');
      } else if (e == 't') {
        out.push_back('\t');
      } else if (e == '\\' || e == quote) {
        out.push_back(e);
      } else {
        out.push_back('\\');
        out.push_back(e);
      }
      ++i;
    } else {
      out.push_back(raw[i]);
    }
  }
  return out;
}

// Deeper expressions are refused: every pass over the tree recurses.
constexpr int kMaxDepth = 256;
// Traversals nest at most this deep (the outermost is level 1): each level
// is a program of its own and multiplies the rows.
constexpr int kMaxTraversalDepth = 8;
// Compile memory grows with the program's terms (about 750 bytes per token,
// measured on a 500k-term sum: 750 MB at the limit): bounded before anything
// is built.
constexpr size_t kMaxTokens = 1'000'000;

class Parser {
 public:
  // `recursion` is the nesting already entered (an interpolation body
  // continues the nesting of the string that holds it).
  // `calls`: the node calls a comprehension may take as a source (null for
  // a parse of expressions only, which hold no comprehension).
  Parser(const SourceText& src, std::vector<Token> tokens, int recursion = 0,
         comprehension::CallSources calls = nullptr)
      : src_(src), t_(std::move(tokens)), recursion_(recursion), calls_(calls) {
    if (t_.size() > kMaxTokens) {
      fail_at(t_[kMaxTokens],
              "the program has more than " + std::to_string(kMaxTokens) +
                  " tokens (names, literals, operators); polyrt compiles programs up to that "
                  "size, which takes up to about 750 MB of memory",
              "split it into several programs, or generate long lists as data (one_of over a "
              "word list, weighted tables)");
    }
  }

  // Every statement's syntax error, not only the first: after one, parsing
  // resumes at the next line that starts a statement, so that a missing
  // ')' does not hide the next line's mistake.
  Ast parse_program();

  // After a syntax error in the statement that began at token `start`: the
  // first token from the failing one on that begins a line and a statement
  // outside any brace the statement opened (a module's or traversal's body
  // is skipped whole), or the end.
  void resume_after_error(size_t start);

  // What to say of a statement that starts with a token no statement
  // starts with: usually ':=' after a name that the line before swallowed,
  // its expression ending in an operator (`b := 3 +` then `d := ...`).
  std::string statement_hint() const;

  // Whether token k reads as a statement's first: a binding's name (or a
  // tuple's parenthesis) before ':=', a modifier, or a statement keyword.
  bool starts_line_statement(size_t k) const;

  // Parses one expression that must use every token (interpolation bodies).
  ExprPtr parse_whole_expression();

 private:
  const Token& peek(size_t k = 0) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  const Token& advance() {
    const Token& t = t_[i_];
    if (i_ + 1 < t_.size()) ++i_;
    return t;
  }
  bool is_ident(const Token& t, const char* word) const {
    return t.kind == Tok::Ident && t.text == word;
  }
  std::string describe(const Token& t) const {
    if (t.kind == Tok::End) return "end of input";
    if (t.kind == Tok::String) return "string \"" + t.text + "\"";
    return "'" + t.text + "'";
  }
  [[noreturn]] void fail_at(const Token& t, const std::string& msg, const std::string& hint = {}) {
    src_.fail(t.pos, msg, t.length, hint);
  }
  const Token& expect(Tok kind, const std::string& context) {
    if (peek().kind != kind) {
      fail_at(peek(), std::string("expected ") + token_name(kind) + " " + context + ", found " +
                          describe(peek()));
    }
    return advance();
  }
  Type parse_type(const std::string& context);

  // At a statement's start, `NAME(` (the parenthesis on the name's line) can
  // only open a module definition: a bare call is not a statement.
  bool starts_module_definition() const;

  // polydat's older anonymous form, `(p: TYPE, ...) -> (...) := { ... }`, a
  // module named after its file; `(a, b) := ...` destructures instead.
  bool starts_anonymous_module() const;

  bool starts_named_module() const;

  // name(p: T, ...) -> (o: T, ...) := { statement* }
  ModuleDef parse_module_definition();

  // The signature and body of a module, from its parameter list on; `at` is
  // where the definition starts.
  ModuleDef parse_module_rest(ModuleDef& m, const Token& at);

  // The name an anonymous module takes: its file's name without directory
  // and extension ("lib/ids.polydat" -> "ids").
  static std::string file_stem(const std::string& file);

  // (name: TYPE, ...), possibly empty.
  std::vector<Param> parse_signature_list(const std::string& what);

  // A statement: the keyword forms, else a binding.
  Stmt parse_statement();

  // `input NAME`, `input NAME: TYPE` or `input (a, b: u64, ...)`.
  Stmt parse_input();

  // `extern NAME: TYPE [= DEFAULT]`.
  Stmt parse_extern();

  // `pragma NAME`.
  Stmt parse_pragma();

  // `[const|volatile|shared|private]... NAME[: TYPE] := VALUE`, or a
  // destructuring `(a, b) := VALUE`; the value an expression, a producer
  // (`for ...`) or a polytile.
  Stmt parse_binding();

  // The modifiers before a binding's name: each once, none contradicting.
  void parse_modifiers(Stmt& s);

  // `(a, b, ...) :=`.
  void parse_destructuring_names(Stmt& s);

  // `NAME :=`, or `NAME: TYPE :=` for a shared binding.
  void parse_binding_name(Stmt& s);

  // Whether the tokens after `tile NAME` are a tile header: the lexer
  // captured a body after them.
  bool starts_tile() const;

  // tile NAME [: json|text|csv] [(delims "O" "C", sigil "S", strict)] := BODY
  Stmt parse_tile();

  std::string tile_delimiter(const std::string& what);

  // NAME := polytile("json"|"text"|"csv", TEMPLATE, open: "O", close: "C",
  // sigil: "S", strict: true): the tile statement under another spelling;
  // the template (a string or a heredoc) is the tile's, not interpolated.
  // NAME := polytile_json(JSON, ...): a structural JSON template
  // (expand/structural_tiles.hpp).
  void parse_polytile(Stmt& s);

  // `x := for COMPREHENSION` or a derivation `y := for x where ... order
  // ...`, the whole value of a binding of one name.
  void parse_producer(Stmt& s);

  // Parses the comprehension `text` into `s` (its syntax error at its
  // place in the source). A producer's name (`for sweep`, `for sweep where
  // ...`) is resolved later, with the producers (expand/producers.hpp).
  void comprehension(Stmt& s, const Token& text);

  // `for COMPREHENSION { statements }`; the `{` must be on the
  // comprehension's line (the comprehension's text ends at the line's end).
  Stmt parse_traversal();

  // polydat's older `init NAME = EXPR`: a const binding (evaluated once per
  // state, reading no coordinate), often of a table value
  // (expand/table_values.hpp). Current polydat refuses the form: a warning says so.
  Stmt parse_legacy_init();

  void parse_input_name(Stmt& s);

  // A statement `KEYWORD NAME ...` of `kind`, its keyword and name taken.
  Stmt keyword_and_name(StmtKind kind);

  // `cursor NAME = CONSTRUCTOR [over NAME]` (what a traversal's body makes
  // of it: program/body_cursors.hpp).
  Stmt parse_cursor();

  [[noreturn]] void refuse_later_construct(const Token& t);

  struct BinaryOp {
    Tok tok;
    int level;
  };

  static int level_of(Tok k);

  // Counts recursion before it happens, so that pathological nesting fails
  // cleanly, not with a stack overflow. Every recursive entry takes one.
  struct DepthGuard {
    Parser& p;
    DepthGuard(Parser& parser, const Token& at) : p(parser) {
      if (++p.recursion_ > kMaxDepth) {
        p.nested_too_deeply_ = true;
        p.fail_at(
            at, "expression nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)",
            "split it into several bindings");
      }
    }
    ~DepthGuard() { --p.recursion_; }
  };

  ExprPtr parse_expr(int min_level = 1);

  void check_depth(const Expr& e, const Token& at);

  ExprPtr parse_unary();

  // A logical type after 'as': its keyword, and a decimal's (precision, scale).
  LogicalType parse_logical_type(LogicalKind kind);

  ExprPtr parse_postfix();

  void parse_call_args(Expr& call);

  ExprPtr parse_block_if(const Token& at, ExprPtr cond);

  ExprPtr parse_if_after_keyword(const Token& kw);

  ExprPtr parse_atom();

  // "a{x}b" becomes printf("a{}b", x) and "{x:05}" printf("{:05}", x). `{{`
  // and `}}` are literal braces, with or without placeholders; a body that
  // starts with a quote is literal text. Any other `{` or `}` is an error at
  // its column: a string never silently keeps a placeholder it did not fill.
  ExprPtr string_literal(const Token& t);

  // Where the placeholder opened at raw[i] closes (raw.size(): never), and
  // the ':' of its format spec, at its own depth outside brackets and
  // quotes (npos: none).
  static std::pair<size_t, size_t> placeholder_close(std::string_view raw, size_t i);

  // `printf(format, args...)`: what a string with placeholders becomes.
  ExprPtr interpolation_call(const Token& t, std::string format, std::vector<ExprPtr> args);

  const SourceText& src_;
  std::vector<Token> t_;
  std::vector<Warning> warnings_;
  int traversal_depth_ = 0;  // the bodies being parsed around the current statement
  size_t i_ = 0;
  int recursion_ = 0;
  comprehension::CallSources calls_ = nullptr;
  bool nested_too_deeply_ = false;  // what made the last failure
};

}  // namespace polyrt::syntax::parsing

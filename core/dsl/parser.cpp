#include <algorithm>
#include <cstring>

#include "comprehension/comprehension.hpp"
#include "dsl/ast.hpp"
#include "dsl/lexer.hpp"
#include "dsl/producer_reference.hpp"
#include "dsl/reserved_words.hpp"
#include "polyrt/error.hpp"

namespace polyrt::dsl {

namespace {

ExprPtr make(ExprKind kind, const Token& at) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = at.pos;
  e->length = at.length;
  return e;
}

std::string unescape(std::string_view raw, char quote) {
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
  Parser(const SourceText& src, std::vector<Token> tokens, int recursion = 0)
      : src_(src), t_(std::move(tokens)), recursion_(recursion) {
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
  Ast parse_program() {
    Ast ast;
    std::vector<CompileError> errors;
    while (peek().kind != Tok::End) {
      const size_t start = i_;
      try {
        if (starts_module_definition()) {
          ast.modules.push_back(parse_module_definition());
        } else {
          ast.statements.push_back(parse_statement());
        }
      } catch (const CompileError& e) {
        errors.push_back(e);
        if (errors.size() == kMostReportedErrors) break;
        resume_after_error(start);
      }
    }
    if (!errors.empty()) throw combined_errors(std::move(errors));
    ast.warnings = std::move(warnings_);
    return ast;
  }

  // After a syntax error in the statement that began at token `start`: the
  // first token from the failing one on that begins a line and a statement
  // outside any brace the statement opened (a module's or traversal's body
  // is skipped whole), or the end.
  void resume_after_error(size_t start) {
    int depth = 0;
    for (size_t k = start; k + 1 < t_.size(); ++k) {
      if (k > start && k >= i_ && depth <= 0 && t_[k].newline_before && starts_line_statement(k)) {
        i_ = k;
        return;
      }
      depth += t_[k].kind == Tok::LBrace ? 1 : t_[k].kind == Tok::RBrace ? -1 : 0;
    }
    i_ = t_.size() - 1;
  }

  // What to say of a statement that starts with a token no statement
  // starts with: usually ':=' after a name that the line before swallowed,
  // its expression ending in an operator (`b := 3 +` then `d := ...`).
  std::string statement_hint() const {
    if (peek().kind == Tok::ColonEq && i_ >= 2 && t_[i_ - 1].newline_before) {
      const Token& op = t_[i_ - 2];
      if (op.kind != Tok::Ident && op.kind != Tok::Int && op.kind != Tok::Float &&
          op.kind != Tok::String && op.kind != Tok::RParen && op.kind != Tok::RBracket &&
          op.kind != Tok::RBrace) {
        return "the line before ends with '" + op.text + "', which carries its expression on to '" +
               t_[i_ - 1].text + "' here: finish that expression";
      }
    }
    return "statements are: input NAME, extern NAME: TYPE, NAME := EXPR, pragma NAME";
  }

  // Whether token k reads as a statement's first: a binding's name (or a
  // tuple's parenthesis) before ':=', a modifier, or a statement keyword.
  bool starts_line_statement(size_t k) const {
    const Token& t = t_[k];
    const Tok next = k + 1 < t_.size() ? t_[k + 1].kind : Tok::End;
    if (t.kind == Tok::LParen) return true;
    if (t.kind != Tok::Ident) return false;
    static constexpr std::string_view kKeywords[] = {"input",    "extern", "for",    "cursor",
                                                     "tile",     "init",   "pragma", "const",
                                                     "volatile", "shared", "private"};
    return next == Tok::ColonEq || next == Tok::Comma || next == Tok::LParen ||
           std::find(std::begin(kKeywords), std::end(kKeywords), t.text) != std::end(kKeywords);
  }

  // Parses one expression that must use every token (interpolation bodies).
  ExprPtr parse_whole_expression() {
    ExprPtr e = parse_expr();
    if (peek().kind != Tok::End) fail_at(peek(), "unexpected " + describe(peek()));
    return e;
  }

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
  Type parse_type(const std::string& context) {
    const Token& t = expect(Tok::Ident, context);
    Type type;
    if (!parse_type_name(t.text, type)) {
      // polydat's other type keywords are known by name.
      static const char* const polydat_only[] = {"Ext",  "ext",    "handle",  "f16",     "u128",
                                                 "i128", "reg128", "vec_f16", "vec_i16", "vec_i8"};
      const bool register_type = t.text.rfind("reg_", 0) == 0;
      for (const char* name : polydat_only) {
        if (t.text == name || register_type) {
          fail_at(t, "polydat's type '" + t.text + "' is not supported by polyrt yet",
                  "valid types: " + std::string(type_names()));
        }
      }
      fail_at(t, "unknown or unsupported type '" + t.text + "'",
              "valid types: " + std::string(type_names()));
    }
    return type;
  }

  // At a statement's start, `NAME(` (the parenthesis on the name's line) can
  // only open a module definition: a bare call is not a statement.
  bool starts_module_definition() const {
    return starts_named_module() || starts_anonymous_module();
  }

  // polydat's older anonymous form, `(p: TYPE, ...) -> (...) := { ... }`, a
  // module named after its file; `(a, b) := ...` destructures instead.
  bool starts_anonymous_module() const {
    return peek().kind == Tok::LParen &&
           ((peek(1).kind == Tok::Ident && peek(2).kind == Tok::Colon) ||
            (peek(1).kind == Tok::RParen && peek(2).kind == Tok::Arrow));
  }

  bool starts_named_module() const {
    if (peek().kind != Tok::Ident || peek(1).kind != Tok::LParen || peek(1).newline_before) {
      return false;
    }
    for (const std::string_view k : kStatementKeywords) {
      if (peek().text == k) return false;
    }
    return true;
  }

  // name(p: T, ...) -> (o: T, ...) := { statement* }
  ModuleDef parse_module_definition() {
    ModuleDef m;
    if (starts_anonymous_module()) {
      m.name = file_stem(src_.file());
      m.pos = peek().pos;
      return parse_module_rest(m, peek());
    }
    const Token& name = advance();
    m.name = name.text;
    m.pos = name.pos;
    if (m.name.rfind("__", 0) == 0) {
      fail_at(name, "names starting with '__' are reserved for the compiler");
    }
    const bool signature =
        peek(1).kind == Tok::RParen || (peek(1).kind == Tok::Ident && peek(2).kind == Tok::Colon);
    if (!signature) {
      fail_at(name, "expected a statement, found a call of '" + m.name + "'",
              "a bare call is not a statement: bind it (NAME := " + m.name +
                  "(...)) or define a module (" + m.name +
                  "(p: TYPE, ...) -> (out: TYPE, ...) := { ... })");
    }
    return parse_module_rest(m, name);
  }

  // The signature and body of a module, from its parameter list on; `at` is
  // where the definition starts.
  ModuleDef parse_module_rest(ModuleDef& m, const Token& at) {
    m.params = parse_signature_list("parameter");
    if (peek().kind != Tok::Arrow) {
      fail_at(peek(),
              "expected '->' and the outputs after the parameters of module '" + m.name +
                  "', found " + describe(peek()),
              "a module is written NAME(p: TYPE, ...) -> (out: TYPE, ...) := { ... }; a bare "
              "call is not a statement");
    }
    advance();
    m.outputs = parse_signature_list("output");
    if (m.outputs.empty()) fail_at(peek(), "module '" + m.name + "' declares no output");
    expect(Tok::ColonEq, "after the outputs of module '" + m.name + "'");
    expect(Tok::LBrace, "to open the body of module '" + m.name + "'");
    while (peek().kind != Tok::RBrace) {
      if (peek().kind == Tok::End) {
        fail_at(at, "the body of module '" + m.name + "' is not closed with '}'");
      }
      if (starts_module_definition()) {
        fail_at(peek(), "module definitions cannot be nested",
                "define '" + peek().text + "' at the top level of the file");
      }
      m.body.push_back(parse_statement());
      if (m.body.back().kind == StmtKind::Traversal) {
        src_.fail(m.body.back().pos,
                  "a traversal compiles in a program or a for body, not in a module's body", 3,
                  "traverse where the module is called, passing the module what it needs");
      }
    }
    advance();
    return std::move(m);
  }

  // The name an anonymous module takes: its file's name without directory
  // and extension ("lib/ids.polydat" -> "ids").
  static std::string file_stem(const std::string& file) {
    const size_t slash = file.find_last_of('/');
    std::string stem = slash == std::string::npos ? file : file.substr(slash + 1);
    const size_t dot = stem.rfind('.');
    return dot == std::string::npos || dot == 0 ? stem : stem.substr(0, dot);
  }

  // (name: TYPE, ...), possibly empty.
  std::vector<Param> parse_signature_list(const std::string& what) {
    std::vector<Param> list;
    expect(Tok::LParen, "to open the " + what + " list");
    if (peek().kind == Tok::RParen) {
      advance();
      return list;
    }
    do {
      const Token& name = expect(Tok::Ident, "as the " + what + " name");
      for (const Param& p : list) {
        if (p.name == name.text) fail_at(name, "duplicate " + what + " '" + name.text + "'");
      }
      expect(Tok::Colon, "after " + what + " '" + name.text + "' (NAME: TYPE)");
      if (is_ident(peek(), "alias_table") && what == "parameter") {
        // A legacy table parameter: bound to a table value, untyped here
        // (expand/table_values.hpp resolves it once the module is inlined).
        advance();
        list.push_back(Param{name.text, std::nullopt, name.pos});
        continue;
      }
      list.push_back(
          Param{name.text, parse_type("for " + what + " '" + name.text + "'"), name.pos});
    } while (peek().kind == Tok::Comma && (advance(), true));
    expect(Tok::RParen, "to close the " + what + " list");
    return list;
  }

  // A statement: the keyword forms, else a binding.
  Stmt parse_statement() {
    const Token& first = peek();
    if (is_ident(first, "input") && peek(1).kind != Tok::ColonEq) return parse_input();
    if (is_ident(first, "extern") && peek(1).kind != Tok::ColonEq) return parse_extern();
    if (is_ident(first, "for") && peek(1).kind == Tok::Comprehension) return parse_traversal();
    if (is_ident(first, "for") && peek(1).kind != Tok::ColonEq) {
      fail_at(first, "'for' needs a comprehension on its line: for NAME in SOURCE { body }");
    }
    if (is_ident(first, "cursor") && peek(1).kind == Tok::Ident && peek(2).kind == Tok::Eq) {
      return parse_cursor();
    }
    if (is_ident(first, "tile") && peek(1).kind == Tok::Ident && starts_tile()) return parse_tile();
    if ((is_ident(first, "cursor") || is_ident(first, "tile")) && peek(1).kind != Tok::ColonEq) {
      refuse_later_construct(first);
    }
    if (is_ident(first, "init") && peek(1).kind == Tok::Ident && peek(2).kind == Tok::Eq) {
      return parse_legacy_init();
    }
    if (is_ident(first, "pragma") && peek(1).kind == Tok::Ident) return parse_pragma();
    return parse_binding();
  }

  // `input NAME`, `input NAME: TYPE` or `input (a, b: u64, ...)`.
  Stmt parse_input() {
    Stmt s;
    s.pos = advance().pos;
    s.kind = StmtKind::Input;
    if (peek().kind == Tok::LParen) {
      const Token& open = advance();
      if (peek().kind == Tok::RParen) fail_at(open, "'input ()' declares no input");
      do {
        parse_input_name(s);
      } while (peek().kind == Tok::Comma && (advance(), true));
      expect(Tok::RParen, "to close the input list");
    } else {
      parse_input_name(s);
    }
    return s;
  }

  // `extern NAME: TYPE [= DEFAULT]`.
  Stmt parse_extern() {
    Stmt s;
    s.pos = advance().pos;
    s.kind = StmtKind::Extern;
    const Token& name = expect(Tok::Ident, "after 'extern'");
    s.names.push_back(name.text);
    s.name_pos.push_back(name.pos);
    expect(Tok::Colon, "after the extern name (extern NAME: TYPE [= default])");
    s.type = parse_type("for the extern");
    if (peek().kind == Tok::Eq) {
      advance();
      s.expr = parse_expr();
    }
    return s;
  }

  // `pragma NAME`.
  Stmt parse_pragma() {
    Stmt s;
    s.pos = advance().pos;
    s.kind = StmtKind::Pragma;
    const Token& name = advance();
    s.names.push_back(name.text);
    s.name_pos.push_back(name.pos);
    return s;
  }

  // `[const|volatile|shared|private]... NAME[: TYPE] := VALUE`, or a
  // destructuring `(a, b) := VALUE`; the value an expression, a producer
  // (`for ...`) or a polytile.
  Stmt parse_binding() {
    Stmt s;
    s.pos = peek().pos;
    s.kind = StmtKind::Binding;
    parse_modifiers(s);
    if (peek().kind == Tok::LParen) {
      parse_destructuring_names(s);
    } else {
      parse_binding_name(s);
    }
    if (is_ident(peek(), "for") && peek(1).kind == Tok::Comprehension) {
      parse_producer(s);
      return s;
    }
    if ((is_ident(peek(), "polytile") || is_ident(peek(), "polytile_json")) &&
        peek(1).kind == Tok::LParen && !s.is_shared && s.names.size() == 1) {
      parse_polytile(s);
      return s;
    }
    s.expr = parse_expr();
    return s;
  }

  // The modifiers before a binding's name: each once, none contradicting.
  void parse_modifiers(Stmt& s) {
    while (peek().kind == Tok::Ident && peek(1).kind != Tok::ColonEq &&
           (is_ident(peek(), "const") || is_ident(peek(), "volatile") ||
            is_ident(peek(), "shared") || is_ident(peek(), "private"))) {
      const Token& m = advance();
      bool& flag = m.text == "const"     ? s.is_const
                   : m.text == "shared"  ? s.is_shared
                   : m.text == "private" ? s.is_private
                                         : s.is_volatile;
      if (flag) fail_at(m, "duplicate modifier '" + m.text + "'");
      flag = true;
      if (s.is_const && s.is_volatile) {
        fail_at(m, "'const volatile' is contradictory",
                "a const is evaluated once; a volatile is re-read on every write");
      }
      if (s.is_const && s.is_shared) {
        fail_at(m, "'shared const' is contradictory",
                "a const is fixed for the state's life; a shared cell is written by other scopes");
      }
    }
  }

  // `(a, b, ...) :=`.
  void parse_destructuring_names(Stmt& s) {
    advance();
    do {
      const Token& name = expect(Tok::Ident, "in the destructuring list");
      s.names.push_back(name.text);
      s.name_pos.push_back(name.pos);
    } while (peek().kind == Tok::Comma && (advance(), true));
    expect(Tok::RParen, "to close the destructuring list");
    expect(Tok::ColonEq, "after the destructuring list");
  }

  // `NAME :=`, or `NAME: TYPE :=` for a shared binding.
  void parse_binding_name(Stmt& s) {
    const Token& name = peek();
    if (name.kind != Tok::Ident) {
      fail_at(name, "expected a statement, found " + describe(name), statement_hint());
    }
    advance();
    s.names.push_back(name.text);
    s.name_pos.push_back(name.pos);
    if (peek().kind == Tok::Eq) {
      fail_at(peek(), "expected ':=' after '" + name.text + "', found '='",
              "a binding is written NAME := EXPR");
    }
    if (peek().kind == Tok::Colon) {
      if (!s.is_shared) {
        fail_at(peek(), "a type annotation is only allowed on shared bindings",
                "write " + name.text +
                    " := EXPR; types are inferred (an extern NAME: TYPE "
                    "is the typed slot the host writes)");
      }
      advance();
      s.type = parse_type("for the shared binding");
    }
    if (peek().kind != Tok::ColonEq) {
      fail_at(peek(), "expected ':=' after '" + name.text + "', found " + describe(peek()),
              "a binding is written NAME := EXPR; a bare expression is not a statement");
    }
    advance();
  }

  // Whether the tokens after `tile NAME` are a tile header: the lexer
  // captured a body after them.
  bool starts_tile() const {
    for (size_t k = 2; k < 64; ++k) {
      if (peek(k).kind == Tok::TileBody) return true;
      if (peek(k).kind == Tok::End || (peek(k).newline_before && peek(k).kind != Tok::TileBody)) {
        return false;
      }
    }
    return false;
  }

  // tile NAME [: json|text|csv] [(delims "O" "C", sigil "S", strict)] := BODY
  Stmt parse_tile() {
    Stmt s = keyword_and_name(StmtKind::Binding);
    const std::string& name = s.names[0];
    TileHeader tile;
    if (peek().kind == Tok::Colon) {
      advance();
      const Token& encoding = expect(Tok::Ident, "for the tile's encoding (json, text or csv)");
      if (encoding.text != "json" && encoding.text != "text" && encoding.text != "csv") {
        fail_at(encoding, "unknown tile encoding '" + encoding.text + "'",
                "a tile's encoding is json, text or csv");
      }
      tile.encoding = encoding.text;
    }
    if (peek().kind == Tok::LParen) {
      advance();
      do {
        const Token& option = expect(Tok::Ident, "as a tile option (delims, sigil or strict)");
        if (option.text == "delims") {
          tile.open = tile_delimiter("the opening delimiter");
          tile.close = tile_delimiter("the closing delimiter");
        } else if (option.text == "sigil") {
          tile.sigil = tile_delimiter("the directive sigil");
        } else if (option.text == "strict") {
          tile.strict = true;
        } else {
          fail_at(option, "unknown tile option '" + option.text + "'",
                  "a tile's options are delims \"OPEN\" \"CLOSE\", sigil \"S\" and strict");
        }
      } while (peek().kind == Tok::Comma && (advance(), true));
      expect(Tok::RParen, "to close the tile's options");
    }
    if (peek().kind == Tok::ColonEq) {
      advance();
    } else {
      warnings_.push_back(Warning{s.name_pos[0], name.size(),
                                  "'tile " + name +
                                      "' has polydat's older header without ':='; current "
                                      "polydat requires 'tile " +
                                      name + " := ...'"});
    }
    const Token& body = expect(Tok::TileBody, "as the tile's body");
    tile.body_offset = body.offset;
    tile.body_length = body.length;
    s.tile = std::move(tile);
    return s;
  }

  std::string tile_delimiter(const std::string& what) {
    const Token& t = expect(Tok::String, "as " + what);
    if (t.text.empty()) fail_at(t, what + " cannot be empty");
    return t.text;
  }

  // NAME := polytile("json"|"text"|"csv", TEMPLATE, open: "O", close: "C",
  // sigil: "S", strict: true): the tile statement under another spelling;
  // the template (a string or a heredoc) is the tile's, not interpolated.
  // NAME := polytile_json(JSON, ...): a structural JSON template
  // (expand/structural_tiles.hpp).
  void parse_polytile(Stmt& s) {
    const Token& callee = advance();
    advance();  // '('
    TileHeader tile;
    if (callee.text == "polytile_json") {
      tile.encoding = "json";
      tile.structural = true;
    } else {
      const Token& encoding =
          expect(Tok::String, "as polytile's encoding (\"json\", \"text\" or \"csv\")");
      if (encoding.text != "json" && encoding.text != "text" && encoding.text != "csv") {
        fail_at(encoding, "unknown tile encoding '" + encoding.text + "'",
                "a tile's encoding is json, text or csv");
      }
      tile.encoding = encoding.text;
      expect(Tok::Comma, "after polytile's encoding");
    }
    const Token& body =
        expect(Tok::String, "as " + callee.text + "'s template (a string or a <<< heredoc >>>)");
    tile.body_offset = body.offset;
    tile.body_length = body.length;
    while (peek().kind == Tok::Comma) {
      advance();
      const Token& option = expect(Tok::Ident, "as a polytile option (open, close, sigil, strict)");
      expect(Tok::Colon, "after polytile's option '" + option.text + "'");
      if (option.text == "open" || option.text == "close" || option.text == "sigil") {
        (option.text == "open"    ? tile.open
         : option.text == "close" ? tile.close
                                  : tile.sigil) = tile_delimiter("polytile's " + option.text);
      } else if (option.text == "strict") {
        const Token& flag = expect(Tok::Ident, "as polytile's strict (true or false)");
        if (flag.text != "true" && flag.text != "false") fail_at(flag, "strict is true or false");
        tile.strict = flag.text == "true";
      } else {
        fail_at(option, "polytile has no option '" + option.text + "'",
                "its options are open:, close:, sigil: and strict:");
      }
    }
    expect(Tok::RParen, "to close the arguments of '" + callee.text + "'");
    s.tile = std::move(tile);
  }

  // `x := for COMPREHENSION` or a derivation `y := for x where ... order
  // ...`, the whole value of a binding of one name.
  void parse_producer(Stmt& s) {
    const Token& keyword = advance();
    if (s.names.size() != 1 || s.is_shared || s.is_volatile) {
      fail_at(keyword, "a 'for' producer is bound to one plain name: x := for a in 0..3");
    }
    const Token& text = advance();
    check_comprehension(text);
    s.is_producer = true;
    s.comprehension = text.text;
    s.comprehension_pos = text.pos;
  }

  // A comprehension's syntax error, at its place in the source. A
  // producer's name (`for sweep`, `for sweep where ...`) is resolved later,
  // with the producers (expand/producers.hpp).
  void check_comprehension(const Token& text) {
    if (is_producer_reference(text.text)) return;
    const comprehension::Parsed parsed = comprehension::parse(text.text);
    if (!parsed.error) return;
    src_.fail(src_.position_of(text.offset + parsed.error->offset), parsed.error->message, 1,
              parsed.error->hint);
  }

  // `for COMPREHENSION { statements }`; the `{` must be on the
  // comprehension's line (the comprehension's text ends at the line's end).
  Stmt parse_traversal() {
    Stmt s;
    s.kind = StmtKind::Traversal;
    s.pos = advance().pos;
    const Token& text = advance();
    check_comprehension(text);
    s.comprehension = text.text;
    s.comprehension_pos = text.pos;
    if (peek().kind != Tok::LBrace || peek().newline_before) {
      fail_at(peek(), "a traversal's body opens with '{' on the line of its comprehension",
              "for a in 0..3 { v := a * 10 }; a producer is bound whole: x := for a in 0..3");
    }
    advance();
    while (peek().kind != Tok::RBrace) {
      if (peek().kind == Tok::End) fail_at(peek(), "the traversal's body has no closing '}'");
      if (starts_module_definition()) {
        fail_at(peek(), "a module cannot be defined inside a traversal's body",
                "define it at the top level; the body sees it");
      }
      // Refused here, before a body is parsed within a body: the recursion
      // is bounded whatever the text.
      if (is_ident(peek(), "for") && peek(1).kind == Tok::Comprehension &&
          traversal_depth_ + 1 >= kMaxTraversalDepth) {
        fail_at(peek(), "traversals nest at most " + std::to_string(kMaxTraversalDepth) +
                            " deep (each level multiplies the rows)");
      }
      ++traversal_depth_;
      s.body.push_back(parse_statement());
      --traversal_depth_;
    }
    advance();
    return s;
  }

  // polydat's older `init NAME = EXPR`: a const binding (evaluated once per
  // state, reading no coordinate), often of a table value
  // (expand/table_values.hpp). Current polydat refuses the form: a warning says so.
  Stmt parse_legacy_init() {
    const Token& keyword = advance();
    Stmt s;
    s.kind = StmtKind::Binding;
    s.pos = keyword.pos;
    s.is_const = true;
    const Token& name = advance();
    s.names.push_back(name.text);
    s.name_pos.push_back(name.pos);
    advance();  // '='
    warnings_.push_back(Warning{keyword.pos, keyword.length,
                                "'init " + name.text +
                                    " = ...' is polydat's legacy form, which current polydat "
                                    "refuses; polyrt reads it as 'const " +
                                    name.text + " := ...'"});
    s.expr = parse_expr();
    return s;
  }

  void parse_input_name(Stmt& s) {
    const Token& name = expect(Tok::Ident, "as the input name");
    s.names.push_back(name.text);
    s.name_pos.push_back(name.pos);
    if (peek().kind == Tok::Colon) {
      advance();
      const Token& at = expect(Tok::Ident, "for the input's type");
      // polydat's annotation of a coordinate is advisory: every coordinate
      // is a u64. Any numeric type it names is accepted, with a warning.
      static const char* const numeric[] = {"u8",  "u16", "u32",  "u64", "u128", "i8", "i16",
                                            "i32", "i64", "i128", "f16", "f32",  "f64"};
      bool known = false;
      for (const char* n : numeric) known = known || at.text == n;
      if (!known) {
        fail_at(at, "a coordinate input cannot have type '" + at.text + "'",
                "coordinates are u64; an annotation may name a numeric type "
                "(u8..u128, i8..i128, f16, f32, f64), which is advisory");
      }
      if (at.text != "u64") {
        warnings_.push_back(Warning{at.pos, at.length,
                                    "input '" + name.text + "' is annotated " + at.text +
                                        ", but coordinates are always u64 (the annotation is "
                                        "advisory)"});
      }
    }
  }

  // A statement `KEYWORD NAME ...` of `kind`, its keyword and name taken.
  Stmt keyword_and_name(StmtKind kind) {
    Stmt s;
    s.kind = kind;
    s.pos = advance().pos;
    const Token& name = advance();
    s.names.push_back(name.text);
    s.name_pos.push_back(name.pos);
    return s;
  }

  // `cursor NAME = CONSTRUCTOR [over NAME]` (what a traversal's body makes
  // of it: program/body_cursors.hpp).
  Stmt parse_cursor() {
    Stmt s = keyword_and_name(StmtKind::Cursor);
    advance();  // '='
    s.expr = parse_expr();
    if (is_ident(peek(), "over") && !peek().newline_before) {
      advance();
      s.over_spec = peek().kind == Tok::String;
      const Token& over =
          s.over_spec ? advance()
                      : expect(Tok::Ident, "after 'over' (a partition element or a spec string)");
      s.over = over.text;
      s.over_pos = over.pos;
      // A field, `over q1.cursor`: another cursor's partition.
      while (!s.over_spec && peek().kind == Tok::Dot && peek(1).kind == Tok::Ident) {
        advance();
        s.over += "__" + advance().text;
      }
    }
    return s;
  }

  [[noreturn]] void refuse_later_construct(const Token& t) {
    if (t.text == "tile") {
      fail_at(t, "expected a tile: tile NAME [: json|text|csv] [(OPTIONS)] := BODY",
              "the body is a block { ... }, a heredoc <<< ... >>> or a string");
    }
    fail_at(t, "'cursor' declarations are not supported by polyrt yet",
            "see docs/language.md, \"Not supported yet\"");
  }

  struct BinaryOp {
    Tok tok;
    int level;
  };

  static int level_of(Tok k) {
    switch (k) {
      case Tok::OrOr:
        return 1;
      case Tok::AndAnd:
        return 2;
      case Tok::EqEq:
      case Tok::NotEq:
        return 3;
      case Tok::Lt:
      case Tok::Gt:
      case Tok::Le:
      case Tok::Ge:
        return 4;
      case Tok::Pipe:
        return 5;
      case Tok::Caret:
        return 6;
      case Tok::Amp:
        return 7;
      case Tok::Shl:
      case Tok::Shr:
        return 8;
      case Tok::Plus:
      case Tok::Minus:
        return 9;
      case Tok::Star:
      case Tok::Slash:
      case Tok::Percent:
        return 10;
      case Tok::StarStar:
        return 11;
      default:
        return 0;
    }
  }

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

  ExprPtr parse_expr(int min_level = 1) {
    DepthGuard guard(*this, peek());
    ExprPtr lhs = parse_unary();
    while (true) {
      const Token& op = peek();
      const int level = level_of(op.kind);
      if (level == 0 || level < min_level) return lhs;
      advance();
      // ** is right-associative; everything else is left-associative.
      ExprPtr rhs = parse_expr(op.kind == Tok::StarStar ? level : level + 1);
      ExprPtr bin = make(ExprKind::Binary, op);
      bin->text = op.text;
      // A left-associative chain is flat: its spine adds no nesting.
      bin->depth = op.kind == Tok::StarStar ? 1 + std::max(lhs->depth, rhs->depth)
                                            : std::max(lhs->depth, 1 + rhs->depth);
      bin->args.push_back(std::move(lhs));
      bin->args.push_back(std::move(rhs));
      lhs = std::move(bin);
      check_depth(*lhs, op);
    }
  }

  void check_depth(const Expr& e, const Token& at) {
    if (e.depth > kMaxDepth) {
      nested_too_deeply_ = true;
      fail_at(at,
              "expression nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)",
              "split it into several bindings");
    }
  }

  ExprPtr parse_unary() {
    if (peek().kind == Tok::Minus || peek().kind == Tok::Bang) {
      DepthGuard guard(*this, peek());
      const Token& op = advance();
      ExprPtr e = make(ExprKind::Unary, op);
      e->text = op.text;
      e->args.push_back(parse_unary());
      e->depth = 1 + e->args[0]->depth;
      return e;
    }
    return parse_postfix();
  }

  // A logical type after 'as': its keyword, and a decimal's (precision, scale).
  LogicalType parse_logical_type(LogicalKind kind) {
    advance();
    if (kind != LogicalKind::Decimal) return LogicalType{kind};
    expect(Tok::LParen, "after 'decimal' (decimal(precision, scale), e.g. decimal(12, 2))");
    const auto digits = [&](const char* what, uint64_t lo, uint64_t hi) {
      const Token& t = expect(Tok::Int, std::string("for the decimal's ") + what);
      if (t.u < lo || t.u > hi) {
        fail_at(t,
                "a decimal's " + std::string(what) + " must be in " + std::to_string(lo) + ".." +
                    std::to_string(hi) + ", got " + t.text,
                "a decimal's unscaled value is an i64: at most " +
                    std::to_string(kMaxDecimalPrecision) + " digits, e.g. decimal(12, 2)");
      }
      return (int)t.u;
    };
    const int precision = digits("precision", 1, kMaxDecimalPrecision);
    expect(Tok::Comma, "between the decimal's precision and scale");
    const int scale = digits("scale", 0, (uint64_t)precision);
    expect(Tok::RParen, "to close the decimal's (precision, scale)");
    return LogicalType::decimal(precision, scale);
  }

  ExprPtr parse_postfix() {
    ExprPtr e = parse_atom();
    while (is_ident(peek(), "as") && peek(1).kind == Tok::Ident && peek(2).kind != Tok::ColonEq) {
      const Token& as = advance();
      ExprPtr cast = make(ExprKind::Cast, as);
      if (auto kind = logical_kind_named(peek().text)) {
        cast->cast_logical = parse_logical_type(*kind);
        cast->cast_type = physical_type(cast->cast_logical);
      } else {
        cast->cast_type = parse_type("after 'as'");
      }
      cast->depth = 1 + e->depth;
      cast->args.push_back(std::move(e));
      check_depth(*cast, as);
      e = std::move(cast);
    }
    return e;
  }

  void parse_call_args(Expr& call) {
    expect(Tok::LParen, "to start the arguments");
    if (peek().kind != Tok::RParen) {
      do {
        if (peek().kind == Tok::Ident && peek(1).kind == Tok::Colon) {
          call.arg_names.push_back(advance().text);
          advance();
        } else {
          call.arg_names.emplace_back();
        }
        if ((call.text == "printf" || call.text == "streamer") && call.args.empty() &&
            peek().kind == Tok::String &&
            (peek(1).kind == Tok::Comma || peek(1).kind == Tok::RParen)) {
          // printf's own format keeps its meaning: placeholders are its own
          // (and a streamer's comprehension its {name} references).
          const Token& format = advance();
          ExprPtr e = make(ExprKind::Str, format);
          e->text = format.text;
          call.args.push_back(std::move(e));
          continue;
        }
        call.args.push_back(parse_expr());
        call.depth = std::max(call.depth, 1 + call.args.back()->depth);
      } while (peek().kind == Tok::Comma && (advance(), true));
    }
    expect(Tok::RParen, "to close the arguments of '" + call.text + "'");
  }

  ExprPtr parse_block_if(const Token& at, ExprPtr cond) {
    ExprPtr e = make(ExprKind::If, at);
    e->args.push_back(std::move(cond));
    expect(Tok::LBrace, "to open the 'if' branch");
    e->args.push_back(parse_expr());
    e->depth = 1 + std::max(e->args[0]->depth, e->args[1]->depth);
    expect(Tok::RBrace, "to close the 'if' branch");
    if (!is_ident(peek(), "else"))
      fail_at(peek(), "'if' needs an 'else' branch", "if C { A } else { B }");
    advance();
    if (is_ident(peek(), "if")) {
      const Token& nested = advance();
      e->args.push_back(parse_if_after_keyword(nested));
    } else {
      expect(Tok::LBrace, "to open the 'else' branch");
      e->args.push_back(parse_expr());
      expect(Tok::RBrace, "to close the 'else' branch");
    }
    e->depth = std::max(e->depth, 1 + e->args[2]->depth);
    check_depth(*e, at);
    return e;
  }

  ExprPtr parse_if_after_keyword(const Token& kw) {
    DepthGuard guard(*this, kw);
    if (peek().kind == Tok::LParen && !peek().newline_before) {
      Expr call;
      call.text = "if";
      parse_call_args(call);
      if (peek().kind == Tok::LBrace && call.args.size() == 1) {
        return parse_block_if(kw, std::move(call.args[0]));
      }
      if (call.args.size() != 3) {
        fail_at(kw,
                "if(cond, then, else) takes 3 arguments, got " + std::to_string(call.args.size()));
      }
      ExprPtr e = make(ExprKind::If, kw);
      e->args = std::move(call.args);
      e->depth = call.depth;
      return e;
    }
    ExprPtr cond = parse_expr();
    return parse_block_if(kw, std::move(cond));
  }

  ExprPtr parse_atom() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::Int: {
        advance();
        ExprPtr e = make(ExprKind::Int, t);
        e->u = t.u;
        return e;
      }
      case Tok::Float: {
        advance();
        ExprPtr e = make(ExprKind::Float, t);
        e->f = t.f;
        return e;
      }
      case Tok::String:
        advance();
        return string_literal(t);
      case Tok::LParen: {
        advance();
        ExprPtr e = parse_expr();
        expect(Tok::RParen, "to close '('");
        return e;
      }
      case Tok::LBracket: {
        advance();
        ExprPtr e = make(ExprKind::Array, t);
        if (peek().kind != Tok::RBracket) {
          do {
            e->args.push_back(parse_expr());
          } while (peek().kind == Tok::Comma && (advance(), true));
        }
        expect(Tok::RBracket, "to close the array");
        return e;
      }
      case Tok::Ident: {
        advance();
        if (t.text == "if") return parse_if_after_keyword(t);
        if (t.text == "for" && peek().kind == Tok::Comprehension) {
          fail_at(t, "a 'for' producer compiles only as the whole value of a binding",
                  "bind it, x := for a in 0..3, and interpolate it where text is wanted: \"{x}\"");
        }
        if (peek().kind == Tok::LParen && !peek().newline_before) {
          ExprPtr e = make(ExprKind::Call, t);
          e->text = t.text;
          parse_call_args(*e);
          check_depth(*e, t);
          return e;
        }
        ExprPtr e = make(ExprKind::Ident, t);
        e->text = t.text;
        while (peek().kind == Tok::Dot && peek(1).kind == Tok::Ident) {
          advance();
          e->text += "__" + advance().text;
        }
        return e;
      }
      default:
        fail_at(t, "expected an expression, found " + describe(t));
    }
  }

  // "a{x}b" becomes printf("a{}b", x) and "{x:05}" printf("{:05}", x). `{{`
  // and `}}` are literal braces, with or without placeholders; a body that
  // starts with a quote is literal text. Any other `{` or `}` is an error at
  // its column: a string never silently keeps a placeholder it did not fill.
  ExprPtr string_literal(const Token& t) {
    if (src_.text().compare(t.offset, 3, "<<<") == 0) {
      ExprPtr plain = make(ExprKind::Str, t);
      plain->text = t.text;
      return plain;
    }
    const size_t base = t.offset + 1;
    const std::string_view raw = std::string_view(src_.text()).substr(base, t.length - 2);
    const char quote = src_.text()[t.offset];
    // polydat's rule: a brace that opens no placeholder (a '{' never closed,
    // a '}' that closes nothing, a body that is not an expression: a format
    // spec such as {:05}, a metricsql selector such as {job="x"}) leaves the
    // whole literal as written; polyrt says so in a warning.
    std::optional<std::pair<size_t, std::string>> not_placeholder;
    auto give_up = [&](size_t at, std::string why) { not_placeholder.emplace(at, std::move(why)); };
    std::string format;   // printf's format: literal braces stay doubled
    std::string literal;  // the text when there is no placeholder
    std::vector<ExprPtr> args;
    size_t piece = 0;
    auto take_piece = [&](size_t end) {
      const std::string text = unescape(raw.substr(piece, end - piece), quote);
      format += text;
      for (size_t k = 0; k < text.size(); ++k) {
        literal.push_back(text[k]);
        if ((text[k] == '{' || text[k] == '}') && k + 1 < text.size() && text[k + 1] == text[k])
          ++k;
      }
    };
    for (size_t i = 0; i < raw.size() && !not_placeholder; ++i) {
      if (raw[i] == '\\') {
        ++i;
        continue;
      }
      if ((raw[i] == '{' || raw[i] == '}') && i + 1 < raw.size() && raw[i + 1] == raw[i]) {
        ++i;
        continue;
      }
      if (raw[i] == '}') {
        give_up(i, "its '}' closes no placeholder");
        break;
      }
      if (raw[i] != '{') continue;
      const auto [j, colon] = placeholder_close(raw, i);
      if (j >= raw.size()) {
        give_up(i, "its '{' is never closed");
        break;
      }
      take_piece(i);
      const std::string_view body = raw.substr(i + 1, j - i - 1);
      const size_t lead = body.find_first_not_of(" \t");
      if (lead != std::string_view::npos && (body[lead] == '"' || body[lead] == '\'')) {
        // A quoted body is literal text, braces included.
        const std::string text = unescape(body, quote);
        format += "{{" + text + "}}";
        literal += "{" + text + "}";
        piece = j + 1;
        i = j;
        continue;
      }
      const size_t expr_end = colon == std::string_view::npos ? j : colon;
      const std::string_view expr_text = raw.substr(i + 1, expr_end - i - 1);
      const std::string placeholder(raw.substr(i, j - i + 1));
      if (expr_text.find_first_not_of(" \t") == std::string_view::npos) {
        give_up(i, "'" + placeholder + "' has no expression");
        break;
      }
      // Nesting past the limit is an error wherever it is, not text.
      std::optional<Parser> sub;
      try {
        sub.emplace(src_, tokenize(src_, base + i + 1, base + expr_end), recursion_);
        args.push_back(sub->parse_whole_expression());
      } catch (const CompileError&) {
        if (sub && sub->nested_too_deeply_) throw;
        give_up(i, "'" + placeholder + "' does not hold an expression");
        break;
      }
      format += colon == std::string_view::npos
                    ? "{}"
                    : "{" + std::string(raw.substr(colon, j - colon)) + "}";
      piece = j + 1;
      i = j;
    }
    if (not_placeholder) {
      warnings_.push_back(Warning{src_.position_of(base + not_placeholder->first), 1,
                                  "this string is text as written: " + not_placeholder->second +
                                      " (polydat's rule); write {{ and }} for literal braces, "
                                      "{name} or {expression[:spec]} for a placeholder"});
      ExprPtr plain = make(ExprKind::Str, t);
      plain->text = unescape(raw, quote);
      return plain;
    }
    take_piece(raw.size());
    if (args.empty()) {
      ExprPtr plain = make(ExprKind::Str, t);
      plain->text = std::move(literal);
      return plain;
    }
    return interpolation_call(t, std::move(format), std::move(args));
  }

  // Where the placeholder opened at raw[i] closes (raw.size(): never), and
  // the ':' of its format spec, at its own depth outside brackets and
  // quotes (npos: none).
  static std::pair<size_t, size_t> placeholder_close(std::string_view raw, size_t i) {
    size_t depth = 0, j = i, colon = std::string_view::npos;
    int parens = 0;
    char in_quote = 0;
    for (; j < raw.size(); ++j) {
      const char c = raw[j];
      if (in_quote) {
        if (c == in_quote) in_quote = 0;
      } else if (c == '"' || c == '\'') {
        in_quote = c;
      } else if (c == '(' || c == '[') {
        ++parens;
      } else if (c == ')' || c == ']') {
        --parens;
      } else if (c == ':' && depth == 1 && parens == 0 && colon == std::string_view::npos) {
        colon = j;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && --depth == 0) {
        break;
      }
    }
    return {j, colon};
  }

  // `printf(format, args...)`: what a string with placeholders becomes.
  ExprPtr interpolation_call(const Token& t, std::string format, std::vector<ExprPtr> args) {
    ExprPtr call = make(ExprKind::Call, t);
    call->text = "printf";
    ExprPtr fmt = make(ExprKind::Str, t);
    fmt->text = std::move(format);
    call->args.push_back(std::move(fmt));
    call->arg_names.emplace_back();
    for (auto& a : args) {
      call->depth = std::max(call->depth, 1 + a->depth);
      call->args.push_back(std::move(a));
      call->arg_names.emplace_back();
    }
    return call;
  }

  const SourceText& src_;
  std::vector<Token> t_;
  std::vector<Warning> warnings_;
  int traversal_depth_ = 0;  // the bodies being parsed around the current statement
  size_t i_ = 0;
  int recursion_ = 0;
  bool nested_too_deeply_ = false;  // what made the last failure
};

}  // namespace

Ast parse(const SourceText& source) {
  std::vector<Token> tokens = tokenize(source, 0, source.text().size());
  const size_t count = tokens.size();
  Parser p(source, std::move(tokens));
  Ast ast = p.parse_program();
  ast.tokens = count;
  return ast;
}

ExprPtr parse_expression(const SourceText& source, size_t begin, size_t end) {
  Parser p(source, tokenize(source, begin, end));
  return p.parse_whole_expression();
}

}  // namespace polyrt::dsl

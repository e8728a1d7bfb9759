// The program, modules and recovery from syntax errors; syntax::parse.
#include "syntax/parser_class.hpp"

namespace polyrt::syntax {

namespace parsing {

Ast Parser::parse_program() {
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

void Parser::resume_after_error(size_t start) {
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

std::string Parser::statement_hint() const {
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

bool Parser::starts_line_statement(size_t k) const {
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

ExprPtr Parser::parse_whole_expression() {
  ExprPtr e = parse_expr();
  if (peek().kind != Tok::End) fail_at(peek(), "unexpected " + describe(peek()));
  return e;
}

Type Parser::parse_type(const std::string& context) {
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

bool Parser::starts_module_definition() const {
  return starts_named_module() || starts_anonymous_module();
}

bool Parser::starts_anonymous_module() const {
  return peek().kind == Tok::LParen &&
         ((peek(1).kind == Tok::Ident && peek(2).kind == Tok::Colon) ||
          (peek(1).kind == Tok::RParen && peek(2).kind == Tok::Arrow));
}

bool Parser::starts_named_module() const {
  if (peek().kind != Tok::Ident || peek(1).kind != Tok::LParen || peek(1).newline_before) {
    return false;
  }
  for (const std::string_view k : kStatementKeywords) {
    if (peek().text == k) return false;
  }
  return true;
}

ModuleDef Parser::parse_module_definition() {
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

ModuleDef Parser::parse_module_rest(ModuleDef& m, const Token& at) {
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

std::string Parser::file_stem(const std::string& file) {
  const size_t slash = file.find_last_of('/');
  std::string stem = slash == std::string::npos ? file : file.substr(slash + 1);
  const size_t dot = stem.rfind('.');
  return dot == std::string::npos || dot == 0 ? stem : stem.substr(0, dot);
}

std::vector<Param> Parser::parse_signature_list(const std::string& what) {
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
    list.push_back(Param{name.text, parse_type("for " + what + " '" + name.text + "'"), name.pos});
  } while (peek().kind == Tok::Comma && (advance(), true));
  expect(Tok::RParen, "to close the " + what + " list");
  return list;
}

}  // namespace parsing

using parsing::Parser;

Ast parse(const SourceText& source, comprehension::CallSources calls) {
  std::vector<Token> tokens = tokenize(source, 0, source.text().size());
  const size_t count = tokens.size();
  Parser p(source, std::move(tokens), 0, calls);
  Ast ast = p.parse_program();
  ast.tokens = count;
  return ast;
}

ExprPtr parse_expression(const SourceText& source, size_t begin, size_t end) {
  Parser p(source, tokenize(source, begin, end));
  return p.parse_whole_expression();
}

}  // namespace polyrt::syntax

// One function per statement form: inputs, externs, pragmas, bindings and their modifiers, tiles,
// producers, traversals and cursors.
#include "syntax/parser_class.hpp"

namespace polyrt::syntax::parsing {

Stmt Parser::parse_statement() {
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

Stmt Parser::parse_input() {
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

Stmt Parser::parse_extern() {
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

Stmt Parser::parse_pragma() {
  Stmt s;
  s.pos = advance().pos;
  s.kind = StmtKind::Pragma;
  const Token& name = advance();
  s.names.push_back(name.text);
  s.name_pos.push_back(name.pos);
  return s;
}

Stmt Parser::parse_binding() {
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

void Parser::parse_modifiers(Stmt& s) {
  while (peek().kind == Tok::Ident && peek(1).kind != Tok::ColonEq &&
         (is_ident(peek(), "const") || is_ident(peek(), "volatile") || is_ident(peek(), "shared") ||
          is_ident(peek(), "private"))) {
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

void Parser::parse_destructuring_names(Stmt& s) {
  advance();
  do {
    const Token& name = expect(Tok::Ident, "in the destructuring list");
    s.names.push_back(name.text);
    s.name_pos.push_back(name.pos);
  } while (peek().kind == Tok::Comma && (advance(), true));
  expect(Tok::RParen, "to close the destructuring list");
  expect(Tok::ColonEq, "after the destructuring list");
}

void Parser::parse_binding_name(Stmt& s) {
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

bool Parser::starts_tile() const {
  for (size_t k = 2; k < 64; ++k) {
    if (peek(k).kind == Tok::TileBody) return true;
    if (peek(k).kind == Tok::End || (peek(k).newline_before && peek(k).kind != Tok::TileBody)) {
      return false;
    }
  }
  return false;
}

Stmt Parser::parse_tile() {
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

std::string Parser::tile_delimiter(const std::string& what) {
  const Token& t = expect(Tok::String, "as " + what);
  if (t.text.empty()) fail_at(t, what + " cannot be empty");
  return t.text;
}

void Parser::parse_polytile(Stmt& s) {
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

void Parser::parse_producer(Stmt& s) {
  const Token& keyword = advance();
  if (s.names.size() != 1 || s.is_shared || s.is_volatile) {
    fail_at(keyword, "a 'for' producer is bound to one plain name: x := for a in 0..3");
  }
  s.is_producer = true;
  comprehension(s, advance());
}

void Parser::comprehension(Stmt& s, const Token& text) {
  POLYRT_CHECK(calls_ != nullptr, "a comprehension in a parse of expressions only");
  comprehension::Parsed parsed = comprehension::parse(text.text, calls_);
  if (parsed.error) {
    src_.fail(src_.position_of(text.offset + parsed.error->offset), parsed.error->message, 1,
              parsed.error->hint);
  }
  s.comprehension = std::move(*parsed.comprehension);
  s.comprehension_pos = text.pos;
  s.comprehension_length = text.text.size();
}

Stmt Parser::parse_traversal() {
  Stmt s;
  s.kind = StmtKind::Traversal;
  s.pos = advance().pos;
  comprehension(s, advance());
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

Stmt Parser::parse_legacy_init() {
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

void Parser::parse_input_name(Stmt& s) {
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

Stmt Parser::keyword_and_name(StmtKind kind) {
  Stmt s;
  s.kind = kind;
  s.pos = advance().pos;
  const Token& name = advance();
  s.names.push_back(name.text);
  s.name_pos.push_back(name.pos);
  return s;
}

Stmt Parser::parse_cursor() {
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

[[noreturn]] void Parser::refuse_later_construct(const Token& t) {
  if (t.text == "tile") {
    fail_at(t, "expected a tile: tile NAME [: json|text|csv] [(OPTIONS)] := BODY",
            "the body is a block { ... }, a heredoc <<< ... >>> or a string");
  }
  fail_at(t, "'cursor' declarations are not supported by polyrt yet",
          "see docs/language.md, \"Not supported yet\"");
}

int Parser::level_of(Tok k) {
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

}  // namespace polyrt::syntax::parsing

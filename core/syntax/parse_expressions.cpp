// Expressions: operators by precedence, unary and postfix forms, calls and their arguments, if,
// atoms.
#include "syntax/parser_class.hpp"

namespace polyrt::syntax::parsing {

ExprPtr Parser::parse_expr(int min_level) {
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

void Parser::check_depth(const Expr& e, const Token& at) {
  if (e.depth > kMaxDepth) {
    nested_too_deeply_ = true;
    fail_at(at, "expression nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)",
            "split it into several bindings");
  }
}

ExprPtr Parser::parse_unary() {
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

LogicalType Parser::parse_logical_type(LogicalKind kind) {
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

ExprPtr Parser::parse_postfix() {
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

void Parser::parse_call_args(Expr& call) {
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

ExprPtr Parser::parse_block_if(const Token& at, ExprPtr cond) {
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

ExprPtr Parser::parse_if_after_keyword(const Token& kw) {
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

ExprPtr Parser::parse_atom() {
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

}  // namespace polyrt::syntax::parsing

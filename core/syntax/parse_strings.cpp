// String literals and their `{...}` interpolation.
#include "syntax/parser_class.hpp"

namespace polyrt::syntax::parsing {

ExprPtr Parser::string_literal(const Token& t) {
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
      if ((text[k] == '{' || text[k] == '}') && k + 1 < text.size() && text[k + 1] == text[k]) ++k;
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

std::pair<size_t, size_t> Parser::placeholder_close(std::string_view raw, size_t i) {
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

ExprPtr Parser::interpolation_call(const Token& t, std::string format, std::vector<ExprPtr> args) {
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

}  // namespace polyrt::syntax::parsing

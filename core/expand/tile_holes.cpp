// A tile's `${expr[: type][| format][!]}` holes: the expression, its declared type and its format.
#include "expand/tile_compiler.hpp"

namespace polyrt::expand::tiling {

ExprPtr TileCompiler::expression(size_t a, size_t b, const Elements& elements,
                                 const std::string& what) {
  if (a == b) fail(a, what + " has no expression", 1);
  const size_t from = body_.at[a], to = body_.at[b - 1] + 1;
  if (body_.string_form &&
      std::string_view(src_.text()).substr(from, to - from).find('\\') != std::string_view::npos) {
    fail(a, what + " holds an escape of the tile's string body", b - a,
         "write the tile with a block { ... } or a heredoc <<< ... >>> body, or bind the "
         "expression first and name it in the hole");
  }
  ExprPtr e = parse_expression(src_, from, to);
  substitute(e, elements);
  return e;
}

bool TileCompiler::declared_type(std::string_view name, TileDeclared& out) {
  static const std::pair<std::string_view, TileDeclared> names[] = {
      {"str", TileDeclared::Str}, {"String", TileDeclared::Str}, {"string", TileDeclared::Str},
      {"Str", TileDeclared::Str}, {"bool", TileDeclared::Bool},  {"u64", TileDeclared::U64},
      {"i64", TileDeclared::I64}, {"f64", TileDeclared::F64}};
  for (const auto& [n, t] : names) {
    if (n == name) {
      out = t;
      return true;
    }
  }
  return false;
}

bool TileCompiler::parse_format(std::string_view f, TileFormat& out) {
  const auto number = [](std::string_view digits, uint64_t& n) {
    if (digits.empty() || digits.size() > 4) return false;
    n = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      n = n * 10 + (uint64_t)(c - '0');
    }
    return true;
  };
  using K = TileFormat::Kind;
  if (f == "x" || f == "X") {
    out.kind = f == "x" ? K::Hex : K::UpperHex;
    return true;
  }
  if (f.starts_with('.')) {
    out.kind = K::Precision;
    return number(f.substr(1), out.n) && out.n <= 1074;
  }
  if (f.starts_with('<') || f.starts_with('>')) {
    out.kind = f.front() == '<' ? K::Left : K::Right;
    return number(f.substr(1), out.n);
  }
  out.kind = f.size() > 1 && f.front() == '0' ? K::ZeroPad : K::Right;
  return number(out.kind == K::ZeroPad ? f.substr(1) : f, out.n);
}

size_t TileCompiler::hole(Render& r, size_t i, size_t end, const Elements& elements,
                          JsonState& state) {
  const size_t a0 = i + header_.open.size();
  const size_t close = hole_close(a0, end);
  if (close == std::string::npos) {
    fail(i, "'" + header_.open + "' opens a hole that no '" + header_.close + "' closes",
         header_.open.size(),
         "write " + header_.open + header_.open + " for a literal " + header_.open);
  }
  const std::string hole_text = text().substr(i, close + header_.close.size() - i);
  size_t a = a0, b = close;
  trim(a, b);
  bool raw = false;
  if (b > a && text()[b - 1] == '!') {
    raw = true;
    --b;
    trim(a, b);
  }
  TileFormat format;
  if (const size_t bar = last_at_depth0(a, b, '|'); bar != std::string::npos) {
    size_t fa = bar + 1, fb = b;
    trim(fa, fb);
    const std::string spec = text().substr(fa, fb - fa);
    if (!parse_format(spec, format)) {
      fail(fa, "hole `" + hole_text + "` has an unknown format '" + spec + "'",
           std::max<size_t>(1, fb - fa),
           "a format is .N (decimals), x or X (hex), 0N (zero padded), N or >N (right "
           "aligned), <N (left aligned)");
    }
    b = bar;
    trim(a, b);
  }
  TileDeclared declared = TileDeclared::None;
  if (const size_t colon = last_at_depth0(a, b, ':'); colon != std::string::npos) {
    size_t ta = colon + 1, tb = b;
    trim(ta, tb);
    const std::string type = text().substr(ta, tb - ta);
    if (!declared_type(type, declared)) {
      fail(ta, "hole `" + hole_text + "` declares an unknown type '" + type + "'",
           std::max<size_t>(1, tb - ta), "a hole's type is str, bool, u64, i64 or f64");
    }
    b = colon;
    trim(a, b);
  }
  const std::string what = "hole `" + hole_text + "`";
  ExprPtr value = expression(a, b, elements, what);
  const SourcePos at = src_.position_of(body_.at[i]);
  if (declared == TileDeclared::Bool && !header_.strict) {
    // A truth value, written as a bool is: true or false.
    std::vector<ExprPtr> truth;
    truth.push_back(std::move(value));
    value = call(std::string(nodes::tile_truth_name), std::move(truth), at, hole_text.size());
    declared = TileDeclared::None;
  }
  const auto spliced = value->kind == ExprKind::Ident ? tiles_.find(value->text) : tiles_.end();
  if (spliced != tiles_.end() && spliced->second.encoding == header_.encoding &&
      declared == TileDeclared::None && format.kind == TileFormat::Kind::None) {
    // A splice: the earlier tile's text goes in as it is, as its
    // skeleton would have.
    if (r.skeleton.size() + spliced->second.skeleton.size() > kMaxTileSplicedBytes) {
      fail(i,
           "its splices of earlier tiles make its text longer than " +
               std::to_string(kMaxTileSplicedBytes >> 20) + " MiB",
           hole_text.size(), "splice a tile once, or build the text in fewer steps");
    }
    r.add_argument(std::move(value), spliced->second.skeleton);
    return close + header_.close.size();
  }
  const TileRule rule = raw                         ? TileRule::Raw
                        : json() && state.in_string ? TileRule::JsonString
                        : json()                    ? TileRule::Json
                        : header_.encoding == "csv" ? TileRule::Csv
                                                    : TileRule::Text;
  std::vector<ExprPtr> args;
  args.push_back(std::move(value));
  args.push_back(int_literal((uint64_t)rule, at));
  args.push_back(int_literal((uint64_t)declared, at));
  args.push_back(int_literal((uint64_t)format.kind, at));
  args.push_back(int_literal(format.n, at));
  args.push_back(int_literal(header_.strict ? 1 : 0, at));
  args.push_back(str_literal("tile '" + name_ + "': " + what, at));
  r.add_argument(call(std::string(nodes::tile_encode_name), std::move(args), at, hole_text.size()),
                 "0");
  return close + header_.close.size();
}

bool TileCompiler::is_reference(size_t after, size_t end) const {
  while (after < end && is_space(text()[after])) ++after;
  if (after >= end) return false;
  if (std::string_view("<>=!&|+-*/%)]{,").find(text()[after]) != std::string_view::npos) {
    return true;
  }
  for (std::string_view word : {"order", "sep", "in", "and", "or"}) {
    if (directive(after, word)) return true;
  }
  return false;
}

}  // namespace polyrt::expand::tiling

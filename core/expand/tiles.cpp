#include "expand/tiles.hpp"

#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "comprehension/comprehension.hpp"
#include "comprehension/generators.hpp"
#include "dsl/lexer.hpp"
#include "expand/producers.hpp"
#include "expand/structural_tiles.hpp"
#include "nodes/call_node.hpp"
#include "nodes/registry.hpp"
#include "nodes/tile_holes.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/json_text.hpp"

namespace polyrt::expand {

// The syntax tree these expansions rewrite.
using namespace polyrt::dsl;

namespace {

using nodes::TileDeclared;
using nodes::TileFormat;
using nodes::TileRule;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A tile's body as its template reads it, and where each byte of it is in
// the source (one more entry for its end).
struct BodyText {
  std::string text;
  std::vector<size_t> at;
  bool string_form = false;  // a string literal's escapes were decoded
};

// The layout rules: a heredoc is its text minus one line break at each
// end, a string its decoded text, and a block keeps the author's layout
// minus the common leading whitespace of its lines after the first (so a
// tile indented in a body renders as one at the top level).
BodyText decoded_body(const SourceText& src, const TileHeader& h);

// A tile's body; a structural template's is the template text it stands for.
BodyText body_text(const SourceText& src, const TileHeader& h, const std::string& name) {
  BodyText body = decoded_body(src, h);
  if (!h.structural) return body;
  try {
    TemplateText t = structural_template(body.text, body.at, h);
    body.text = std::move(t.text);
    body.at = std::move(t.at);
  } catch (const StructuralError& e) {
    src.fail(src.position_of(body.at[std::min(e.offset, body.at.size() - 1)]),
             "tile '" + name + "': the structural template: " + e.message);
  }
  body.string_form = true;  // a hole's bytes are a JSON string's
  return body;
}

BodyText decoded_body(const SourceText& src, const TileHeader& h) {
  const std::string_view raw = std::string_view(src.text()).substr(h.body_offset, h.body_length);
  BodyText body;
  const auto push = [&](char c, size_t offset) {
    body.text.push_back(c);
    body.at.push_back(offset);
  };
  if (raw.starts_with("<<<")) {
    const std::string_view inside = raw.substr(3, raw.size() - 6);
    const std::string text = heredoc_text(inside);
    const size_t first =
        h.body_offset + 3 + (size_t)(inside.find(text) == 0 ? 0 : inside.find('\n') + 1);
    for (size_t i = 0; i < text.size(); ++i) push(text[i], first + i);
    body.at.push_back(first + text.size());
    return body;
  }
  if (raw.front() == '"' || raw.front() == '\'') {
    body.string_form = true;
    const char quote = raw.front();
    for (size_t i = 1; i + 1 < raw.size(); ++i) {
      const size_t offset = h.body_offset + i;
      if (raw[i] == '\\' && i + 2 < raw.size()) {
        const char e = raw[i + 1];
        if (e == 'n') {
          push('\n', offset);
        } else if (e == 't') {
          push('\t', offset);
        } else if (e == '\\' || e == quote) {
          push(e, offset);
        } else {
          push('\\', offset);
          push(e, offset + 1);
        }
        ++i;
      } else {
        push(raw[i], offset);
      }
    }
    body.at.push_back(h.body_offset + raw.size() - 1);
    return body;
  }
  // A block: the indentation its lines after the first have in common.
  size_t common = std::string_view::npos;
  for (size_t line = raw.find('\n'); line != std::string_view::npos;
       line = raw.find('\n', line + 1)) {
    size_t k = line + 1;
    while (k < raw.size() && (raw[k] == ' ' || raw[k] == '\t')) ++k;
    if (k < raw.size() && raw[k] != '\n' && raw[k] != '\r') common = std::min(common, k - line - 1);
  }
  if (common == std::string_view::npos) common = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    push(raw[i], h.body_offset + i);
    if (raw[i] == '\n') {
      size_t skip = 0;
      while (skip < common && i + 1 < raw.size() && (raw[i + 1] == ' ' || raw[i + 1] == '\t')) {
        ++i;
        ++skip;
      }
    }
  }
  body.at.push_back(h.body_offset + raw.size());
  return body;
}

// Where the text so far leaves a JSON document: inside a string or not.
struct JsonState {
  bool in_string = false;
  bool escaped = false;
  void read(char c) {
    if (!in_string) {
      in_string = c == '"';
    } else if (escaped) {
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == '"') {
      in_string = false;
    }
  }
};

// A tile rendered so far: printf's format (static text with its braces
// doubled, {} per argument) and arguments, the static text alone (the
// value when there is no argument), and the skeleton a json tile must
// parse as (each hole 0).
struct Render {
  std::string format, literal, skeleton;
  std::vector<ExprPtr> args;
  // Each @if's other arm: the skeleton it puts at [offset, offset + length)
  // of `skeleton` in place of the first arm's (a json tile must parse either
  // way), and where the @if is in the body.
  struct OtherArm {
    size_t offset, length;
    std::string skeleton;
    size_t at;
    bool written;  // an @else; false: the empty arm of an @if without one
  };
  std::vector<OtherArm> other_arms;

  void add_static(std::string_view text) {
    for (char c : text) {
      format.push_back(c);
      if (c == '{' || c == '}') format.push_back(c);
    }
    literal += text;
    skeleton += text;
  }
  void add_argument(ExprPtr arg, std::string_view placeholder) {
    format += "{}";
    args.push_back(std::move(arg));
    skeleton += placeholder;
  }
  void append(Render&& other) {
    for (OtherArm& arm : other.other_arms) {
      arm.offset += skeleton.size();
      other_arms.push_back(std::move(arm));
    }
    format += other.format;
    literal += other.literal;
    skeleton += other.skeleton;
    for (ExprPtr& a : other.args) args.push_back(std::move(a));
  }
};

// The earlier tiles a hole may splice: encoding and skeleton.
struct KnownTile {
  std::string encoding;
  std::string skeleton;
};
using KnownTiles = std::map<std::string, KnownTile, std::less<>>;

// A projection's elements in the body being unrolled: name -> what the
// name stands for there (a tuple's value as a literal, or a per-row
// source's expression).
using Elements = std::map<std::string, std::shared_ptr<const Expr>, std::less<>>;

// An element's value as an expression of its type: a literal, and for the
// narrow, signed and f32 types the literal `as` that type (a negative one
// negated as an i64 first); none for a partition, which has no literal.
ExprPtr literal_expr(const Value& v) {
  auto e = std::make_unique<Expr>();
  const Type t = v.type();
  if (t == Type::F64 || t == Type::F32) {
    e->kind = ExprKind::Float;
    e->f = v.as_f64();
  } else if (t == Type::Str) {
    e->kind = ExprKind::Str;
    e->text = v.as_str();
  } else if (t == Type::Bool) {
    e->kind = ExprKind::Ident;
    e->text = v.as_bool() ? "true" : "false";
  } else if (is_integer(t)) {
    const bool negative = is_signed_integer(t) && v.as_i64() < 0;
    e->kind = ExprKind::Int;
    e->u = negative ? 0 - (uint64_t)v.as_i64() : word_of(v);
    if (negative) {
      auto as_i64 = std::make_unique<Expr>();
      as_i64->kind = ExprKind::Cast;
      as_i64->cast_type = Type::I64;
      as_i64->args.push_back(std::move(e));
      e = std::make_unique<Expr>();
      e->kind = ExprKind::Unary;
      e->text = "-";
      e->args.push_back(std::move(as_i64));
    }
  } else {
    return nullptr;
  }
  if (t == Type::U64 || t == Type::F64 || t == Type::Str || t == Type::Bool ||
      (t == Type::I64 && e->kind == ExprKind::Unary)) {
    return e;
  }
  auto cast = std::make_unique<Expr>();
  cast->kind = ExprKind::Cast;
  cast->cast_type = t;
  cast->args.push_back(std::move(e));
  return cast;
}

// Replaces each name of a projection's element with its value.
void substitute(ExprPtr& root, const Elements& elements) {
  if (elements.empty()) return;
  std::vector<ExprPtr*> pending{&root};
  while (!pending.empty()) {
    ExprPtr& e = *pending.back();
    pending.pop_back();
    if (e->kind == ExprKind::Ident) {
      const auto it = elements.find(e->text);
      if (it != elements.end()) {
        const SourcePos pos = e->pos;
        const size_t length = e->length;
        e = clone(*it->second, it->second->pos.origin);
        if (it->second->kind != ExprKind::Call) {  // a literal shows where it is used
          e->pos = pos;
          e->length = length;
        }
      }
      continue;
    }
    for (ExprPtr& a : e->args) pending.push_back(&a);
  }
}

ExprPtr make_expr(ExprKind kind, SourcePos pos, size_t length) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = pos;
  e->length = length;
  return e;
}

ExprPtr int_literal(uint64_t u, SourcePos pos) {
  ExprPtr e = make_expr(ExprKind::Int, pos, 1);
  e->u = u;
  return e;
}

ExprPtr str_literal(std::string text, SourcePos pos) {
  ExprPtr e = make_expr(ExprKind::Str, pos, 1);
  e->text = std::move(text);
  return e;
}

ExprPtr call(std::string callee, std::vector<ExprPtr> args, SourcePos pos, size_t length) {
  ExprPtr e = make_expr(ExprKind::Call, pos, length);
  e->text = std::move(callee);
  for (ExprPtr& a : args) {
    e->depth = std::max(e->depth, 1 + a->depth);
    e->args.push_back(std::move(a));
    e->arg_names.emplace_back();
  }
  return e;
}

class TileCompiler {
 public:
  TileCompiler(const SourceText& src, const Stmt& s, const Producers& producers,
               const KnownTiles& tiles)
      : src_(src),
        header_(*s.tile),
        name_(s.names[0]),
        pos_(s.name_pos[0]),
        body_(body_text(src, header_, s.names[0])),
        producers_(producers),
        tiles_(tiles) {}

  // The binding's value, and the skeleton a splice of this tile checks.
  ExprPtr compile(std::string& skeleton) {
    JsonState state;
    Render r = sequence(0, body_.text.size(), {}, state);
    if (json() && !r.skeleton.empty()) {
      check_json(r.skeleton);
      for (const Render::OtherArm& arm : r.other_arms) {
        std::string other = r.skeleton;
        other.replace(arm.offset, arm.length, arm.skeleton);
        std::string error;
        if (!rt::parse_json(other, error)) {
          fail(arm.at,
               "its json is not valid JSON when this " + header_.sigil + "if takes its " +
                   (arm.written ? std::string("other arm") : "missing " + header_.sigil + "else") +
                   ": " + error,
               1 + header_.sigil.size(),
               "keep what only one arm needs inside it (a comma before a member goes in the "
               "branch: {\"a\": 1 " +
                   header_.sigil + "if c { , \"b\": 2 }})");
        }
      }
    }
    skeleton = r.skeleton;
    return value_of(std::move(r), pos_);
  }

 private:
  bool json() const { return header_.encoding == "json"; }
  const std::string& text() const { return body_.text; }
  bool starts(size_t i, std::string_view word) const {
    return text().compare(i, word.size(), word) == 0;
  }

  [[noreturn]] void fail(size_t at, const std::string& message, size_t length = 1,
                         const std::string& hint = {}) const {
    src_.fail(src_.position_of(body_.at[std::min(at, body_.at.size() - 1)]),
              "tile '" + name_ + "': " + message, length, hint);
  }

  static ExprPtr value_of(Render&& r, SourcePos pos) {
    if (r.args.empty()) return str_literal(std::move(r.literal), pos);
    std::vector<ExprPtr> args;
    args.push_back(str_literal(std::move(r.format), pos));
    for (ExprPtr& a : r.args) args.push_back(std::move(a));
    return call("printf", std::move(args), pos, 1);
  }

  // The template in [begin, end): static text, holes and directives.
  Render sequence(size_t begin, size_t end, const Elements& elements, JsonState& state) {
    // Directives nest by recursion: bounded, so that no template overflows
    // the stack.
    if (++depth_ > kMaxTileDepth) {
      fail(begin, "its directives nest more than " + std::to_string(kMaxTileDepth) + " deep", 1,
           "split it into tiles and splice them");
    }
    struct Leave {
      size_t& depth;
      ~Leave() { --depth; }
    } leave{depth_};
    Render r;
    const std::string& open = header_.open;
    const std::string& sigil = header_.sigil;
    size_t i = begin;
    while (i < end) {
      if (starts(i, open)) {
        if (starts(i + open.size(), open)) {  // a doubled opener is itself
          add_static(r, open, state);
          i += 2 * open.size();
          continue;
        }
        i = hole(r, i, end, elements, state);
        continue;
      }
      if (starts(i, sigil)) {
        const size_t word = i + sigil.size();
        if (directive(word, "if")) {
          i = branch(r, i, word + 2, end, elements, state);
          continue;
        }
        if (directive(word, "for")) {
          i = projection(r, i, word + 3, end, elements, state);
          continue;
        }
        if (directive(word, "else")) {
          fail(i, sigil + "else without an " + sigil + "if before it", sigil.size() + 4,
               "a branch is " + sigil + "if COND { ... } " + sigil + "else { ... }");
        }
      }
      add_static(r, std::string_view(text()).substr(i, 1), state);
      ++i;
    }
    return r;
  }

  bool directive(size_t at, std::string_view word) const {
    return starts(at, word) &&
           (at + word.size() >= text().size() || !ident_char(text()[at + word.size()]));
  }

  void add_static(Render& r, std::string_view s, JsonState& state) const {
    if (json()) {
      for (char c : s) state.read(c);
    }
    r.add_static(s);
  }

  bool string_at(size_t k) const { return tile_string_at(text(), k); }
  size_t skip_string(size_t k, size_t end) const { return tile_skip_string(text(), k, end); }
  size_t hole_close(size_t k, size_t end) const {
    return tile_hole_close(text(), k, end, header_.close);
  }

  // The last `sep` (one character, not doubled) at bracket depth 0 in [a,
  // b), or npos.
  size_t last_at_depth0(size_t a, size_t b, char sep) const {
    size_t found = std::string::npos;
    int depth = 0;
    for (size_t k = a; k < b;) {
      const char c = text()[k];
      if (string_at(k)) {
        k = skip_string(k, b);
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      const bool single = (k == a || text()[k - 1] != sep) && (k + 1 >= b || text()[k + 1] != sep);
      if (depth == 0 && c == sep && single && !(sep == ':' && k + 1 < b && text()[k + 1] == '=')) {
        found = k;
      }
      ++k;
    }
    return found;
  }

  void trim(size_t& a, size_t& b) const {
    while (a < b && is_space(text()[a])) ++a;
    while (b > a && is_space(text()[b - 1])) --b;
  }

  // The expression in [a, b) of the body, its projection elements
  // replaced by their values.
  ExprPtr expression(size_t a, size_t b, const Elements& elements, const std::string& what) {
    if (a == b) fail(a, what + " has no expression", 1);
    const size_t from = body_.at[a], to = body_.at[b - 1] + 1;
    if (body_.string_form && std::string_view(src_.text()).substr(from, to - from).find('\\') !=
                                 std::string_view::npos) {
      fail(a, what + " holds an escape of the tile's string body", b - a,
           "write the tile with a block { ... } or a heredoc <<< ... >>> body, or bind the "
           "expression first and name it in the hole");
    }
    ExprPtr e = parse_expression(src_, from, to);
    substitute(e, elements);
    return e;
  }

  static bool declared_type(std::string_view name, TileDeclared& out) {
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

  static bool parse_format(std::string_view f, TileFormat& out) {
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

  // `${expr[: type][| format][!]}` at i; returns where the template goes on.
  size_t hole(Render& r, size_t i, size_t end, const Elements& elements, JsonState& state) {
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
    r.add_argument(
        call(std::string(nodes::tile_encode_name), std::move(args), at, hole_text.size()), "0");
    return close + header_.close.size();
  }

  // The block `{ ... }` at k (after spaces): its inside without the
  // padding, and where it ends.
  struct Block {
    size_t begin, end, next;
  };
  Block block(size_t k, size_t end, const std::string& directive) {
    while (k < end && is_space(text()[k])) ++k;
    if (k >= end || text()[k] != '{') {
      fail(k, "expected '{' to open the body of " + header_.sigil + directive, 1);
    }
    int depth = 0;
    for (size_t j = k; j < end;) {
      const char c = text()[j];
      if (json() && c == '"') {
        j = skip_string(j, end);
        continue;
      }
      if (c == '{') ++depth;
      if (c == '}' && --depth == 0) {
        size_t a = k + 1, b = j;
        trim(a, b);
        return {a, b, j + 1};
      }
      ++j;
    }
    fail(k, "the body of " + header_.sigil + directive + " is not closed with '}'", 1);
  }

  // Whether the `{name}` at k, which ends before `after`, is a reference
  // in a projection's comprehension rather than its body: an operator, a
  // keyword or a body follows it.
  bool is_reference(size_t after, size_t end) const {
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

  // The text of a directive up to the '{' that opens its body (for a
  // projection, one that is not a `{name}` reference of its
  // comprehension), outside brackets and strings.
  size_t body_open(size_t k, size_t end, const std::string& directive) const {
    int depth = 0;
    while (k < end) {
      const char c = text()[k];
      if (string_at(k)) {
        k = skip_string(k, end);
        continue;
      }
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') --depth;
      if (c == '{' && depth == 0) {
        size_t n = k + 1;
        if (directive == "for" && n < end && ident_start(text()[n])) {
          while (n < end && ident_char(text()[n])) ++n;
          if (n < end && text()[n] == '}' && is_reference(n + 1, end)) {
            k = n + 1;
            continue;
          }
        }
        return k;
      }
      ++k;
    }
    fail(k, header_.sigil + directive + " has no body: expected '{' after it", 1);
  }

  // `@if COND { ... } [@else { ... }]` at i (the condition from c).
  size_t branch(Render& r, size_t i, size_t c, size_t end, const Elements& elements,
                JsonState& state) {
    const size_t open = body_open(c, end, "if");
    size_t a = c, b = open;
    trim(a, b);
    ExprPtr cond = expression(a, b, elements, "the condition of " + header_.sigil + "if");
    const SourcePos at = src_.position_of(body_.at[i]);
    const Block then_block = block(open, end, "if");
    JsonState then_state = state, else_state = state;
    Render then_render = sequence(then_block.begin, then_block.end, elements, then_state);
    Render else_render;
    bool has_else = false;
    size_t next = then_block.next, w = next;
    while (w < end && is_space(text()[w])) ++w;
    if (starts(w, header_.sigil) && directive(w + header_.sigil.size(), "else")) {
      const Block else_block = block(w + header_.sigil.size() + 4, end, "else");
      else_render = sequence(else_block.begin, else_block.end, elements, else_state);
      has_else = true;
      next = else_block.next;
    }
    state = then_state;
    ExprPtr e = make_expr(ExprKind::If, at, 1 + header_.sigil.size());
    std::vector<ExprPtr> truth;
    truth.push_back(std::move(cond));
    e->args.push_back(call(std::string(nodes::tile_truth_name), std::move(truth), at, 1));
    std::string skeleton = then_render.skeleton;
    const size_t offset = r.skeleton.size();
    for (Render::OtherArm& arm : then_render.other_arms) {
      arm.offset += offset;
      r.other_arms.push_back(std::move(arm));
    }
    r.other_arms.push_back({offset, skeleton.size(), else_render.skeleton, i, has_else});
    e->args.push_back(value_of(std::move(then_render), at));
    e->args.push_back(value_of(std::move(else_render), at));
    for (const ExprPtr& arm : e->args) e->depth = std::max(e->depth, 1 + arm->depth);
    r.add_argument(std::move(e), skeleton);
    return next;
  }

  // A projection's header between c and its body's `{` at `open`: the
  // comprehension's text (trimmed) and the separator of its repetitions
  // (`sep "..."`, else the encoding's: "," in JSON and CSV).
  struct ProjectionHeader {
    std::string source;
    std::string sep;
  };
  ProjectionHeader projection_header(size_t c, size_t open) {
    std::string source;
    std::string sep = json() || header_.encoding == "csv" ? "," : "";
    for (size_t k = c; k < open;) {
      const bool word = starts(k, "sep") && (k == c || is_space(text()[k - 1])) && k + 3 < open &&
                        is_space(text()[k + 3]);
      if (!word) {
        if (string_at(k)) {
          const size_t after = skip_string(k, open);
          source += text().substr(k, after - k);
          k = after;
        } else {
          source.push_back(text()[k++]);
        }
        continue;
      }
      size_t q = k + 3;
      while (q < open && is_space(text()[q])) ++q;
      const bool escaped = starts(q, "\\\"");
      if (!escaped && (q >= open || text()[q] != '"')) {
        fail(q, "sep needs its text in quotes: sep \", \"", 1);
      }
      const std::string quote = escaped ? "\\\"" : "\"";
      const size_t from = q + quote.size();
      const size_t to = text().find(quote, from);
      if (to == std::string::npos || to >= open) fail(q, "the text after sep is not closed", 1);
      sep = text().substr(from, to - from);
      k = to + quote.size();
    }
    size_t a = 0, b = source.size();
    while (a < b && is_space(source[a])) ++a;
    while (b > a && is_space(source[b - 1])) --b;
    return {source.substr(a, b - a), sep};
  }

  // `@for COMPREHENSION [sep "..."] { ... }` at i (the comprehension from
  // c): the body once per tuple, unrolled here.
  size_t projection(Render& r, size_t i, size_t c, size_t end, const Elements& elements,
                    JsonState& state) {
    const size_t open = body_open(c, end, "for");
    const auto [source, sep] = projection_header(c, open);
    const std::string where = "projection `for " + source + "`";
    if (source.empty())
      fail(c, header_.sigil + "for needs a comprehension: @for NAME in SOURCE { ... }");
    if (const std::optional<RowSource> row = row_source(source, c, open)) {
      // One tuple per row: the call's value, a scalar.
      const Block body = block(open, end, "for");
      Elements inner = elements;
      inner[row->name] = expression(row->begin, row->end, elements, where);
      r.append(sequence(body.begin, body.end, inner, state));
      return body.next;
    }
    // Used as parsed: its canonical text does not always parse again (a
    // list of quoted items holding quotes and commas); reading an empty
    // parse of it crashed the compiler.
    const comprehension::Comprehension comp = resolve_comprehension(
        source, producers_, [&](const std::string& message, const std::string& hint) {
          fail(c, where + ": " + message, source.size(), hint);
        });
    for (const std::string& name : comprehension::scope_names(comp)) {
      fail(c, where + " reads `{" + name + "}`, a wire outside the comprehension", source.size(),
           "a projection's tuples are fixed when the tile compiles: its sources and predicate "
           "see only its elements and constants");
    }
    comprehension::Tuples tuples;
    try {
      // Node-call sources (partitions, a vector node) of literals are
      // evaluated now, as a traversal would when it opens.
      tuples = comprehension::evaluate(
          comp, [](std::string_view) { return std::nullopt; }, nodes::call_node_elements);
    } catch (const Error& e) {
      fail(c, where + ": " + e.what(), source.size());
    }
    repetitions_ += tuples.rows.size();
    if (repetitions_ > kMaxTileRepetitions) {
      fail(c,
           "its projections unroll to more than " + std::to_string(kMaxTileRepetitions) +
               " repetitions",
           source.size(), "generate long lists as columns or rows instead");
    }
    const Block body = block(open, end, "for");
    // polydat checks a json tile with the body written once, whatever the
    // number of tuples, and no separator.
    const size_t skeleton_before = r.skeleton.size();
    std::string once;
    for (size_t t = 0; t < tuples.rows.size(); ++t) {
      if (t > 0) add_static(r, sep, state);
      Elements inner = elements;
      for (size_t k = 0; k < tuples.names.size(); ++k) {
        ExprPtr literal = literal_expr(tuples.rows[t][k]);
        if (!literal) {
          fail(c,
               where + ": its element '" + tuples.names[k] + "' is a " +
                   std::string(type_name(tuples.rows[t][k].type())) +
                   ", which a tile's projection cannot unroll",
               source.size(), "project numbers or text (start_of(p), end_of(p), ...)");
        }
        inner[tuples.names[k]] = std::shared_ptr<const Expr>(std::move(literal));
      }
      Render repetition = sequence(body.begin, body.end, inner, state);
      if (t == 0) once = repetition.skeleton;
      r.append(std::move(repetition));
    }
    if (tuples.rows.empty()) {
      JsonState scratch = state;
      once = sequence(body.begin, body.end, elements, scratch).skeleton;
    }
    r.skeleton.resize(skeleton_before);
    r.skeleton += once;
    // The skeleton keeps the first repetition: so do the other arms.
    std::erase_if(r.other_arms, [&](const Render::OtherArm& arm) {
      return arm.offset >= skeleton_before + once.size();
    });
    (void)i;
    return body.next;
  }

  // `NAME in CALL(...)` where CALL is a node (not one of the comprehension's
  // generators): polydat's generator source over the program's wires, one
  // tuple per row whose element is the call's value. A node whose value is a
  // list (json) would give one tuple per item: refused.
  struct RowSource {
    std::string name;
    size_t begin, end;  // the call in the body
  };
  std::optional<RowSource> row_source(const std::string& source, size_t c, size_t open) const {
    size_t k = 0;
    const auto word = [&] {
      const size_t from = k;
      while (k < source.size() && ident_char(source[k])) ++k;
      return source.substr(from, k - from);
    };
    const auto spaces = [&] {
      while (k < source.size() && is_space(source[k])) ++k;
    };
    const std::string name = word();
    spaces();
    if (name.empty() || word() != "in") return std::nullopt;
    spaces();
    const std::string callee = word();
    if (callee.empty() || k >= source.size() || source[k] != '(' || source.back() != ')' ||
        comprehension::is_generator(callee) || comprehension::is_call_source(callee)) {
      return std::nullopt;
    }
    const size_t begin = text().find(callee + "(", c);
    if (begin == std::string::npos || begin >= open) return std::nullopt;
    size_t close = begin + callee.size();
    for (int depth = 0; close < open; ++close) {
      if (string_at(close)) {
        close = skip_string(close, open) - 1;
      } else if (text()[close] == '(') {
        ++depth;
      } else if (text()[close] == ')' && --depth == 0) {
        break;
      }
    }
    if (close >= open) return std::nullopt;
    if (const nodes::NodeDef* def = nodes::find_node(callee)) {
      for (const Type t : def->results) {
        if (t == Type::Json || t == Type::PartitionList) {
          fail(c,
               "projection `for " + source + "`: '" + callee + "' gives a " +
                   std::string(type_name(t)) +
                   " per row, whose items would be the tuples; polyrt projects over a per-row "
                   "scalar only",
               source.size(), "project over a comprehension, or render the list itself: ${x}");
        }
      }
    }
    return RowSource{name, begin, close + 1};
  }

  void check_json(const std::string& skeleton) const {
    std::string error;
    if (rt::parse_json(skeleton, error)) return;
    constexpr size_t kShown = 400;  // of a skeleton the message quotes
    const std::string shown =
        skeleton.size() <= kShown ? skeleton : skeleton.substr(0, kShown) + "...";
    src_.fail(pos_,
              "tile '" + name_ +
                  "': the json body is not valid JSON once every hole is a "
                  "placeholder: " +
                  error +
                  "; with holes as 0, one repetition per projection and "
                  "each branch's first arm, the skeleton reads: " +
                  shown,
              name_.size(), "a json tile's text around its holes must be a JSON document");
  }

  const SourceText& src_;
  const TileHeader& header_;
  std::string name_;
  SourcePos pos_;
  BodyText body_;
  const Producers& producers_;
  const KnownTiles& tiles_;
  size_t repetitions_ = 0;
  size_t depth_ = 0;  // directive bodies being compiled
};

void compile_statements(std::vector<Stmt>& list, const SourceText& source, Producers producers,
                        KnownTiles tiles) {
  for (Stmt& s : list) {
    if (s.kind == StmtKind::Binding && s.is_producer && s.expr &&
        s.expr->text.starts_with("for ")) {
      producers[s.names[0]] = s.expr->text.substr(4);
    }
    if (s.tile) {
      std::string skeleton;
      s.expr = TileCompiler(source, s, producers, tiles).compile(skeleton);
      tiles[s.names[0]] = KnownTile{s.tile->encoding, std::move(skeleton)};
    }
    if (s.kind == StmtKind::Traversal) compile_statements(s.body, source, producers, tiles);
  }
}

}  // namespace

bool tile_string_at(std::string_view text, size_t k) {
  const char c = text[k];
  return c == '"' || c == '\'' || (c == '\\' && k + 1 < text.size() && text[k + 1] == '"');
}

size_t tile_skip_string(std::string_view text, size_t k, size_t end) {
  if (text[k] == '\\') {
    const size_t close = text.find("\\\"", k + 2);
    return close == std::string_view::npos || close + 2 > end ? end : close + 2;
  }
  const char quote = text[k];
  for (++k; k < end; ++k) {
    if (text[k] == '\\') {
      ++k;
    } else if (text[k] == quote) {
      return k + 1;
    }
  }
  return end;
}

size_t tile_hole_close(std::string_view text, size_t k, size_t end, std::string_view close) {
  int depth = 0;
  while (k < end) {
    const char c = text[k];
    if (depth == 0 && text.compare(k, close.size(), close) == 0) return k;
    if (tile_string_at(text, k)) {
      k = tile_skip_string(text, k, end);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    ++k;
  }
  return std::string_view::npos;
}

void compile_tiles(Ast& ast, const SourceText& source) {
  for (ModuleDef& m : ast.modules) compile_statements(m.body, source, {}, {});
  compile_statements(ast.statements, source, {}, {});
}

}  // namespace polyrt::expand

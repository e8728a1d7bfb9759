// The tile compiler (expand/tiles.hpp): one TileCompiler class over three
// files by responsibility: a template's sequence of static text, holes and
// directives (tiles.cpp), a `${...}` hole's expression, type and format
// (tile_holes.cpp), and the `@if`/`@for` directives with their bodies and
// row sources (tile_directives.cpp). Included by those files only.
#pragma once

#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "comprehension/comprehension.hpp"
#include "comprehension/generators.hpp"
#include "expand/producers.hpp"
#include "expand/structural_tiles.hpp"
#include "expand/tiles.hpp"
#include "nodes/call_node.hpp"
#include "nodes/registry.hpp"
#include "nodes/tile_holes.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/json_text.hpp"
#include "syntax/lexer.hpp"

namespace polyrt::expand {

// The syntax tree these expansions rewrite.
using namespace polyrt::syntax;

namespace tiling {

using nodes::TileDeclared;
using nodes::TileFormat;
using nodes::TileRule;

inline bool is_space(char c) {
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
inline BodyText decoded_body(const SourceText& src, const TileHeader& h);

// A tile's body; a structural template's is the template text it stands for.
inline BodyText body_text(const SourceText& src, const TileHeader& h, const std::string& name) {
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

inline BodyText decoded_body(const SourceText& src, const TileHeader& h) {
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
inline ExprPtr literal_expr(const Value& v) {
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
inline void substitute(ExprPtr& root, const Elements& elements) {
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

inline ExprPtr make_expr(ExprKind kind, SourcePos pos, size_t length) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = pos;
  e->length = length;
  return e;
}

inline ExprPtr int_literal(uint64_t u, SourcePos pos) {
  ExprPtr e = make_expr(ExprKind::Int, pos, 1);
  e->u = u;
  return e;
}

inline ExprPtr str_literal(std::string text, SourcePos pos) {
  ExprPtr e = make_expr(ExprKind::Str, pos, 1);
  e->text = std::move(text);
  return e;
}

inline ExprPtr call(std::string callee, std::vector<ExprPtr> args, SourcePos pos, size_t length) {
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
  ExprPtr compile(std::string& skeleton);

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
  Render sequence(size_t begin, size_t end, const Elements& elements, JsonState& state);

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
  size_t last_at_depth0(size_t a, size_t b, char sep) const;

  void trim(size_t& a, size_t& b) const {
    while (a < b && is_space(text()[a])) ++a;
    while (b > a && is_space(text()[b - 1])) --b;
  }

  // The expression in [a, b) of the body, its projection elements
  // replaced by their values.
  ExprPtr expression(size_t a, size_t b, const Elements& elements, const std::string& what);

  static bool declared_type(std::string_view name, TileDeclared& out);

  static bool parse_format(std::string_view f, TileFormat& out);

  // `${expr[: type][| format][!]}` at i; returns where the template goes on.
  size_t hole(Render& r, size_t i, size_t end, const Elements& elements, JsonState& state);

  // The block `{ ... }` at k (after spaces): its inside without the
  // padding, and where it ends.
  struct Block {
    size_t begin, end, next;
  };
  Block block(size_t k, size_t end, const std::string& directive);

  // Whether the `{name}` at k, which ends before `after`, is a reference
  // in a projection's comprehension rather than its body: an operator, a
  // keyword or a body follows it.
  bool is_reference(size_t after, size_t end) const;

  // The text of a directive up to the '{' that opens its body (for a
  // projection, one that is not a `{name}` reference of its
  // comprehension), outside brackets and strings.
  size_t body_open(size_t k, size_t end, const std::string& directive) const;

  // `@if COND { ... } [@else { ... }]` at i (the condition from c).
  size_t branch(Render& r, size_t i, size_t c, size_t end, const Elements& elements,
                JsonState& state);

  // A projection's header between c and its body's `{` at `open`: the
  // comprehension's text (trimmed) and the separator of its repetitions
  // (`sep "..."`, else the encoding's: "," in JSON and CSV).
  struct ProjectionHeader {
    std::string source;
    std::string sep;
  };
  ProjectionHeader projection_header(size_t c, size_t open);

  // `@for COMPREHENSION [sep "..."] { ... }` at i (the comprehension from
  // c): the body once per tuple, unrolled here.
  size_t projection(Render& r, size_t i, size_t c, size_t end, const Elements& elements,
                    JsonState& state);

  // `NAME in CALL(...)` where CALL is a node (not one of the comprehension's
  // generators): polydat's generator source over the program's wires, one
  // tuple per row whose element is the call's value. A node whose value is a
  // list (json) would give one tuple per item: refused.
  struct RowSource {
    std::string name;
    size_t begin, end;  // the call in the body
  };
  std::optional<RowSource> row_source(const std::string& source, size_t c, size_t open) const;

  void check_json(const std::string& skeleton) const;

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

}  // namespace tiling
}  // namespace polyrt::expand

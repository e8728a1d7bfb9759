// polydat's comprehension grammar (grammar.cpp): one Parser class over three
// files by responsibility: clauses, sources and order (grammar.cpp), the
// `where` predicate (grammar_predicates.cpp), and the comprehension as
// polydat prints it (grammar_canonical.cpp). Included by those files only.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

#include "comprehension/clause_rules.hpp"
#include "comprehension/comprehension.hpp"
#include "comprehension/generators.hpp"
#include "polyrt/error.hpp"
#include "value/name_chars.hpp"
#include "value/vector_values.hpp"

namespace polyrt::comprehension::grammar {

// polydat's typing of a literal token: true/false (any case) a bool, a
// quoted token a str, an integer a u64, a float an f64, a bare word a str.
inline Value typed_token(std::string_view token) {
  std::string lower(token);
  for (char& c : lower) c = (char)std::tolower((unsigned char)c);
  if (lower == "true" || lower == "false") return Value::boolean(lower == "true");
  if (token.size() >= 2 && (token.front() == '"' || token.front() == '\'') &&
      token.back() == token.front()) {
    return Value::str(std::string(token.substr(1, token.size() - 2)));
  }
  uint64_t u = 0;
  const char* end = token.data() + token.size();
  if (auto r = std::from_chars(token.data(), end, u); r.ec == std::errc() && r.ptr == end) {
    return Value::u64(u);
  }
  double f = 0;
  if (auto r = std::from_chars(token.data(), end, f); r.ec == std::errc() && r.ptr == end) {
    return Value::f64(f);
  }
  return Value::str(std::string(token));
}

// One list's values in one type: integers and floats together widen to f64;
// numbers with text or bools is refused.
inline std::optional<std::string> unify(std::vector<Value>& values) {
  bool any_float = false, any_int = false, any_text = false, any_bool = false;
  for (const Value& v : values) {
    any_float = any_float || v.type() == Type::F64;
    any_int = any_int || v.type() == Type::U64;
    any_text = any_text || v.type() == Type::Str;
    any_bool = any_bool || v.type() == Type::Bool;
  }
  if ((int)(any_float || any_int) + (int)any_text + (int)any_bool > 1) {
    return "a list mixes numbers, strings and bools; quote every item to make them strings";
  }
  if (any_float && any_int) {
    for (Value& v : values) {
      if (v.type() == Type::U64) v = Value::f64((double)v.as_u64());
    }
  }
  return std::nullopt;
}

inline std::string canonical_value(const Value& v) {
  if (v.type() == Type::Str) {
    const std::string& t = v.text();
    const bool bare = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
      return ident_char(c) || c == '-' || c == '.';
    });
    return bare && typed_token(t).type() == Type::Str ? t : "\"" + t + "\"";
  }
  return v.to_string();
}

// Unions nest at most this deep: the parser's recursion stays shallow
// whatever the text.
constexpr size_t kMaxUnionDepth = 16;

class Parser {
 public:
  Parser(std::string_view text, CallSources calls, size_t depth = 0)
      : s_(text), calls_(calls), depth_(depth) {}

  Comprehension run();

  // Whether a source reads an earlier clause's element.
  static bool dependent(const Comprehension& c);

 private:
  [[noreturn]] void fail(size_t at, std::string message, std::string hint = {}) {
    throw SyntaxError{std::move(message), at, std::move(hint)};
  }

  void skip_space() {
    while (i_ < s_.size() && std::isspace((unsigned char)s_[i_])) ++i_;
  }

  // The keyword `w` at i_ as a whole word (then consumed).
  bool word(std::string_view w) {
    if (s_.compare(i_, w.size(), w) != 0) return false;
    if (i_ + w.size() < s_.size() && ident_char(s_[i_ + w.size()])) return false;
    i_ += w.size();
    return true;
  }

  // Whether `<ident> in` or `(<ident>, ...) in` starts at `at` (after
  // spaces): a clause's start.
  bool clause_start(size_t at) const;

  // Whether the text at i_ names a producer: a word alone or before
  // `where` or `order`.
  bool producer_reference() const;

  // Whether a union `[ for ...` starts at `at`.
  bool union_start(size_t at) const;

  // The byte after the bracket, quote or parenthesis group opening at `at`.
  size_t group_end(size_t at);

  // `[for A, for B, ...]`: each alternative parsed as a comprehension of
  // its own; all bind the same names.
  std::vector<Comprehension> alternatives();

  size_t next_word(size_t at) const {
    while (at < s_.size() && std::isspace((unsigned char)s_[at])) ++at;
    return at;
  }

  // The clauses' byte ranges: a depth-0 comma starts a new clause only when
  // `<ident> in` follows; the clauses end at a depth-0 `where` or `order`.
  std::vector<std::pair<size_t, size_t>> split_clauses();

  bool starts_word(size_t at, std::string_view w) const {
    return s_.compare(at, w.size(), w) == 0 &&
           (at + w.size() >= s_.size() || !ident_char(s_[at + w.size()]));
  }

  Clause clause(size_t from, size_t to);

  // A zip's sources: `(S1, S2, ...)`, `zip_truncate(...)` or `zip_cycle(...)`,
  // one per name, split on the commas outside brackets and quotes.
  void zip_sources(Clause& c, std::string_view text, size_t at);

  Source source(std::string_view text, size_t at);

  // `{name}`, or a bare `name` (`bare`).
  static Source reference(std::string_view name, bool bare);

  // Whether `name` is a composed name, `k_{k}_limits`: name characters and
  // {placeholder}s, each a plain name (polydat 0.6.1).
  static bool composed_name(std::string_view name);

  // `[0, xs..., 9]`: literals and spread names (polydat's spread).
  Source spread(std::string_view items, size_t at);

  // A source `NAME(ARGS)`: all(<cursor>), a generator or a node call.
  Source call_form(std::string_view name, std::string_view args, size_t at);

  // The literal forms: a bracket list, a quoted string comprehension, one
  // quoted text, a bare name, a bare list.
  Source literal_form(std::string_view text, size_t at);

  // polydat substitutes a {name} inside a source's quoted text; polyrt does
  // in one quoted text ('table_{region}', Source::Kind::Text) but not yet in
  // a string comprehension ("a_{x}, b"), nor beside other braces, where
  // taking it literally would be a silent wrong value: refused.
  void refuse_placeholders(std::string_view text, size_t at);

  // How many {name} placeholders `text` holds, or -1 when a brace opens or
  // closes something else (then taken as it is, unless it also holds one).
  static int placeholders_in(std::string_view text);

  // `name(arg, ...)`: a named generator, each argument a literal or a
  // {name}; literal arguments are checked now, the others when it opens.
  // A node call (partitions, subdivide, a vector node) reads a bare word as
  // a name too, as polydat does (`subdivide(outer, 4)`).
  Source call(std::string_view name, std::string_view args, size_t at);

  Source range(std::string_view text, size_t at, size_t dots);

  // `{name}`, trimmed: the name.
  static std::optional<std::string> reference_name(std::string_view t);

  // `NAME(P, ...)` or `NAME()` (its standard parameters), then optionally
  // `on LO..HI` / `on LO..=HI`: a continuous axis drawn through the
  // measure over the interval, or over its support.
  Source measure(std::string_view text, size_t paren, size_t at);

  static bool is_float_text(std::string_view t) {
    return t.find_first_of(".eE") != std::string_view::npos &&
           t.find("step") == std::string_view::npos && t.find("..") == std::string_view::npos;
  }

  // A continuous interval: finite float bounds, lo < hi, no step.
  Source interval(std::string_view text, size_t at, size_t dots, bool inclusive);

  uint64_t number(std::string_view text, size_t at, const char* what);

  // Items split on any of `separators`, quotes kept whole, empty ones dropped.
  std::vector<std::string_view> split_items(std::string_view text, std::string_view separators);

  Source list(const std::vector<std::string_view>& items, size_t at);

  // polydat's rules for continuous intervals (V7, V8), and what polyrt
  // does not sample yet: every clause an interval, no where.
  void check_continuous(const Comprehension& c);

  // `order STRATEGY`, `order STRATEGY/n` or `order STRATEGY(count=n,
  // seed=s)`, checked against the comprehension it orders.
  Order order(const Comprehension& c);

  // (count=n, seed=s), either or both, once each.
  void order_arguments(Order& o);

  uint64_t order_number(const char* what);

  // Predicates, polydat's precedence: || < && < == != < ordering and in <
  // unary.
  std::unique_ptr<Predicate> predicate_or() { return left_associative(0); }

  // One level of the binary operators, loosest first: ||, &&, then == and
  // !=; the comparisons and `in` below them.
  std::unique_ptr<Predicate> left_associative(size_t level);
  std::unique_ptr<Predicate> predicate_ordering();
  // Arithmetic, tighter than the comparisons: `+ -`, then `* / %`.
  std::unique_ptr<Predicate> predicate_arithmetic(int level);
  std::unique_ptr<Predicate> predicate_unary();
  // Every operator, literal and reference counts: the predicate's tree (and
  // the recursion that evaluates and frees it) stays shallow whatever the
  // text.
  void count_node(size_t at);

  std::unique_ptr<Predicate> binary(std::string op, std::unique_ptr<Predicate> a,
                                    std::unique_ptr<Predicate> b);

  std::string canonical(const Comprehension& c) const;
  // polydat's legacy union (`k in 1..3, k in 10..12`): clauses that all bind
  // one name are the alternatives of a union, one clause each. Whether `c`
  // is one (then its clauses have become its alternatives).
  bool legacy_union(Comprehension& c) const;

  // The text after the clauses: `where ...` and `order ...`, as written.
  std::string tail_text() const { return tail_ < s_.size() ? trimmed(s_.substr(tail_)) : ""; }

  // A float as text that reads back as a float (1.0, not 1).
  static std::string float_text(double v);

  static std::string trimmed(std::string_view text);

  // A list in a zip keeps its brackets: its commas are not the zip's.
  static std::string canonical_source(const Source& s, bool in_zip = false);

  std::string_view s_;
  CallSources calls_;
  size_t nodes_ = 0;
  size_t i_ = 0;
  size_t tail_ = 0;   // where the clauses end (`where`, `order` or the end)
  size_t depth_ = 0;  // how deep in unions
};

}  // namespace polyrt::comprehension::grammar

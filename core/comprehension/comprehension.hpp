// polydat's comprehensions, the text after `for`: clauses `name in source`
// joined into a cartesian product (the rightmost clause fastest), an
// optional `where` predicate and an optional `order` strategy. Parsed once
// from the raw text the lexer captures; evaluated into tuples when a
// traversal opens, against the values of the scope it opens in.
//
// This version takes unions and zips, the discrete sources (ranges with `..=` and `step`,
// bare and bracketed literal lists with polydat's typing, quoted
// comprehension strings, `{name}` references, the named generators of
// generators.hpp, the node calls partitions(...) and subdivide(...)) and all ten orders (see
// order_strategies.hpp), each with a count, after a `where` too; the other source forms are refused
// by name.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "comprehension/measures.hpp"
#include "comprehension/order_strategies.hpp"
#include "polyrt/value.hpp"

namespace polyrt::comprehension {

// The most tuples one opening materializes: a larger product is refused
// with a message naming the bound, never an out-of-memory kill.
inline constexpr uint64_t kMaxTuples = uint64_t{1} << 24;
// And at most this many bytes of them (a tuple is a vector of its elements'
// Values): 2^24 tuples of four elements are 3.6 GB, built twice on the way,
// which once ended in std::bad_alloc instead of this refusal.
inline constexpr uint64_t kMaxOpeningBytes = uint64_t{1} << 30;
// The bytes `tuples` tuples of `elements` elements take materialized.
inline uint64_t opening_bytes(uint64_t tuples, uint64_t elements) {
  return tuples * (sizeof(std::vector<Value>) + elements * sizeof(Value));
}

// What separates the tokens of a string comprehension ("a, b; c", and the
// str a {name} reads): runs of these and other whitespace (polydat's
// comprehension_forms.md section 3.1.3).
inline constexpr std::string_view kStringSeparators = ",; \t\n";

struct Source {
  enum class Kind : uint8_t {
    Range,
    List,
    Reference,
    Generator,
    Call,
    Interval,
    All,
    Text,
    Spread
  };
  Kind kind = Kind::List;
  // Range: start, start + step, ... < end; a range whose bounds name
  // values (`0..{n}`) holds them in `arguments` (start, end, step: each a
  // literal or a {name}, `closed` for ..=) until it opens.
  uint64_t start = 0, end = 0, step = 1;
  std::vector<Value> values;  // List
  std::string reference;      // Reference: {name}, peeled at open
  // Reference: written as a bare word (`m in modes`), which polydat reads
  // as the name, never as the text "modes"; one that names nothing in
  // scope is refused (the author likely meant the text: quote it).
  bool bare = false;
  std::string generator;                // Generator: fib, pow2, ...; Call: the node
  Type call_element = Type::Partition;  // Call: the type of its elements
  std::vector<Source> arguments;        // Generator, Call, Range: each a literal or a {name}
  // Interval: the continuous [lo, hi) (`0.0..1.0`) or [lo, hi] (`..=`),
  // sampled by a counted halton, sobol, lhs or shuffle (polydat's V8).
  double lo = 0, hi = 0;
  bool closed = false;  // Interval, deferred Range: the end is included
  // Interval: a named measure's axis (`normal(0, 1)`, `exponential(2) on
  // 0.0..1.0`): its support, or the `on` interval when `on` is written.
  bool lo_open = false;
  std::optional<Measure> measure;
  bool on = false;
};

// The names a source reads ({name} itself or in a generator's arguments;
// of a composed name, the names it is composed of).
std::vector<std::string> references(const Source& s);

// polydat 0.6.1's composed names: a reference `{k_{k}_limits}` reads the
// name its placeholders compose to when the traversal opens (k = 10:
// k_10_limits). Whether `reference` is composed, and its placeholders'
// names in order.
bool is_composed(std::string_view reference);
std::vector<std::string> composed_of(std::string_view reference);

// The type of a source's elements; nullopt for a {name} or a spread,
// whose type is their values'.
std::optional<Type> element_type(const Source& s);

// One axis of the cartesian: `name in SOURCE`, or a zip `(a, b) in (S1,
// S2)` whose sources advance together (one name per source): strictly
// (equal lengths, else an error when it opens), `zip_truncate(...)` (the
// shortest) or `zip_cycle(...)` (the longest; shorter sources repeat). An
// empty source empties any zip.
struct Clause {
  enum class Zip : uint8_t { None, Strict, Truncate, Cycle } zip = Zip::None;
  std::vector<std::string> names;
  std::vector<Source> sources;  // one per name
};

// A `where` predicate: literals, {name} references, ! and unary -,
// arithmetic, the comparisons, `in [..]`, && and ||, with polydat's rules
// (see evaluate).
struct Predicate {
  enum class Kind : uint8_t { Literal, Reference, Not, Negate, Binary, In } kind;
  Value literal;     // Literal
  std::string name;  // Reference
  std::string op;    // Binary: == != < <= > >= && || + - * / %
  std::vector<std::shared_ptr<const Predicate>> args;
  std::vector<Value> members;  // In: args[0] in [members]
};

struct Comprehension {
  std::vector<Clause> clauses;
  // A union `[for ..., for ...]`: its children, each a comprehension that
  // binds the same names, their tuples one after another (no clauses then).
  std::vector<Comprehension> alternatives;
  // Shared: a parsed predicate is never changed, and a comprehension is a
  // value the syntax tree copies.
  std::shared_ptr<const Predicate> where;
  std::optional<Order> order;
  // The text as polydat prints it: clauses and lists with ", " between
  // items ("a in 0..3, tag in p, q where {a} > 0 order reverse_lex/2").
  std::string canonical;
  // Its parts as written: the clauses (or the union) as printed, and the
  // texts after `where` and after `order` (empty when absent).
  std::string head, where_text, order_text;
  // `for sweep where ... order ...`: a reference to the producer `sweep`
  // (polydat's derivation), whose own where and order are the ones above;
  // no clauses. The producers' expansion replaces it by the comprehension
  // it derives (expand/producers.hpp).
  std::string producer;
};

// A parse failure: the message and the byte offset in the text.
struct SyntaxError {
  std::string message;
  size_t offset = 0;
  std::string hint;
};

// Why `o` cannot order `c` (a lattice order over a dependent cartesian,
// lhs over a union, sobol over too many axes); the offset is 0.
std::optional<SyntaxError> order_refusal(const Comprehension& c, const Order& o);

// The most operators and values one `where` holds, composed derivations
// included: predicates are evaluated recursively.
inline constexpr size_t kMaxPredicateNodes = 1024;

// The node calls a comprehension may take as a source, and the type of the
// elements each gives; nullopt for any other name. The node registry knows
// them (nodes::comprehension_call_element), and it sits above the grammar:
// a parse is handed it.
using CallSources = std::optional<Type> (*)(std::string_view node);

// Parses the text after `for`: a comprehension, or a reference to a
// producer (`sweep`, `sweep where {a} > 1`, `sweep order halton/4`).
// Returns the comprehension or the first error.
struct Parsed {
  std::optional<Comprehension> comprehension;
  std::optional<SyntaxError> error;
};
Parsed parse(std::string_view text, CallSources calls);

// The names a comprehension binds, one per element of its tuples.
std::vector<std::string> element_names(const Comprehension& c);

// The source of each element (a union's first alternative's).
std::vector<const Source*> element_sources(const Comprehension& c);

// The names a comprehension reads from its scope: every {name} of its
// sources and names of its predicate (a bare word is a name) that no clause
// binds, once each, in the order they appear.
std::vector<std::string> scope_names(const Comprehension& c);

// Replaces every all(q) source of `c` by the range `range_of(q)` gives
// (nullopt: q is no cursor with a fixed range; `fail` is called with why).
void resolve_cursor_ranges(
    Comprehension& c,
    const std::function<std::optional<std::pair<uint64_t, uint64_t>>(const std::string&)>& range_of,
    const std::function<void(const std::string&)>& fail);

// The name a composed reference reads with `scope`'s values (each value's
// text, as a string interpolates it); nullopt when a placeholder reads None.
std::optional<std::string> compose(
    std::string_view reference, const std::function<std::optional<Value>(std::string_view)>& scope);

// The tuples of an opening: one row per tuple, a value per clause, in the
// order the comprehension visits them.
struct Tuples {
  std::vector<std::string> names;
  std::vector<std::vector<Value>> rows;
};

// The value of a name the comprehension reads from its scope ({name} in a
// source or predicate that no clause binds): nullopt when the scope has no
// such name (it then reads None, and the caller may warn).
using Scope = std::function<std::optional<Value>(std::string_view name)>;

// A node-call source's elements (Source::Kind::Call: the node's name and
// its argument values), given by the caller, who can evaluate nodes.
using Caller =
    std::function<std::vector<Value>(std::string_view node, std::span<const Value> args)>;

// Evaluates the comprehension: sources (a reference peeled: a scalar value
// is one element, None none), the cartesian product with the rightmost
// clause fastest, the predicate (a tuple stays only when it is exactly
// true; None anywhere drops it), then the order. Throws EvalError for a
// predicate that orders values of different kinds and for more tuples than
// kMaxTuples.
Tuples evaluate(const Comprehension& c, const Scope& scope, const Caller& call = {});

}  // namespace polyrt::comprehension

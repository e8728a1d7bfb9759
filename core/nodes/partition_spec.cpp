#include "nodes/partition_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

#include "rtlib/rtlib.h"
#include "rtlib/text.hpp"
#include "rtlib/xxh3.hpp"

namespace polyrt::nodes::partitions {

namespace {

using Kind = Bound::Kind;

[[noreturn]] void fail(std::string message) {
  throw SpecError{std::move(message)};
}

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

// Rust's `as u64` of a double: truncation, saturating at 0 and 2^64 - 1,
// NaN to 0. The resolver's rounded positions go through it.
uint64_t saturating_u64(double x) {
  if (!(x > 0)) return 0;
  if (x >= 18446744073709551616.0) return UINT64_MAX;
  return (uint64_t)x;
}

// A number as Rust's str::parse::<f64> reads it: an optional sign, then
// decimal digits with an optional point and exponent, or inf/infinity/nan.
bool parse_f64(std::string_view s, double& out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s[0] == '+' || s[0] == '-') return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size()) return false;
  if (negative) out = -out;
  return true;
}

// A u64 as Rust's str::parse::<u64> reads it: an optional '+', then digits.
bool parse_u64(std::string_view s, uint64_t& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || s[0] == '+' || s[0] == '-') return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

bool is_word(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  });
}

bool is_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {
    const size_t next = s.find(separator, at);
    parts.push_back(s.substr(at, next == std::string_view::npos ? next : next - at));
    if (next == std::string_view::npos) return parts;
    at = next + 1;
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

Bound sized(Kind kind, double number, uint64_t count = 0) {
  Bound b;
  b.kind = kind;
  b.number = number;
  b.count = count;
  return b;
}

Bound marker(Kind kind) {
  Bound b;
  b.kind = kind;
  return b;
}

// The bound a gap skips.
Bound inner_of(const Bound& gap) {
  return sized(gap.gap_of, gap.number, gap.count);
}

std::string bound_text(const Bound& b) {
  switch (b.kind) {
    case Kind::Pct:
      return rt::f64_display(b.number) + "%";
    case Kind::Frac:
      return rt::f64_display(b.number);
    case Kind::Ord:
      return std::to_string(b.count);
    case Kind::Star:
      return "*";
    case Kind::Fill:
      return "...";
    case Kind::StarSplit:
      return "*/" + std::to_string(b.count);
    case Kind::StarShaped:
      return "*/<recipe>";
    case Kind::Gap:
      return "~" + bound_text(inner_of(b));
  }
  return "?";
}

// One number of a spec: N% a percentage, a decimal with a point a fraction
// in [0, 1], a bare integer an ordinal count; `*` and `...` the markers.
Bound parse_bound(std::string_view raw) {
  const std::string_view s = trim(raw);
  if (s.empty()) fail("an empty number in the spec");
  if (s == "...") return marker(Kind::Fill);
  if (s == "*" || s == "*%") return marker(Kind::Star);
  if (s.back() == '%') {
    double value;
    if (!parse_f64(trim(s.substr(0, s.size() - 1)), value)) {
      fail("percentage " + quoted(raw) + " is not a number followed by '%'");
    }
    if (!(value >= 0.0 && value <= 100.0)) {
      fail("percentage " + quoted(raw) + " is outside 0%..100%");
    }
    return sized(Kind::Pct, value);
  }
  if (s.find('.') != std::string_view::npos) {
    double value;
    if (!parse_f64(s, value)) fail("decimal " + quoted(raw) + " is not a number");
    if (!(value >= 0.0 && value <= 1.0)) {
      std::string digits(s);
      std::erase(digits, '.');
      fail("decimal " + quoted(raw) +
           " is not a fraction of the extent (a decimal must lie in 0.0..1.0); write " +
           rt::f64_display(value) + "% for a percentage, or " + digits + " for an ordinal count");
    }
    return sized(Kind::Frac, value);
  }
  uint64_t count;
  if (!parse_u64(s, count)) {
    fail("cannot read " + quoted(raw) +
         " as an ordinal count (digits), a fraction (0.x) or a percentage (N%)");
  }
  return sized(Kind::Ord, 0, count);
}

uint64_t recipe_count(std::string_view arg, std::string_view recipe) {
  uint64_t n;
  if (!parse_u64(arg, n)) {
    fail("recipe '" + std::string(recipe) + "' takes an integer count, not " + quoted(arg));
  }
  if (n == 0) fail("recipe '" + std::string(recipe) + "' needs a count of at least 1");
  if (n > kMaxPartitions) {
    fail("recipe '" + std::string(recipe) + "' count " + std::to_string(n) +
         " is above the most partitions a spec may make, " + std::to_string(kMaxPartitions));
  }
  return n;
}

double recipe_number(std::string_view arg, std::string_view recipe) {
  double x;
  if (!parse_f64(arg, x)) {
    fail("recipe '" + std::string(recipe) + "' takes numbers, not " + quoted(arg));
  }
  return x;
}

void require_arity(const std::vector<std::string_view>& args, size_t n, std::string_view form) {
  if (args.size() != n) {
    fail("recipe " + std::string(form) + " takes " + std::to_string(n) + " argument" +
         (n == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
  }
}

// NaN passes, as in polydat, and fails later as a weight that is not finite.
void require_positive(double x, std::string_view what, std::string_view form) {
  if (x <= 0.0) {
    fail("recipe " + std::string(form) + " needs " + std::string(what) + " > 0, got " +
         rt::f64_display(x));
  }
}

// mul:R or mul:S,R: S, S*R, S*R^2, ... ending when a decaying term falls
// below S/1000 or a growing one reaches 1000*S (that term included), at
// most 64 terms.
std::vector<double> recipe_mul(const std::vector<std::string_view>& args) {
  if (args.size() != 1 && args.size() != 2) {
    fail("recipe mul:R or mul:S,R takes 1 or 2 arguments, got " + std::to_string(args.size()));
  }
  const double start = args.size() == 2 ? recipe_number(args[0], "mul") : 1.0;
  const double ratio = recipe_number(args.back(), "mul");
  require_positive(start, "S", "mul:S,R");
  require_positive(ratio, "R", "mul:R");
  std::vector<double> terms;
  double term = start;
  for (int i = 0; i < 64; ++i) {
    if (!std::isfinite(term) || term <= 0.0) break;
    terms.push_back(term);
    if (ratio < 1.0 && term < start * 0.001) break;
    term *= ratio;
    if (ratio >= 1.0 && term >= start * 1000.0) {
      if (std::isfinite(term)) terms.push_back(term);
      break;
    }
  }
  if (terms.empty()) fail("recipe mul made no terms; use a larger start");
  return terms;
}

// The raw weights of recipe `name`, before normalising.
std::vector<double> recipe_weights(std::string_view name, std::string_view arg_text) {
  std::vector<std::string_view> args = split(arg_text, ',');
  for (std::string_view& a : args) a = trim(a);
  std::vector<double> w;
  const auto count_of = [&](std::string_view form) {
    require_arity(args, 1, form);
    return recipe_count(args[0], name);
  };
  if (name == "linear") {
    w.assign(count_of("linear:N"), 1.0);
  } else if (name == "ratios") {
    for (std::string_view a : args) w.push_back(recipe_number(a, name));
  } else if (name == "mul") {
    w = recipe_mul(args);
  } else if (name == "bin") {
    // The coefficients of (1+x)^(N-1).
    const uint64_t n = count_of("bin:N");
    w.assign(n, 1.0);
    for (uint64_t k = 1; k < n; ++k) w[k] = w[k - 1] * (double)(n - 1 - k + 1) / (double)k;
  } else if (name == "fib") {
    // 1, 2, 3, 5, 8, ...: the Fibonacci numbers without the repeated 1.
    const uint64_t n = count_of("fib:N");
    uint64_t a = 1, b = 2;
    for (uint64_t i = 0; i < n; ++i) {
      w.push_back((double)a);
      const uint64_t next = a > UINT64_MAX - b ? UINT64_MAX : a + b;
      a = b;
      b = next;
    }
  } else if (name == "ln") {
    const uint64_t n = count_of("ln:N");
    for (uint64_t i = 1; i <= n; ++i) w.push_back(pd_ln(1.0 + (double)i));
  } else if (name == "geom") {
    require_arity(args, 2, "geom:N,R");
    const uint64_t n = recipe_count(args[0], name);
    const double r = recipe_number(args[1], name);
    require_positive(r, "R", "geom:N,R");
    double term = 1.0;
    for (uint64_t i = 0; i < n; ++i, term *= r) w.push_back(term);
  } else if (name == "zipf") {
    require_arity(args, 2, "zipf:s,N");
    const double s = recipe_number(args[0], name);
    require_positive(s, "s", "zipf:s,N");
    const uint64_t n = recipe_count(args[1], name);
    for (uint64_t i = 1; i <= n; ++i) w.push_back(1.0 / pd_pow((double)i, s));
  } else if (name == "pareto") {
    require_arity(args, 2, "pareto:alpha,N");
    const double alpha = recipe_number(args[0], name);
    require_positive(alpha, "alpha", "pareto:alpha,N");
    const uint64_t n = recipe_count(args[1], name);
    for (uint64_t i = 1; i <= n; ++i) w.push_back(pd_pow(1.0 / (double)i, alpha));
  } else if (name == "front_heavy") {
    for (uint64_t i = count_of("front_heavy:N"); i >= 1; --i) w.push_back((double)i);
  } else if (name == "back_heavy") {
    const uint64_t n = count_of("back_heavy:N");
    for (uint64_t i = 1; i <= n; ++i) w.push_back((double)i);
  } else {
    fail("unknown recipe " + quoted(name) +
         "; the recipes are linear, ratios, mul, bin, fib, ln, geom, zipf, pareto, "
         "front_heavy and back_heavy");
  }
  return w;
}

// Weights scaled to sum to 100.
std::vector<double> normalised(const std::vector<double>& weights) {
  double sum = 0.0;
  for (double x : weights) {
    if (!std::isfinite(x) || x < 0.0) fail("a recipe weight is negative or not finite");
    sum += x;
  }
  if (!(sum > 0.0)) fail("the recipe's weights sum to zero");
  std::vector<double> out;
  out.reserve(weights.size());
  for (double x : weights) out.push_back(x / sum * 100.0);
  return out;
}

// `name:args` with an alphabetic name, or nothing.
std::optional<std::pair<std::string_view, std::string_view>> split_recipe(std::string_view s) {
  const size_t colon = s.find(':');
  if (colon == std::string_view::npos || !is_word(s.substr(0, colon))) return std::nullopt;
  return std::pair{s.substr(0, colon), s.substr(colon + 1)};
}

std::optional<std::pair<std::string_view, std::string_view>> split_range(std::string_view s) {
  const size_t at = s.find("..");
  if (at == std::string_view::npos) return std::nullopt;
  return std::pair{s.substr(0, at), s.substr(at + 2)};
}

// What follows `*/`: a chunk count or a recipe shaping the remainder.
Bound parse_star_tail(std::string_view divisor) {
  if (divisor.find(':') == std::string_view::npos && divisor.find(',') != std::string_view::npos) {
    fail("'*/" + std::string(divisor.substr(0, divisor.find(','))) +
         "' takes the rest of the extent, so it must be the list's last entry");
  }
  if (auto recipe = split_recipe(divisor)) {
    if (recipe->first == "linear") {
      fail("'*/linear:" + std::string(recipe->second) +
           "': an equal split of the remainder is '*/" + std::string(recipe->second) + "'");
    }
    Bound b = marker(Kind::StarShaped);
    b.weights = normalised(recipe_weights(recipe->first, recipe->second));
    return b;
  }
  if (divisor.find_first_of("%.") != std::string_view::npos) {
    fail("'*/" + std::string(divisor) +
         "': the number after '*/' is how many equal chunks to split the remainder into; for "
         "chunks of a fixed size repeated to the end, write '" +
         std::string(divisor) + ",...'");
  }
  uint64_t n;
  if (!parse_u64(divisor, n)) {
    fail("'*/" + std::string(divisor) + "' is neither '*/N' (N an integer) nor '*/recipe:args'");
  }
  if (n == 0) fail("'*/0': the remainder must be split into at least 1 chunk");
  Bound b = marker(Kind::StarSplit);
  b.count = n;
  return b;
}

// One entry before any `*/` tail: a sized bound, `*`, `...`, a gap `~B` or
// a repetition `BxN`.
void parse_entry(std::string_view raw, std::vector<Bound>& out) {
  if (raw.front() == '~') {
    const std::string_view rest = raw.substr(1);
    const size_t x = rest.find('x');
    if (x != std::string_view::npos && is_digits(rest.substr(x + 1))) {
      fail(quoted(raw) + ": a gap cannot repeat; give the gap's whole size");
    }
    const Bound inner = parse_bound(rest);
    if (!inner.sized()) {
      fail(quoted(raw) +
           ": a gap skips a size (a percentage, fraction or ordinal count); to leave the end "
           "unassigned, end the list without '*'");
    }
    Bound gap = inner;
    gap.kind = Kind::Gap;
    gap.gap_of = inner.kind;
    out.push_back(gap);
    return;
  }
  const size_t x = raw.find('x');
  if (x != std::string_view::npos && x > 0 && is_digits(raw.substr(x + 1))) {
    uint64_t n;
    if (!parse_u64(raw.substr(x + 1), n))
      fail("the repetition count of " + quoted(raw) + " is too large");
    if (n == 0) fail(quoted(raw) + ": the repetition count must be at least 1");
    if (n > kMaxPartitions) {
      fail(quoted(raw) + ": the repetition count is above the most partitions a spec may make, " +
           std::to_string(kMaxPartitions));
    }
    const Bound b = parse_bound(raw.substr(0, x));
    if (!b.sized()) fail(quoted(raw) + ": only a size (percentage, fraction or ordinal) repeats");
    out.insert(out.end(), n, b);
    return;
  }
  out.push_back(parse_bound(raw));
}

std::vector<Bound> parse_delta_list(std::string_view text, std::string_view spec) {
  std::string_view head = text;
  std::optional<std::string_view> star_tail;
  if (text.starts_with("*/")) {
    head = {};
    star_tail = text.substr(2);
  } else if (const size_t at = text.find(",*/"); at != std::string_view::npos) {
    head = text.substr(0, at);
    star_tail = text.substr(at + 3);
  }
  std::vector<Bound> deltas;
  if (!head.empty()) {
    for (std::string_view entry : split(head, ',')) {
      if (entry.empty()) fail("an empty entry in the list " + quoted(spec));
      parse_entry(entry, deltas);
    }
  } else if (!star_tail) {
    fail("empty partition spec " + quoted(spec));
  }
  if (star_tail) deltas.push_back(parse_star_tail(*star_tail));
  const auto tails =
      std::count_if(deltas.begin(), deltas.end(), [](const Bound& b) { return b.tail(); });
  if (tails > 1) {
    fail("a list takes at most one remainder entry ('*', '...', '*/N' or '*/recipe'); " +
         quoted(spec) + " has " + std::to_string(tails));
  }
  const auto last_only = std::find_if(deltas.begin(), deltas.end(), [](const Bound& b) {
    return b.kind == Kind::Fill || b.kind == Kind::StarSplit || b.kind == Kind::StarShaped;
  });
  if (last_only != deltas.end()) {
    if (last_only + 1 != deltas.end()) {
      fail("'" + bound_text(*last_only) +
           "' takes the rest of the extent, so it must be the last " + "entry of " + quoted(spec));
    }
    if (last_only->kind == Kind::Fill) {
      if (last_only == deltas.begin()) {
        fail("'...' repeats the size before it, and " + quoted(spec) +
             " has none (write e.g. '1%,...')");
      }
      if ((last_only - 1)->kind == Kind::Gap) {
        fail("'...' after a gap in " + quoted(spec) +
             " would repeat the gap and make nothing; put a size before '...'");
      }
    }
  }
  if (std::none_of(deltas.begin(), deltas.end(),
                   [](const Bound& b) { return b.sized() || b.tail(); })) {
    fail(quoted(spec) + " makes no partitions: every entry is a gap");
  }
  return deltas;
}

std::pair<Bound, Bound> parse_range(std::string_view text, std::string_view spec, bool window) {
  const auto ends = split_range(text);
  if (!ends) fail("the window after 'in' must be a range start..end, got " + quoted(text));
  Bound start = parse_bound(ends->first), end = parse_bound(ends->second);
  if (!start.sized() || !end.sized()) {
    fail(window ? "the window's ends in " + quoted(spec) +
                      " must be sizes (percentages, fractions or ordinals)"
                : "'*', '...', '~' and '*/N' belong in a comma-separated list, not in the range " +
                      quoted(spec));
  }
  return {start, end};
}

// The chunking part: a recipe, a list, or a range.
void parse_chunking(std::string_view text, std::string_view spec, Spec& out) {
  if (text.empty()) fail("empty partition spec " + quoted(spec));
  if (auto recipe = split_recipe(text)) {
    for (double w : normalised(recipe_weights(recipe->first, recipe->second))) {
      out.deltas.push_back(sized(Kind::Pct, w));
    }
    return;
  }
  if (text == "...") fail("'...' repeats the size before it and needs one (write e.g. '1%,...')");
  // A list is recognised before a range: its '...' contains '..'.
  if (text.starts_with("*/") || text.find(",*/") != std::string_view::npos ||
      text.find(',') != std::string_view::npos || !split_range(text)) {
    out.deltas = parse_delta_list(text, spec);
    return;
  }
  out.range = parse_range(text, spec, false);
}

// The tokens joined without spaces and without the advisory brackets.
std::string joined(const std::vector<std::string_view>& tokens, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    for (char c : tokens[i]) {
      if (c != '[' && c != ']' && c != '(' && c != ')') out += c;
    }
  }
  return out;
}

Order parse_order(std::string_view word) {
  if (word == "unchanged") return Order::Unchanged;
  if (word == "smallest_first") return Order::SmallestFirst;
  if (word == "largest_first") return Order::LargestFirst;
  if (word == "random") return Order::Random;
  if (word == "ascending" || word == "descending") {
    fail("'" + std::string(word) +
         "' is ambiguous: orders sort by partition size, and position order is always "
         "'unchanged'; write '" +
         (word == "ascending" ? "smallest_first" : "largest_first") + "'");
  }
  fail("unknown order " + quoted(word) +
       "; the orders are unchanged, smallest_first, "
       "largest_first and random");
}

// Where resolved partitions sit in the whole base range, in percent.
struct Frame {
  uint64_t base_start;
  uint64_t base_extent;

  double pct(uint64_t ordinal) const {
    return base_extent == 0 ? 0.0 : (double)(ordinal - base_start) * 100.0 / (double)base_extent;
  }
  Partition partition(uint64_t idx, uint64_t start, uint64_t end) const {
    return {idx, 0, start, end, pct(start), pct(end), base_extent};
  }
};

uint64_t resolve_bound(const Bound& b, uint64_t start, uint64_t end) {
  const uint64_t extent = end > start ? end - start : 0;
  switch (b.kind) {
    case Kind::Pct:
      return start + saturating_u64(std::round(b.number / 100.0 * (double)extent));
    case Kind::Frac:
      return start + saturating_u64(std::round(b.number * (double)extent));
    default:
      return std::min(start > UINT64_MAX - b.count ? UINT64_MAX : start + b.count, end);
  }
}

// A sized delta's exact size in ordinals, before rounding.
double exact_size(const Bound& b, uint64_t extent) {
  switch (b.kind) {
    case Kind::Pct:
      return b.number / 100.0 * (double)extent;
    case Kind::Frac:
      return b.number * (double)extent;
    case Kind::Gap:
      return exact_size(inner_of(b), extent);
    default:
      return (double)b.count;
  }
}

// [start, end) in n chunks: boundary i at start + round(i * span / n).
std::vector<std::pair<uint64_t, uint64_t>> split_evenly(uint64_t start, uint64_t end, uint64_t n) {
  __extension__ const unsigned __int128 span = end - start;
  const auto boundary = [&](uint64_t i) {
    __extension__ typedef unsigned __int128 u128;
    return start + (uint64_t)(((u128)i * span + n / 2) / n);
  };
  std::vector<std::pair<uint64_t, uint64_t>> chunks;
  chunks.reserve(n);
  for (uint64_t i = 0; i < n; ++i) chunks.emplace_back(boundary(i), boundary(i + 1));
  return chunks;
}

void require_room(size_t partitions) {
  if (partitions >= kMaxPartitions) {
    fail("the spec makes more than " + std::to_string(kMaxPartitions) + " partitions");
  }
}

// Walks the list from dom_start: every boundary is the exact cumulative
// position rounded once, so rounding never accumulates.
std::vector<Partition> resolve_list(const std::vector<Bound>& deltas, uint64_t dom_start,
                                    uint64_t dom_end, const Frame& frame) {
  const uint64_t extent = dom_end - dom_start;
  double fixed = 0.0;
  for (const Bound& b : deltas) {
    if (!b.tail()) fixed += exact_size(b, extent);
  }
  // Float noise may carry a list that sums to the extent just past it.
  const double tolerance = 1e-6 * std::max((double)extent, 1.0);
  if (fixed > (double)extent + tolerance) {
    fail("the list's sizes add up to " + std::to_string(saturating_u64(std::round(fixed))) +
         " ordinals, more than the extent of " + std::to_string(extent) +
         "; shorten the list or end it with '*' to take what is left");
  }
  std::vector<Partition> out;
  uint64_t cursor = dom_start;
  double position = 0.0;
  const auto emit = [&](uint64_t start, uint64_t end) {
    require_room(out.size());
    out.push_back(frame.partition(out.size(), start, end));
  };
  const auto boundary = [&](double exact) {
    return std::min(dom_start + saturating_u64(std::round(exact)), dom_end);
  };
  for (size_t i = 0; i < deltas.size(); ++i) {
    const Bound& d = deltas[i];
    switch (d.kind) {
      case Kind::Star: {
        position += (double)extent - fixed;
        const uint64_t next = boundary(position);
        emit(cursor, next);
        cursor = next;
        break;
      }
      case Kind::Fill: {
        const double chunk = exact_size(deltas[i - 1], extent);
        if (chunk < 1.0) {
          fail("'...' would repeat '" + bound_text(deltas[i - 1]) +
               "', which is less than one ordinal of the extent " + std::to_string(extent));
        }
        while (cursor < dom_end) {
          position += chunk;
          const uint64_t next = boundary(position);
          emit(cursor, next);
          cursor = next;
        }
        break;
      }
      case Kind::StarSplit: {
        const uint64_t remainder = dom_end - cursor;
        if (remainder == 0) {
          fail("'*/" + std::to_string(d.count) +
               "' has nothing left to split: the sizes before it cover the extent of " +
               std::to_string(extent));
        }
        if (d.count > remainder) {
          fail("'*/" + std::to_string(d.count) + "' cannot split the remaining " +
               std::to_string(remainder) + " ordinals into " + std::to_string(d.count) +
               " non-empty partitions");
        }
        require_room(out.size() + d.count - 1);
        for (const auto& [s, e] : split_evenly(cursor, dom_end, d.count)) emit(s, e);
        cursor = dom_end;
        break;
      }
      case Kind::StarShaped: {
        const uint64_t remainder = dom_end - cursor;
        if (remainder == 0) {
          fail("'*/<recipe>' has nothing left to split: the sizes before it cover the extent of " +
               std::to_string(extent));
        }
        const uint64_t start = cursor;
        double cumulative = 0.0;
        for (double w : d.weights) {
          cumulative += w;
          const uint64_t next = std::min(
              start + saturating_u64(std::round(cumulative / 100.0 * (double)remainder)), dom_end);
          if (next == cursor) {
            fail("'*/<recipe>' makes an empty partition: a weight of " + rt::f64_fixed(w, 3) +
                 "% of the remaining " + std::to_string(remainder) +
                 " ordinals rounds to none; use fewer weights or a larger extent");
          }
          emit(cursor, next);
          cursor = next;
        }
        position += (double)remainder;
        break;
      }
      case Kind::Gap:
        position += exact_size(d, extent);
        cursor = boundary(position);
        break;
      default: {
        position += exact_size(d, extent);
        const uint64_t next = boundary(position);
        emit(cursor, next);
        cursor = next;
        break;
      }
    }
  }
  return out;
}

void apply_order(std::vector<Partition>& parts, const Spec& spec) {
  const auto by_size = [](const Partition& a, const Partition& b) {
    return a.cardinality() < b.cardinality();
  };
  switch (spec.order) {
    case Order::Unchanged:
      return;
    case Order::SmallestFirst:
      std::stable_sort(parts.begin(), parts.end(), by_size);
      return;
    case Order::LargestFirst:
      std::stable_sort(parts.begin(), parts.end(),
                       [&](const Partition& a, const Partition& b) { return by_size(b, a); });
      return;
    case Order::Random: {
      // Fisher-Yates driven by a SplitMix64 stream seeded with the spec's hash.
      uint64_t state = rt::xxh3_64(debug_text(spec));
      for (size_t i = parts.size(); i-- > 1;) {
        const uint64_t j = pd_hash(state) % (uint64_t)(i + 1);
        state += 0x9E3779B97F4A7C15ULL;
        std::swap(parts[i], parts[j]);
      }
      return;
    }
  }
}

std::string debug_bound(const Bound& b) {
  switch (b.kind) {
    case Kind::Pct:
      return "Pct(" + rt::f64_debug(b.number) + ")";
    case Kind::Frac:
      return "Frac(" + rt::f64_debug(b.number) + ")";
    case Kind::Ord:
      return "Ord(" + std::to_string(b.count) + ")";
    case Kind::Star:
      return "Star";
    case Kind::Fill:
      return "Fill";
    case Kind::StarSplit:
      return "StarSplit(" + std::to_string(b.count) + ")";
    case Kind::StarShaped: {
      std::string out = "StarShaped([";
      for (size_t i = 0; i < b.weights.size(); ++i) {
        if (i) out += ", ";
        out += rt::f64_debug(b.weights[i]);
      }
      return out + "])";
    }
    case Kind::Gap:
      return "Gap(" + debug_bound(inner_of(b)) + ")";
  }
  return "?";
}

std::string_view debug_order(Order order) {
  switch (order) {
    case Order::Unchanged:
      return "Unchanged";
    case Order::SmallestFirst:
      return "SmallestFirst";
    case Order::LargestFirst:
      return "LargestFirst";
    case Order::Random:
      return "Random";
  }
  return "?";
}

}  // namespace

Spec parse(std::string_view text) {
  std::vector<std::string_view> tokens;
  for (size_t at = 0; at < text.size();) {
    while (at < text.size() && is_space(text[at])) ++at;
    size_t end = at;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (end > at) tokens.push_back(text.substr(at, end - at));
    at = end;
  }
  if (tokens.empty()) fail("empty partition spec " + quoted(text));
  Spec spec;
  // A trailing bare word is the order: a chunking never ends in one.
  if (tokens.size() >= 2 && is_word(tokens.back()) && tokens.back() != "in") {
    spec.order = parse_order(tokens.back());
    tokens.pop_back();
  }
  const auto in_at = std::find(tokens.begin(), tokens.end(), std::string_view("in"));
  size_t chunk_end = tokens.size();
  if (in_at != tokens.end()) {
    if (std::find(in_at + 1, tokens.end(), std::string_view("in")) != tokens.end()) {
      fail("a spec takes at most one 'in' window: " + quoted(text));
    }
    chunk_end = (size_t)(in_at - tokens.begin());
    if (chunk_end == 0) fail("'in' needs a chunking before it: " + quoted(text));
    if (chunk_end + 1 == tokens.size()) fail("'in' needs a window range after it: " + quoted(text));
    spec.window = parse_range(joined(tokens, chunk_end + 1, tokens.size()), text, true);
  }
  parse_chunking(joined(tokens, 0, chunk_end), text, spec);
  return spec;
}

std::vector<Partition> resolve(const Spec& spec, uint64_t base_start, uint64_t base_end) {
  if (base_end < base_start) {
    fail("the base range ends (" + std::to_string(base_end) + ") before it starts (" +
         std::to_string(base_start) + ")");
  }
  const Frame frame{base_start, base_end - base_start};
  uint64_t dom_start = base_start, dom_end = base_end;
  if (spec.window) {
    dom_start = resolve_bound(spec.window->first, base_start, base_end);
    dom_end = resolve_bound(spec.window->second, base_start, base_end);
    if (dom_end < dom_start) {
      fail("the window " + bound_text(spec.window->first) + ".." + bound_text(spec.window->second) +
           " is reversed over [" + std::to_string(base_start) + ", " + std::to_string(base_end) +
           "): it starts at " + std::to_string(dom_start) + " and ends at " +
           std::to_string(dom_end));
    }
  }
  std::vector<Partition> parts;
  if (spec.range) {
    const auto& [s, e] = *spec.range;
    const uint64_t start = resolve_bound(s, dom_start, dom_end);
    const uint64_t end = resolve_bound(e, dom_start, dom_end);
    const std::string where = "the range " + bound_text(s) + ".." + bound_text(e) + " over [" +
                              std::to_string(dom_start) + ", " + std::to_string(dom_end) + ")";
    if (end < start) {
      fail(where + " is reversed: it starts at " + std::to_string(start) + " and ends at " +
           std::to_string(end));
    }
    if (end == start) {
      fail(where + " rounds to no ordinals; widen the range or resolve it over a larger extent");
    }
    parts.push_back(frame.partition(0, start, end));
  } else {
    parts = resolve_list(spec.deltas, dom_start, dom_end, frame);
  }
  for (Partition& p : parts) p.count = parts.size();
  apply_order(parts, spec);
  return parts;
}

Partition reproject(const Partition& p, uint64_t extent) {
  const Frame frame{0, extent};
  const Bound start{.kind = Kind::Pct, .number = p.start_pct};
  const Bound end{.kind = Kind::Pct, .number = p.end_pct};
  Partition out = frame.partition(p.idx, resolve_bound(start, 0, extent),
                                  std::min(resolve_bound(end, 0, extent), extent));
  out.count = p.count;
  return out;
}

std::vector<Partition> subdivide(const Partition& parent, uint64_t n) {
  const uint64_t card = parent.cardinality();
  if (n == 0) fail("subdivide needs at least 1 sub-partition, got 0");
  if (n > card) {
    fail("subdivide cannot split partition #" + std::to_string(parent.idx) + " of " +
         std::to_string(card) + " ordinals into " + std::to_string(n) +
         " non-empty sub-partitions");
  }
  require_room(n - 1);
  const auto pct_at = [&](uint64_t ord) {
    return parent.start_pct +
           (double)(ord - parent.start_ord) / (double)card * (parent.end_pct - parent.start_pct);
  };
  std::vector<Partition> out;
  out.reserve(n);
  for (const auto& [s, e] : split_evenly(parent.start_ord, parent.end_ord, n)) {
    out.push_back({out.size(), n, s, e, pct_at(s), pct_at(e), parent.base_extent});
  }
  return out;
}

std::string debug_text(const Spec& spec) {
  std::string out = "PartitionSpec { chunking: ";
  if (spec.range) {
    out += "SingleRange { start: " + debug_bound(spec.range->first) +
           ", end: " + debug_bound(spec.range->second) + " }";
  } else {
    out += "DeltaList { deltas: [";
    for (size_t i = 0; i < spec.deltas.size(); ++i) {
      if (i) out += ", ";
      out += debug_bound(spec.deltas[i]);
    }
    out += "] }";
  }
  out += ", window: ";
  out += spec.window ? "Some((" + debug_bound(spec.window->first) + ", " +
                           debug_bound(spec.window->second) + "))"
                     : std::string("None");
  out += ", order: " + std::string(debug_order(spec.order)) + " }";
  return out;
}

}  // namespace polyrt::nodes::partitions

// A comprehension evaluated into its tuples against the scope a traversal
// opens in: sources read, the cartesian of the clauses (dependent clauses
// per prefix), the `where` predicate, the order, sampling.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

#include "comprehension/clause_rules.hpp"
#include "comprehension/comprehension.hpp"
#include "comprehension/generators.hpp"
#include "polyrt/cancellation.hpp"
#include "polyrt/error.hpp"
#include "rtlib/rtlib.h"
#include "value/vector_values.hpp"

namespace polyrt::comprehension {

namespace {

std::vector<Value> source_values(const Source& s, const Scope& scope, const Caller& call);

// A range source's bounds: its literal ones, or those a range whose bounds
// name values (`0..{n}`) reads when it opens, checked; nullopt when a bound
// reads None (the range lists nothing).
std::optional<RangeBounds> resolved_range(const Source& s, const Scope& scope) {
  if (s.arguments.empty()) return RangeBounds{s.start, s.end, s.step, nullptr};
  uint64_t bound[3];
  for (size_t b = 0; b < 3; ++b) {
    const Source& a = s.arguments[b];
    const std::optional<Value> v =
        a.kind == Source::Kind::Reference ? scope(a.reference) : a.values[0];
    if (!v || v->is_none()) return std::nullopt;
    if (v->type() != Type::U64) {
      throw EvalError("range bound {" + a.reference + "} is a " +
                          std::string(type_name(v->type())) + " (" + v->to_string() +
                          "); a range's bounds are u64",
                      "for");
    }
    bound[b] = v->as_u64();
  }
  const RangeBounds r = range_bounds(bound[0], bound[1], bound[2], s.closed);
  if (r.error) throw EvalError(std::string(r.error) + " (in a range read when it opened)", "for");
  return r;
}

// How many values a range lists (counted without end - start + step - 1,
// which can wrap past 2^64).
uint64_t range_size(const RangeBounds& r) {
  return r.end > r.start ? (r.end - r.start - 1) / r.step + 1 : 0;
}

// A spread's items: each literal, each spread vector's elements; a spread
// reading None yields nothing.
std::vector<Value> spread_values(const Source& s, const Scope& scope) {
  std::vector<Value> out;
  for (const Source& item : s.arguments) {
    if (item.kind != Source::Kind::Reference) {
      out.push_back(item.values[0]);
      continue;
    }
    const std::optional<Value> v = scope(item.reference);
    if (!v || v->is_none()) return {};
    for (Value& e : vector_elements(*v)) out.push_back(std::move(e));
  }
  return out;
}

// A str a {name} reads, peeled as polydat peels it: into its string
// comprehension's tokens, each a str (polydat types a numeric token as a
// number; polyrt's element types are fixed when the program compiles). A
// whole text is one element in single quotes: '{name}'.
std::vector<Value> string_tokens(std::string_view text) {
  const auto separator = [](char c) {
    return kStringSeparators.find(c) != std::string_view::npos || std::isspace((unsigned char)c);
  };
  const auto each_token = [&](const auto& take) {
    for (size_t k = 0; k < text.size();) {
      while (k < text.size() && separator(text[k])) ++k;
      size_t end = k;
      while (end < text.size() && !separator(text[end])) ++end;
      if (end > k) take(text.substr(k, end - k));
      k = end;
    }
  };
  size_t count = 0;
  each_token([&](std::string_view) { ++count; });
  if (count > kMaxTuples) {
    throw EvalError("a str source of " + std::to_string(count) + " tokens is more than the " +
                        std::to_string(kMaxTuples) + " tuples one opening materializes",
                    "for");
  }
  std::vector<Value> out;
  out.reserve(count);
  each_token([&](std::string_view t) { out.push_back(Value::str(std::string(t))); });
  return out;
}

// The values a source yields (a reference peeled one level: a str into its
// tokens, a vector into its elements, another scalar is one element, None
// none).
std::vector<Value> source_values(const Source& s, const Scope& scope, const Caller& call) {
  switch (s.kind) {
    case Source::Kind::Interval:
      internal_error("an interval is sampled, never listed");
    case Source::Kind::Range: {
      const std::optional<RangeBounds> r = resolved_range(s, scope);
      if (!r) return {};
      std::vector<Value> out;
      const uint64_t n = range_size(*r);
      if (n > kMaxTuples) {
        throw EvalError("a comprehension range of " + std::to_string(n) +
                            " values is more than the " + std::to_string(kMaxTuples) +
                            " tuples one opening materializes",
                        "for");
      }
      for (uint64_t k = 0; k < n; ++k) out.push_back(Value::u64(r->start + k * r->step));
      return out;
    }
    case Source::Kind::List:
      return s.values;
    case Source::Kind::Spread:
      return spread_values(s, scope);
    case Source::Kind::Text: {
      const std::optional<std::string> text = compose(s.reference, scope);
      if (!text) return {};  // a placeholder reads None
      return {Value::str(*text)};
    }
    case Source::Kind::All:
      throw EvalError("all(" + s.reference +
                          ") enumerates a top-level cursor's range, which only a traversal of "
                          "the program resolves",
                      "for");
    case Source::Kind::Reference: {
      const std::optional<std::string> name =
          is_composed(s.reference) ? compose(s.reference, scope) : s.reference;
      if (!name) return {};  // a placeholder reads None
      const std::optional<Value> v = scope(*name);
      if (!v || v->is_none()) return {};
      return v->type() == Type::Str ? string_tokens(v->text()) : vector_elements(*v);
    }
    case Source::Kind::Generator:
    case Source::Kind::Call: {
      std::vector<Value> args;
      for (const Source& a : s.arguments) {
        // An argument is a value as it is: a vector is not peeled.
        std::optional<Value> v;
        if (a.kind == Source::Kind::Reference) {
          v = scope(a.reference);
        } else if (std::vector<Value> values = source_values(a, scope, call); !values.empty()) {
          v = std::move(values[0]);
        }
        if (!v || v->is_none()) return {};  // an argument reading None: no values
        args.push_back(std::move(*v));
      }
      if (s.kind == Source::Kind::Generator) return generate(s.generator, args);
      if (!call) {
        throw EvalError("'" + s.generator + "(...)' is evaluated when a traversal opens", "for");
      }
      std::vector<Value> values = call(s.generator, args);
      if (values.size() > kMaxTuples) {
        throw EvalError(s.generator + "(...) gives " + std::to_string(values.size()) +
                            " values, more than the " + std::to_string(kMaxTuples) +
                            " tuples one opening materializes",
                        "for");
      }
      return values;
    }
  }
  return {};
}

// Three-valued: nullopt is None.
class PredicateEvaluator {
 public:
  PredicateEvaluator(const std::vector<std::string>& names, const std::vector<Value>& tuple,
                     const Scope& scope)
      : names_(names), tuple_(tuple), scope_(scope) {}

  Value eval(const Predicate& p) {
    switch (p.kind) {
      case Predicate::Kind::Literal:
        return p.literal;
      case Predicate::Kind::Reference:
        return lookup(p.name);
      case Predicate::Kind::Not: {
        const Value v = eval(*p.args[0]);
        if (v.is_none()) return v;
        return Value::boolean(!truthy(v));
      }
      case Predicate::Kind::Negate: {
        const Value v = eval(*p.args[0]);
        if (v.is_none()) return v;
        if (v.type() == Type::F64) return Value::f64(-v.as_f64());
        if (v.type() == Type::U64) return Value::f64(-(double)v.as_u64());
        throw EvalError("where: '-' applies to numbers, not a " + std::string(type_name(v.type())),
                        "for");
      }
      case Predicate::Kind::In: {
        const Value v = eval(*p.args[0]);
        if (v.is_none()) return v;
        for (const Value& m : p.members) {
          if (compare(v, m) == 0) return Value::boolean(true);
        }
        return Value::boolean(false);
      }
      case Predicate::Kind::Binary:
        return binary(p);
    }
    return Value::none();
  }

 private:
  Value lookup(const std::string& name) {
    for (size_t k = 0; k < names_.size(); ++k) {
      if (names_[k] == name) return tuple_[k];
    }
    const std::optional<Value> v = scope_(name);
    return v ? *v : Value::none();
  }

  // A truth value: a bool, or a number (true when it is not zero).
  static bool truthy(const Value& v) {
    if (v.type() == Type::Bool) return v.as_bool();
    if (v.type() == Type::U64) return v.as_u64() != 0;
    if (v.type() == Type::F64) return v.as_f64() != 0;
    throw EvalError("where: '!', '&&' and '||' take bools and numbers, not a " +
                        std::string(type_name(v.type())),
                    "for");
  }

  // + - * / % as the statement language computes them: u64 with u64 wraps
  // (a zero divisor gives 0), a float makes both f64; + joins two strings.
  static Value arithmetic(const std::string& op, const Value& a, const Value& b) {
    const bool an = a.type() == Type::U64 || a.type() == Type::F64;
    const bool bn = b.type() == Type::U64 || b.type() == Type::F64;
    if (op == "+" && a.type() == Type::Str && b.type() == Type::Str) {
      return Value::str(a.text() + b.text());
    }
    if (!an || !bn) {
      throw EvalError("where: '" + op + "' takes numbers, not a " +
                          std::string(type_name(an ? b.type() : a.type())),
                      "for");
    }
    if (a.type() == Type::U64 && b.type() == Type::U64) {
      const uint64_t x = a.as_u64(), y = b.as_u64();
      const char o = op[0];
      return Value::u64(o == '+'   ? x + y
                        : o == '-' ? x - y
                        : o == '*' ? x * y
                        : y == 0   ? 0
                        : o == '/' ? x / y
                                   : x % y);
    }
    const double x = a.type() == Type::U64 ? (double)a.as_u64() : a.as_f64();
    const double y = b.type() == Type::U64 ? (double)b.as_u64() : b.as_f64();
    const char o = op[0];
    // The body's f64 `/` and `%` (the rtlib's): 0.0 for a zero divisor.
    return Value::f64(o == '+'   ? x + y
                      : o == '-' ? x - y
                      : o == '*' ? x * y
                      : o == '/' ? pd_f64_div(x, y)
                                 : pd_f64_mod(x, y));
  }

  // <0, 0, >0; 2 for unordered (NaN, or kinds that cannot be ordered).
  static int compare(const Value& a, const Value& b) {
    const bool an = a.type() == Type::U64 || a.type() == Type::F64;
    const bool bn = b.type() == Type::U64 || b.type() == Type::F64;
    if (an && bn) {
      if (a.type() == Type::U64 && b.type() == Type::U64) {
        return a.as_u64() < b.as_u64() ? -1 : a.as_u64() > b.as_u64() ? 1 : 0;
      }
      const double x = a.type() == Type::U64 ? (double)a.as_u64() : a.as_f64();
      const double y = b.type() == Type::U64 ? (double)b.as_u64() : b.as_f64();
      return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
    }
    if (a.type() != b.type()) return 3;  // different kinds
    if (a.type() == Type::Str) return a.text() < b.text() ? -1 : a.text() > b.text() ? 1 : 0;
    if (a.type() == Type::Bool) return (int)a.as_bool() - (int)b.as_bool();
    return 3;
  }

  Value binary(const Predicate& p) {
    if (p.op == "&&" || p.op == "||") {
      // Left to right, short-circuit; a None operand ends it as None.
      const Value a = eval(*p.args[0]);
      if (a.is_none()) return a;
      if (truthy(a) == (p.op == "||")) return a;
      const Value b = eval(*p.args[1]);
      if (b.is_none()) return b;
      return Value::boolean(truthy(b));
    }
    const Value a = eval(*p.args[0]);
    if (a.is_none()) return a;
    const Value b = eval(*p.args[1]);
    if (b.is_none()) return b;
    if (p.op.size() == 1 && std::strchr("+-*/%", p.op[0])) return arithmetic(p.op, a, b);
    const int c = compare(a, b);
    if (p.op == "==") return Value::boolean(c == 0);
    if (p.op == "!=") return Value::boolean(c != 0);
    if (c == 3) {
      throw EvalError("where: '" + p.op + "' cannot order a " + std::string(type_name(a.type())) +
                          " and a " + std::string(type_name(b.type())),
                      "for");
    }
    if (c == 2) return Value::boolean(false);  // NaN is unordered
    if (p.op == "<") return Value::boolean(c < 0);
    if (p.op == "<=") return Value::boolean(c <= 0);
    if (p.op == ">") return Value::boolean(c > 0);
    return Value::boolean(c >= 0);
  }

  const std::vector<std::string>& names_;
  const std::vector<Value>& tuple_;
  const Scope& scope_;
};

}  // namespace

namespace {

[[noreturn]] void refuse_size(const Comprehension& c) {
  throw EvalError("the comprehension '" + c.canonical + "' has more than " +
                      std::to_string(kMaxTuples) + " tuples, the most one opening materializes",
                  "for");
}

// Refuses `tuples` tuples of `elements` elements past kMaxOpeningBytes.
void check_bytes(const Comprehension& c, uint64_t tuples, uint64_t elements) {
  if (opening_bytes(tuples, elements) <= kMaxOpeningBytes) return;
  throw EvalError("the comprehension '" + c.canonical + "' has more than " +
                      std::to_string(tuples) + " tuples of " + std::to_string(elements) +
                      " elements, more than the " + std::to_string(kMaxOpeningBytes >> 20) +
                      " MiB one opening materializes (a lattice body over literal sources "
                      "materializes none: see docs/language.md, Traversals)",
                  "for");
}

// A clause's rows: one value each, or a zip's values side by side.
std::vector<std::vector<Value>> clause_rows(const Clause& clause, const Scope& scope,
                                            const Caller& call) {
  std::vector<std::vector<Value>> lists;
  for (const Source& source : clause.sources) lists.push_back(source_values(source, scope, call));
  size_t shortest = lists[0].size(), longest = lists[0].size();
  for (const std::vector<Value>& l : lists) {
    shortest = std::min(shortest, l.size());
    longest = std::max(longest, l.size());
  }
  if (clause.zip == Clause::Zip::Strict && shortest != longest) {
    std::string names;
    for (size_t n = 0; n < clause.names.size(); ++n) {
      names += (n ? ", " : "") + clause.names[n] + " " + std::to_string(lists[n].size());
    }
    throw EvalError("the zip (" + names +
                        ") has sources of unequal length: a strict zip takes equal ones "
                        "(zip_truncate stops at the shortest, zip_cycle repeats to the longest)",
                    "for");
  }
  // An empty source empties any zip; a cycling zip runs to the longest.
  const size_t rows = shortest == 0 ? 0 : clause.zip == Clause::Zip::Cycle ? longest : shortest;
  std::vector<std::vector<Value>> out(rows);
  for (size_t r = 0; r < rows; ++r) {
    for (const std::vector<Value>& l : lists) out[r].push_back(l[r % l.size()]);
  }
  return out;
}

// The tuples of a cartesian in lex order (sources left to right per
// prefix, so a source may read earlier elements: the rightmost clause
// varies fastest), and the axis sizes of the clauses that read no element.
std::vector<std::vector<Value>> cartesian(const Comprehension& c, const Scope& scope,
                                          const Caller& call, const std::vector<std::string>& names,
                                          std::vector<uint64_t>& axis_sizes) {
  std::vector<std::vector<Value>> prefixes{{}};
  for (size_t k = 0; k < c.clauses.size(); ++k) {
    // A clause that reads no earlier element yields the same rows after
    // every prefix: evaluated once, and a product too large is refused
    // before it is built.
    std::optional<std::vector<std::vector<Value>>> shared;
    if (!reads_earlier_element(c, k)) {
      shared = clause_rows(c.clauses[k], scope, call);
      axis_sizes.push_back(shared->size());
      if (!shared->empty() && prefixes.size() > kMaxTuples / shared->size()) refuse_size(c);
    }
    std::vector<std::vector<Value>> next;
    for (const std::vector<Value>& prefix : prefixes) {
      const Scope with_prefix = [&](std::string_view name) -> std::optional<Value> {
        for (size_t j = 0; j < prefix.size(); ++j) {
          if (names[j] == name) return prefix[j];
        }
        return scope(name);
      };
      std::vector<std::vector<Value>> own;
      const std::vector<std::vector<Value>>& rows =
          shared ? *shared : (own = clause_rows(c.clauses[k], with_prefix, call));
      for (const std::vector<Value>& row : rows) {
        if (next.size() >= kMaxTuples) refuse_size(c);
        if ((next.size() & 0xffff) == 0) check_bytes(c, next.size(), prefix.size() + row.size());
        throw_if_cancelled("opening a traversal");
        next.push_back(prefix);
        next.back().insert(next.back().end(), row.begin(), row.end());
      }
    }
    prefixes = std::move(next);
  }
  return prefixes;
}

}  // namespace

namespace {

// An interval source's axis: its `on` interval, or its measure's support.
AxisInterval axis_of(const Source& s) {
  return AxisInterval{s.lo, s.hi, s.lo_open, !s.closed};
}

// A code (a 53-bit fraction u of the unit interval) carried onto an axis
// as polydat's sampler carries it (measures.hpp): affinely for an
// interval, by the inverse CDF for a named measure.
double map_code(uint64_t code, const Source& s) {
  const double u = (double)code / 9007199254740992.0;
  return map_unit(s.measure ? &*s.measure : nullptr, u, axis_of(s));
}

// How many times a sampling order draws again, with twice the count, when
// a `where` passes fewer tuples than it asks for (polydat's SAMPLE_ROUNDS).
constexpr int kSampleRounds = 6;

// One axis of a sampled space: an interval, a range (never listed: a point
// reads the value at its position), or another discrete clause's rows.
struct SampleAxis {
  const Source* interval = nullptr;
  std::optional<RangeBounds> range;
  std::vector<std::vector<Value>> rows;

  uint64_t size() const { return interval ? 2 : range ? range_size(*range) : rows.size(); }
};

// The tuple at `point`, its elements in clause order. Under extrema the
// point is a lattice index per axis in clause order, an interval's 0 or 1
// for its lower or upper end; under a sampling order it holds the discrete
// positions first, then the intervals' codes (order_strategies.hpp).
std::vector<Value> realize(const std::vector<SampleAxis>& axes, const std::vector<uint64_t>& point,
                           size_t discrete, bool extrema) {
  size_t d = 0, k = discrete;
  std::vector<Value> tuple;
  for (size_t a = 0; a < axes.size(); ++a) {
    const SampleAxis& axis = axes[a];
    if (axis.range) {
      tuple.push_back(Value::u64(axis.range->start + point[extrema ? a : d++] * axis.range->step));
      continue;
    }
    if (!axis.interval) {
      const std::vector<Value>& row = axis.rows[point[extrema ? a : d++]];
      tuple.insert(tuple.end(), row.begin(), row.end());
      continue;
    }
    const uint64_t code = point[extrema ? a : k++];
    tuple.push_back(Value::f64(extrema ? endpoint(axis_of(*axis.interval), code == 1)
                                       : map_code(code, *axis.interval)));
  }
  return tuple;
}

// Extrema over a sampled space: the strata of the lattice in clause order,
// an interval an axis of its two ends; its points as lattice indices.
std::vector<std::vector<uint64_t>> extrema_points(const Comprehension& c,
                                                  const std::vector<SampleAxis>& axes) {
  std::vector<uint64_t> sizes;
  uint64_t total = 1;
  for (const SampleAxis& axis : axes) {
    sizes.push_back(axis.size());
    if (total > kMaxTuples / sizes.back()) refuse_size(c);
    total *= sizes.back();
  }
  std::vector<std::vector<uint64_t>> out;
  for (uint64_t flat : order_positions(*c.order, sizes)) {
    std::vector<uint64_t> point(sizes.size());
    for (size_t k = sizes.size(); k-- > 0;) {
      point[k] = flat % sizes[k];
      flat /= sizes[k];
    }
    out.push_back(std::move(point));
  }
  return out;
}

// polydat's sampled space (comprehension_forms.md section 10.2 R2): an
// order over a cartesian with a continuous interval. Its axes are the
// clauses in order. A sampling order draws its n points over them; extrema
// takes the lattice's strata, an interval contributing its two ends. A
// `where` applies to the drawn tuples, and a sampling order draws again with
// twice the count, up to kSampleRounds times, until n pass (then the first
// n are kept; fewer when the rounds run out).
Tuples sample_space(const Comprehension& c, const Scope& scope, const Caller& call, Tuples out) {
  std::vector<SampleAxis> axes;
  std::vector<uint64_t> discrete_sizes;
  for (const Clause& clause : c.clauses) {
    const Source& source = clause.sources[0];
    if (source.kind == Source::Kind::Interval) {
      axes.push_back({.interval = &source});
      continue;
    }
    if (source.kind == Source::Kind::Range && clause.zip == Clause::Zip::None) {
      // A bound reading None: an empty range (no tuples).
      axes.push_back({.range = resolved_range(source, scope).value_or(RangeBounds{})});
    } else {
      axes.push_back({.rows = clause_rows(clause, scope, call)});
    }
    if (axes.back().size() == 0) return out;  // an empty axis: no tuples
    discrete_sizes.push_back(axes.back().size());
  }
  const Order& order = *c.order;
  const bool extrema = order.strategy == "extrema";
  const auto keep_passing = [&](const std::vector<std::vector<uint64_t>>& points) {
    out.rows.clear();
    for (const std::vector<uint64_t>& point : points) {
      throw_if_cancelled("opening a traversal");
      std::vector<Value> tuple = realize(axes, point, discrete_sizes.size(), extrema);
      const Value keep = c.where ? PredicateEvaluator(out.names, tuple, scope).eval(*c.where)
                                 : Value::boolean(true);
      if (!keep.is_none() && keep.type() == Type::Bool && keep.as_bool()) {
        out.rows.push_back(std::move(tuple));
      }
    }
  };
  if (extrema) {
    keep_passing(extrema_points(c, axes));
    return out;
  }
  const uint64_t n = *order.count;
  if (n > kMaxTuples) refuse_size(c);
  check_bytes(c, n, out.names.size());
  const size_t continuous = axes.size() - discrete_sizes.size();
  for (uint64_t want = n, round = 0;; want *= 2, ++round) {
    keep_passing(sampled_points(order, discrete_sizes, continuous, want));
    if (!c.where || out.rows.size() >= n || round == kSampleRounds || want > kMaxTuples / 2) break;
  }
  if (out.rows.size() > n) out.rows.resize(n);
  return out;
}

bool has_interval(const Comprehension& c) {
  for (const Clause& clause : c.clauses) {
    for (const Source& s : clause.sources) {
      if (s.kind == Source::Kind::Interval) return true;
    }
  }
  return false;
}

}  // namespace

Tuples evaluate(const Comprehension& c, const Scope& scope, const Caller& call) {
  Tuples out;
  out.names = element_names(c);
  if (has_interval(c)) return sample_space(c, scope, call, std::move(out));
  // A union's alternatives one after another, as one axis.
  std::vector<uint64_t> axis_sizes;
  std::vector<std::vector<Value>> tuples;
  if (!c.alternatives.empty()) {
    for (const Comprehension& alternative : c.alternatives) {
      Tuples t = evaluate(alternative, scope, call);
      if (tuples.size() + t.rows.size() > kMaxTuples) refuse_size(c);
      std::move(t.rows.begin(), t.rows.end(), std::back_inserter(tuples));
    }
    axis_sizes.push_back(tuples.size());
  } else {
    tuples = cartesian(c, scope, call, out.names, axis_sizes);
  }
  // The predicate, then the order over the survivors: an independent
  // cartesian or a union is a lattice every strategy reads; a dependent
  // cartesian is one axis of its survivors (lex and reverse_lex only, as
  // the parser checks).
  std::vector<bool> survives(tuples.size(), true);
  if (c.where) {
    for (size_t p = 0; p < tuples.size(); ++p) {
      throw_if_cancelled("opening a traversal");
      const Value keep = PredicateEvaluator(out.names, tuples[p], scope).eval(*c.where);
      survives[p] = !keep.is_none() && keep.type() == Type::Bool && keep.as_bool();
    }
  }
  const bool lattice = !c.alternatives.empty() || axis_sizes.size() == c.clauses.size();
  std::vector<uint64_t> positions;
  if (c.order && lattice) {
    positions = c.where ? select_survivors(*c.order, axis_sizes, survives)
                        : order_positions(*c.order, axis_sizes);
  } else {
    for (uint64_t p = 0; p < tuples.size(); ++p) {
      if (survives[p]) positions.push_back(p);
    }
    if (c.order) {
      const std::vector<uint64_t> sequence = std::move(positions);
      positions.clear();
      const uint64_t survivors = sequence.size();
      for (uint64_t k : order_positions(*c.order, std::span(&survivors, 1))) {
        positions.push_back(sequence[k]);
      }
    }
  }
  // A sampling order may visit a tuple twice (lhs): each visit is a row.
  // When none is visited twice, the rows take the tuples (no further copy
  // of the opening).
  std::vector<bool> visited(tuples.size());
  bool repeats = false;
  for (uint64_t p : positions) {
    repeats = repeats || visited[p];
    visited[p] = true;
  }
  out.rows.reserve(positions.size());
  for (uint64_t p : positions) {
    out.rows.push_back(repeats ? tuples[p] : std::move(tuples[p]));
  }
  return out;
}

}  // namespace polyrt::comprehension

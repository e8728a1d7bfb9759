#include "comprehension/generators.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "comprehension/comprehension.hpp"
#include "polyrt/error.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::comprehension {

namespace {

// Each generator's signature: 'n' a count (u64), 'm' a u64 bound, 'f' a
// number (an integer reads as f64).
struct Signature {
  std::string_view name, parameters, usage;
  Type type;
};
constexpr std::array<Signature, 10> kGenerators = {{
    {"fib", "n", "fib(n)", Type::U64},
    {"fib_until", "m", "fib_until(max)", Type::U64},
    {"pow2", "n", "pow2(n)", Type::U64},
    {"pow2_until", "m", "pow2_until(max)", Type::U64},
    {"binomial", "n", "binomial(n)", Type::U64},
    {"geometric", "ffn", "geometric(start, factor, n)", Type::F64},
    {"geometric_until", "fff", "geometric_until(start, factor, max)", Type::F64},
    {"linear_starts", "ffn", "linear_starts(start, end, n)", Type::F64},
    {"linear_steps", "ffn", "linear_steps(start, end, n)", Type::F64},
    {"log_steps", "ffn", "log_steps(start, end, n)", Type::F64},
}};

const Signature* find(std::string_view name) {
  for (const Signature& s : kGenerators) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

double number(const Value& v) {
  return v.type() == Type::U64 ? (double)v.as_u64() : v.as_f64();
}

// The largest n each counted generator takes: its last value is the last
// below 2^64.
constexpr uint64_t kMaxFib = 93, kMaxPow2 = 64, kMaxBinomial = 67;

std::optional<std::string> check_limits(std::string_view name, std::span<const Value> args) {
  const auto too_many = [&](uint64_t n) -> std::optional<std::string> {
    if (n <= kMaxTuples) return std::nullopt;
    return std::string(name) + ": " + std::to_string(n) + " values is more than the " +
           std::to_string(kMaxTuples) + " tuples one opening materializes";
  };
  const auto past = [&](uint64_t limit) -> std::optional<std::string> {
    if (args[0].as_u64() <= limit) return std::nullopt;
    return std::string(name) + "(" + std::to_string(args[0].as_u64()) +
           ") passes 2^64: n is at most " + std::to_string(limit);
  };
  if (name == "fib") return past(kMaxFib);
  if (name == "pow2") return past(kMaxPow2);
  if (name == "binomial") return past(kMaxBinomial);
  if (name == "geometric_until") {
    const double start = number(args[0]), factor = number(args[1]), max = number(args[2]);
    if (!(start > 0) || !(factor > 1) || !(max > 0)) {
      return "geometric_until(start, factor, max) grows only from start > 0 by factor > 1 up to "
             "max > 0";
    }
    const double count = pd_ln(max / start) / pd_ln(factor) + 1;
    return too_many((uint64_t)std::clamp(count, 0.0, 1e19));
  }
  if (name == "geometric" && (!(number(args[0]) > 0) || !(number(args[1]) > 1))) {
    return "geometric(start, factor, n) grows only from start > 0 by factor > 1, got start=" +
           args[0].to_string() + ", factor=" + args[1].to_string();
  }
  if (name == "log_steps" && (!(number(args[0]) > 0) || !(number(args[1]) > 0))) {
    return "log_steps: bounds must be positive, got start=" + args[0].to_string() +
           ", end=" + args[1].to_string();
  }
  if (args.size() == 3 && args[2].type() == Type::U64) return too_many(args[2].as_u64());
  return std::nullopt;
}

// The Fibonacci numbers 1, 1, 2, 3, ...: the first n (fib), or those up to
// max (fib_until), which, as polydat's, stops before the 93rd, the last
// term below 2^64, when its successor would pass 2^64.
std::vector<Value> fib(uint64_t n, uint64_t max) {
  const bool counted = n != ~uint64_t{0};
  std::vector<Value> out;
  for (uint64_t a = 1, b = 1; out.size() < n && a <= max;) {
    out.push_back(Value::u64(a));
    const uint64_t next = a + b;
    if (next < b) {
      if (counted && out.size() < n) out.push_back(Value::u64(b));
      break;
    }
    a = b;
    b = next;
  }
  return out;
}

std::vector<Value> binomial(uint64_t n) {
  __extension__ typedef unsigned __int128 u128;
  std::vector<Value> out{Value::u64(1)};
  u128 c = 1;
  for (uint64_t k = 1; k <= n; ++k) {
    c = c * (n - k + 1) / k;
    out.push_back(Value::u64((uint64_t)c));
  }
  return out;
}

std::vector<Value> real_sequence(std::string_view name, double start, double second, uint64_t n) {
  std::vector<Value> out;
  if (name == "geometric") {
    for (double v = start; out.size() < n; v *= second) out.push_back(Value::f64(v));
  } else if (name == "log_steps") {
    const double log_start = pd_ln(start), step = (pd_ln(second) - log_start) / (double)(n - 1);
    for (uint64_t i = 0; i < n; ++i) {
      out.push_back(Value::f64(n == 1 ? start : pd_exp(log_start + step * (double)i)));
    }
  } else {  // linear_starts: n subdivisions of [start, end); linear_steps: n fence posts
    const double step =
        (second - start) / (double)(name == "linear_steps" ? std::max<uint64_t>(n - 1, 1) : n);
    for (uint64_t i = 0; i < n; ++i) out.push_back(Value::f64(start + step * (double)i));
  }
  return out;
}

}  // namespace

bool is_generator(std::string_view name) {
  return find(name) != nullptr;
}

Type generator_type(std::string_view name) {
  return find(name)->type;
}

std::optional<std::string> check_generator(std::string_view name, std::span<const Value> args) {
  const Signature& s = *find(name);
  if (args.size() != s.parameters.size()) {
    return std::string(s.usage) + " takes " + std::to_string(s.parameters.size()) + " argument" +
           (s.parameters.size() == 1 ? "" : "s") + ", not " + std::to_string(args.size());
  }
  for (size_t k = 0; k < args.size(); ++k) {
    const bool integer = s.parameters[k] != 'f';
    const bool ok = integer ? args[k].type() == Type::U64
                            : (args[k].type() == Type::U64 ||
                               (args[k].type() == Type::F64 && std::isfinite(args[k].as_f64())));
    if (!ok) {
      return std::string(s.usage) + ": argument " + std::to_string(k + 1) + " is '" +
             args[k].to_string() + "', " +
             (integer ? "not an integer from 0 to 2^64 - 1" : "not a finite number");
    }
  }
  return check_limits(name, args);
}

std::vector<Value> generate(std::string_view name, std::span<const Value> args) {
  if (std::optional<std::string> why = check_generator(name, args)) throw EvalError(*why, "for");
  const auto u = [&](size_t k) { return args[k].as_u64(); };
  if (name == "fib") return fib(u(0), ~uint64_t{0});
  if (name == "fib_until") return fib(~uint64_t{0}, u(0));
  if (name == "pow2" || name == "pow2_until") {
    std::vector<Value> out;
    for (uint64_t k = 0; k < 64; ++k) {
      const uint64_t v = uint64_t{1} << k;
      if (name == "pow2" ? k >= u(0) : v > u(0)) break;
      out.push_back(Value::u64(v));
    }
    return out;
  }
  if (name == "binomial") return binomial(u(0));
  if (name == "geometric_until") {
    std::vector<Value> out;
    for (double v = number(args[0]); v <= number(args[2]); v *= number(args[1])) {
      out.push_back(Value::f64(v));
    }
    return out;
  }
  return real_sequence(name, number(args[0]), number(args[1]), u(2));
}

}  // namespace polyrt::comprehension

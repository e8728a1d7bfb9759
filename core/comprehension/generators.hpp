// polydat's named generators, the comprehension sources written as calls:
// fib(n), fib_until(max), pow2(n), pow2_until(max) and binomial(n) give
// u64s; geometric(start, factor, n), geometric_until(start, factor, max),
// linear_starts(start, end, n), linear_steps(start, end, n) and
// log_steps(start, end, n) give f64s, each computed as polydat computes it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/value.hpp"

namespace polyrt::comprehension {

bool is_generator(std::string_view name);

// The type of a generator's values.
Type generator_type(std::string_view name);

// Why `args` cannot feed generator `name` (a wrong count or type, a value
// past the generator's limit such as fib(94), more values than one opening
// materializes), or nullopt.
std::optional<std::string> check_generator(std::string_view name, std::span<const Value> args);

// The values; EvalError for what check_generator refuses.
std::vector<Value> generate(std::string_view name, std::span<const Value> args);

}  // namespace polyrt::comprehension

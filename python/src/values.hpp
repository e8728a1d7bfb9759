// polyrt values to and from Python objects.
#pragma once

#include <nanobind/nanobind.h>

#include <string_view>

#include "polyrt/polyrt.hpp"
#include "polyrt/value.hpp"

namespace polyrt::python {

// u64 -> int, f64 -> float, bool -> bool, str -> str, None -> None.
nanobind::object to_python(const Value& value);

// A Python value for extern `name` of type `type`: int (0..2^64-1) for u64,
// float or int for f64, bool for bool, str for str, None to unset. Anything
// else is a WriteError naming the extern, the value and the type.
Value from_python(nanobind::handle object, Type type, std::string_view name);

// from_python for extern `name` of `program`, at its declared type; an
// unknown name is the WriteError the C++ API raises for it.
Value extern_from_python(const Program& program, std::string_view name, nanobind::handle object);

}  // namespace polyrt::python

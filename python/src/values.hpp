// polyrt values to and from Python objects.
#pragma once

#include <nanobind/nanobind.h>

#include <optional>
#include <string>
#include <string_view>

#include "polyrt/polyrt.hpp"
#include "polyrt/value.hpp"

namespace polyrt::python {

// u64 -> int, f64 -> float, bool -> bool, str -> str, None -> None. Text
// that is not UTF-8 decodes with surrogateescape (each invalid byte a lone
// surrogate U+DC80..U+DCFF), which from_python encodes back to the same bytes.
nanobind::object to_python(const Value& value);

// Text as a Python str, invalid UTF-8 bytes as surrogateescape surrogates.
nanobind::object text_to_python(std::string_view text);

// A str's bytes: its UTF-8, its surrogateescape surrogates as the bytes they
// stand for (a program or value read with errors="surrogateescape").
// str(object) for a message: any lone surrogate as a backslash escape
// (never an exception: the message is what reports one).
std::string message_text(nanobind::handle object);
std::string text_from_python(nanobind::handle object);

// A coordinate: an int from 0 to 2**64 - 1 (or an integer type's value
// through __index__, never a bool); anything else is a WriteError that
// names `what` and the value.
// `what` is a callable that returns the name (built only for the message).
std::optional<uint64_t> coordinate_of(nanobind::handle object);
[[noreturn]] void refuse_coordinate(nanobind::handle object, const std::string& what);
template <typename What>
uint64_t coordinate_from_python(nanobind::handle object, const What& what) {
  if (const std::optional<uint64_t> c = coordinate_of(object)) return *c;
  refuse_coordinate(object, what());
}

// A Python str, refused with a WriteError naming `what` otherwise.
std::string name_from_python(nanobind::handle object, const std::string& what);

// A Python value for extern `name` of type `type`: int (0..2^64-1) for u64,
// float or int for f64, bool for bool, str for str, None to unset. Anything
// else is a WriteError naming the extern, the value and the type.
Value from_python(nanobind::handle object, Type type, std::string_view name);

// from_python for extern `name` of `program`, at its declared type; an
// unknown name is the WriteError the C++ API raises for it.
Value extern_from_python(const Program& program, std::string_view name, nanobind::handle object);

}  // namespace polyrt::python

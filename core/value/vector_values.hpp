// Vector values (vec_f32, vec_f64, vec_i32, vec_i64, vec_u64): their elements
// packed little-endian in a payload, as a JSON array of numbers in text, and
// read back from one. One definition for the value layer, the vector nodes,
// the row writers and the bindings.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/numeric_types.hpp"
#include "polyrt/value.hpp"
#include "rtlib/row_fields.h"

namespace polyrt {

// How many elements a vector payload of `type` holds.
inline size_t vector_size(Type type, std::string_view payload) {
  return payload.size() / vector_element_width(type);
}

// Element `i` of a packed payload of T (memcpy: a payload has no alignment).
template <typename T>
T vector_element_at(std::string_view payload, size_t i) {
  T v;
  std::memcpy(&v, payload.data() + i * sizeof(T), sizeof(T));
  return v;
}

// Appends one element to a packed payload.
template <typename T>
void append_vector_element(std::string& payload, T v) {
  const size_t at = payload.size();
  payload.resize(at + sizeof(T));
  std::memcpy(payload.data() + at, &v, sizeof(T));
}

// Element `i` as the word a scalar of vector_element(type) rides in (f32 as
// the f64 that holds it, signed integers sign-extended).
uint64_t vector_element_word(Type type, std::string_view payload, size_t i);
// A vector value's elements as values of its element type; any other value
// as itself (how a `for` source peels a value).
std::vector<Value> vector_elements(const Value& v);

// The longest text write_vector_field writes for a payload of `bytes` bytes.
size_t vector_text_bound(Type type, size_t bytes);
// The vector as a JSON array of its elements, each as a field of its element
// type in `format` (shortest round-trip floats; NaN and the infinities as the
// format writes them: strings in JSON Lines). Returns the end of the text.
char* write_vector_field(char* p, rt::RowFormat format, Type type, std::string_view payload);
// The same text as a string.
std::string vector_text(Type type, std::string_view payload,
                        rt::RowFormat format = rt::RowFormat::Jsonl);

// Reads a JSON array of numbers (whitespace allowed; for the float types also
// the strings "NaN", "inf" and "-inf" that the writers use) as the payload of
// a vector of `type`: a float as the nearest f64, then for vec_f32 the
// nearest f32 (as polydat reads one), integers checked against the element
// type's range. nullopt with `error` set otherwise, naming the
// element.
std::optional<std::string> parse_vector_text(std::string_view text, Type type, std::string& error);

}  // namespace polyrt

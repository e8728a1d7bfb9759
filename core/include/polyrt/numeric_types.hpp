// Facts about the numeric types: which are integers, their signedness,
// widths and ranges, which conversions never lose a value, and how wide a
// column of each is. One definition, read by the checker, the value layer,
// the row and npy writers and the bindings.
#pragma once

#include <cstdint>
#include <limits>

#include "polyrt/value.hpp"

namespace polyrt {

// u8..u64 and i8..i64 (not bool).
constexpr bool is_integer(Type t) {
  switch (t) {
    case Type::U64:
    case Type::U32:
    case Type::U16:
    case Type::U8:
    case Type::I64:
    case Type::I32:
    case Type::I16:
    case Type::I8:
      return true;
    default:
      return false;
  }
}

constexpr bool is_signed_integer(Type t) {
  return t == Type::I64 || t == Type::I32 || t == Type::I16 || t == Type::I8;
}

constexpr bool is_unsigned_integer(Type t) {
  return is_integer(t) && !is_signed_integer(t);
}

constexpr bool is_float(Type t) {
  return t == Type::F64 || t == Type::F32;
}

// A number or a bool: the types that ride as one word.
constexpr bool is_scalar(Type t) {
  return !is_payload(t);
}

// Bits of an integer type (0 for the others).
constexpr int integer_bits(Type t) {
  switch (t) {
    case Type::U64:
    case Type::I64:
      return 64;
    case Type::U32:
    case Type::I32:
      return 32;
    case Type::U16:
    case Type::I16:
      return 16;
    case Type::U8:
    case Type::I8:
      return 8;
    default:
      return 0;
  }
}

// The range of an integer type, as a signed minimum and an unsigned maximum.
constexpr int64_t integer_min(Type t) {
  // -2^(bits-1), computed unsigned: negating INT64_MIN would overflow
  return is_signed_integer(t) ? (int64_t)(0 - ((uint64_t)1 << (integer_bits(t) - 1))) : 0;
}
constexpr uint64_t integer_max(Type t) {
  const int bits = integer_bits(t) - (is_signed_integer(t) ? 1 : 0);
  return bits == 64 ? std::numeric_limits<uint64_t>::max() : ((uint64_t)1 << bits) - 1;
}

// Whether the value an integer word of `from` carries lies in the range of
// integer type `to`.
constexpr bool integer_fits(uint64_t word, Type from, Type to) {
  if (is_signed_integer(from) && (int64_t)word < 0) {
    return is_signed_integer(to) && (int64_t)word >= integer_min(to);
  }
  return word <= integer_max(to);
}

// The type of a vector type's elements (f32 for vec_f32, ...); the type
// itself for the others.
constexpr Type vector_element(Type t) {
  switch (t) {
    case Type::VecF32:
      return Type::F32;
    case Type::VecF64:
      return Type::F64;
    case Type::VecI32:
      return Type::I32;
    case Type::VecI64:
      return Type::I64;
    case Type::VecU64:
      return Type::U64;
    default:
      return t;
  }
}

// Whether every value of `from` is a value of `to` without rounding, so the
// checker converts it silently (polydat's class A widenings): an unsigned
// integer to any wider integer, a signed one to any wider signed one, bool to
// any number, f32 to f64, and any integer to f64 (the one widening that may
// round, above 2^53, as in polydat), and the small integers to f32; and a
// number or bool to its bytes, an integer, a bool or an integer vector to
// json (a float vector's NaN has no JSON: `as json` converts it explicitly).
constexpr bool widens_implicitly(Type from, Type to) {
  if (from == to) return true;
  if (is_vector(to)) return false;
  if (to == Type::Bytes) return !is_payload(from);
  if (to == Type::Json) {
    return is_integer(from) || from == Type::Bool || is_integer(vector_element(from));
  }
  if (is_vector(from)) return false;
  if (from == Type::Bool) return is_integer(to) || is_float(to);
  if (to == Type::F64) return is_integer(from) || from == Type::F32;
  if (to == Type::F32) return is_integer(from) && integer_bits(from) <= 16;
  if (!is_integer(from) || !is_integer(to)) return false;
  if (is_signed_integer(from) && !is_signed_integer(to)) return false;
  const int to_bits = integer_bits(to) - (is_signed_integer(to) && !is_signed_integer(from));
  return integer_bits(from) <= to_bits;
}

// Bytes per value in a column of the native width (an npy array, a narrow
// evaluate_into destination): 1 for bool, 0 for the text types.
constexpr size_t native_width(Type t) {
  switch (t) {
    case Type::U64:
    case Type::I64:
    case Type::F64:
      return 8;
    case Type::U32:
    case Type::I32:
    case Type::F32:
      return 4;
    case Type::U16:
    case Type::I16:
      return 2;
    case Type::U8:
    case Type::I8:
    case Type::Bool:
      return 1;
    case Type::Str:
    case Type::Bytes:
    case Type::Json:
    case Type::Partition:
    case Type::PartitionList:
    case Type::VecF32:
    case Type::VecF64:
    case Type::VecI32:
    case Type::VecI64:
    case Type::VecU64:
      return 0;
  }
  return 0;
}

// Bytes per element of a vector type (packed little-endian in its payload).
constexpr size_t vector_element_width(Type t) {
  return native_width(vector_element(t));
}

}  // namespace polyrt

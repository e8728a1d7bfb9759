// Runtime values and their static types.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace polyrt {

// The static types a port or extern can have. Booleans ride as u64 0/1 inside
// the graph; Bool exists so an extern can be declared and written as one. The
// narrow and signed integers and f32 (polydat's numeric types) ride in the
// same 64-bit word: unsigned zero-extended, signed sign-extended (two's
// complement), f32 as the f64 that holds it exactly (see numeric_types.hpp).
// `bytes` (raw bytes) and `json` (a JSON value as its compact text) ride like
// str: as text in host steps and in columns of offsets and bytes. So do
// polydat's partition values, `partition` and `partition_list`, as the JSON
// object (list: array of them) polydat renders one as. The vectors ride the
// same way, their payload the packed elements.
enum class Type : uint8_t {
  U64,
  F64,
  Str,
  Bool,
  I64,
  I32,
  I16,
  I8,
  U32,
  U16,
  U8,
  F32,
  Bytes,
  Json,
  Partition,
  PartitionList,
  VecF32,
  VecF64,
  VecI32,
  VecI64,
  VecU64
};

constexpr bool is_partition(Type t) {
  return t == Type::Partition || t == Type::PartitionList;
}

// json and the partition types: their text is JSON, which JSON Lines embeds.
constexpr bool is_json_text(Type t) {
  return t == Type::Json || is_partition(t);
}

// The vector types (polydat's typed vectors, embeddings): a value is a run of
// elements of one numeric type, packed little-endian in its payload.
constexpr bool is_vector(Type t) {
  return t == Type::VecF32 || t == Type::VecF64 || t == Type::VecI32 || t == Type::VecI64 ||
         t == Type::VecU64;
}

// str, bytes, json and the partition types: values that are text (or bytes).
constexpr bool is_text(Type t) {
  return t == Type::Str || t == Type::Bytes || is_json_text(t);
}

// The text types and the vectors: carried as a payload of bytes (in host
// steps and in columns of offsets and bytes), not as a word.
constexpr bool is_payload(Type t) {
  return is_text(t) || is_vector(t);
}

std::string_view type_name(Type type);
// Parses a type keyword of the DSL; returns false for an unknown one.
bool parse_type_name(std::string_view text, Type& out);
// The keywords parse_type_name knows, for messages ("u64, f64, ...").
std::string_view type_names();

// A value: absent (None), u64, f64, string, bool, or one of the other numeric
// types as its 64-bit word.
class Value {
 public:
  Value() = default;  // None
  static Value none() { return Value(); }
  static Value u64(uint64_t v) { return Value(Data(std::in_place_index<1>, v)); }
  static Value f64(double v) { return Value(Data(std::in_place_index<2>, v)); }
  static Value str(std::string v) { return Value(Data(std::in_place_index<3>, std::move(v))); }
  static Value bytes(std::string v) {
    return Value(Data(std::in_place_index<6>, Blob{Type::Bytes, std::move(v)}));
  }
  // `text` must be one JSON value in compact form (what the json nodes make).
  static Value json(std::string text) {
    return Value(Data(std::in_place_index<6>, Blob{Type::Json, std::move(text)}));
  }
  static Value boolean(bool v) { return Value(Data(std::in_place_index<4>, v)); }
  static Value i64(int64_t v) { return of_word(Type::I64, (uint64_t)v); }
  // The f32 nearest to v.
  static Value f32(float v) { return of_word(Type::F32, std::bit_cast<uint64_t>((double)v)); }
  // The value of `type` a word carries (None for str): for the narrow types
  // the word must be canonical (an internal error otherwise).
  static Value of_word(Type type, uint64_t word);
  // The value of a payload type (is_payload(type)) with this payload: text,
  // or a vector's packed elements (a whole number of them; an internal
  // error otherwise).
  static Value of_payload(Type type, std::string payload);
  // A vector of `type` (is_vector) whose elements are packed, little-endian,
  // in `elements`.
  static Value vector(Type type, std::string elements) {
    return of_payload(type, std::move(elements));
  }

  bool is_none() const { return data_.index() == 0; }
  // The type of a present value; calling it on None is a host bug (WriteError).
  Type type() const;

  // Typed accessors: a type mismatch throws WriteError naming both types.
  // as_u64 reads every unsigned integer type, as_i64 every signed one, as_f64
  // f64 and f32 (the widenings that never lose a value).
  uint64_t as_u64() const;
  int64_t as_i64() const;
  double as_f64() const;
  const std::string& as_str() const;
  const std::string& as_bytes() const;
  const std::string& as_json() const;  // the compact JSON text
  // The payload of a str, bytes, json or vector value (is_payload of its
  // type): a vector's packed elements.
  const std::string& text() const;
  // The packed elements of a vector value; a type mismatch throws WriteError.
  const std::string& as_vector() const;
  bool as_bool() const;

  // Text form used by `polyrt eval` and the row writers: u64 decimal, f64
  // shortest round-trip text, strings raw, bytes as lowercase hex, json as
  // its text, a vector as a JSON array of its elements, bools true/false,
  // None as "None".
  std::string to_string() const;

  // Bit-exact equality (f64 compared by bit pattern, so NaN == NaN and 0.0 != -0.0).
  bool same_as(const Value& other) const;

 private:
  // A value of the other numeric types: its type and canonical word.
  struct Word {
    Type type;
    uint64_t word;
    bool operator==(const Word&) const = default;
  };
  // A bytes, json, partition or vector value: its type and payload.
  struct Blob {
    Type type;
    std::string data;
    bool operator==(const Blob&) const = default;
  };
  using Data = std::variant<std::monostate, uint64_t, double, std::string, bool, Word, Blob>;
  explicit Value(Data d) : data_(std::move(d)) {}
  Data data_;
};

// The 64-bit word slots, columns and State::pull_word carry for a scalar
// value: u64 as is, the f64 bit pattern, bool 0/1, the other types as
// Type describes. A str or None has none (0).
uint64_t word_of(const Value& value);
// The scalar value of `type` a word carries (None for str).
inline Value value_of_word(Type type, uint64_t word) {
  return Value::of_word(type, word);
}

// Parses host text as a value of `type`: u64 decimal or 0x hex, f64 decimal
// text (inf, -inf and nan spelled out; a magnitude past the f64 range is
// +-inf, as strtod reads it), str as is, bool true/false/1/0 (any case).
// Throws WriteError naming the text, the type and, when given, `target`
// ("extern rate").
Value parse_value(std::string_view text, Type type, std::string_view target = {});

}  // namespace polyrt

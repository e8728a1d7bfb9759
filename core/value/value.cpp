#include "polyrt/value.hpp"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/byte_encodings.hpp"
#include "rtlib/json_text.hpp"
#include "rtlib/text.hpp"
#include "value/message_text.hpp"
#include "value/vector_values.hpp"

namespace polyrt {

std::string_view type_name(Type type) {
  switch (type) {
    case Type::U64:
      return "u64";
    case Type::F64:
      return "f64";
    case Type::Str:
      return "str";
    case Type::Bool:
      return "bool";
    case Type::I64:
      return "i64";
    case Type::I32:
      return "i32";
    case Type::I16:
      return "i16";
    case Type::I8:
      return "i8";
    case Type::U32:
      return "u32";
    case Type::U16:
      return "u16";
    case Type::U8:
      return "u8";
    case Type::F32:
      return "f32";
    case Type::Bytes:
      return "bytes";
    case Type::Json:
      return "json";
    case Type::Partition:
      return "partition";
    case Type::PartitionList:
      return "partition_list";
    case Type::VecF32:
      return "vec_f32";
    case Type::VecF64:
      return "vec_f64";
    case Type::VecI32:
      return "vec_i32";
    case Type::VecI64:
      return "vec_i64";
    case Type::VecU64:
      return "vec_u64";
  }
  return "?";
}

std::string_view type_names() {
  return "u64, u32, u16, u8, i64, i32, i16, i8, f64, f32, str, bool, bytes, json, partition, "
         "partition_list, vec_f32, vec_f64, vec_i32, vec_i64, vec_u64";
}

uint64_t word_of(const Value& v) {
  if (v.is_none()) return 0;
  switch (v.type()) {
    case Type::F64:
    case Type::F32:
      return std::bit_cast<uint64_t>(v.as_f64());
    case Type::Bool:
      return v.as_bool() ? 1 : 0;
    default:
      if (is_payload(v.type())) return 0;
      return is_signed_integer(v.type()) ? (uint64_t)v.as_i64() : v.as_u64();
  }
}

namespace {

// Whether `word` is how a value of `type` rides: the integer in range and
// extended by its signedness, an f32 exactly as its f64.
bool canonical(Type type, uint64_t word) {
  if (is_integer(type))
    return integer_fits(word, is_signed_integer(type) ? Type::I64 : Type::U64, type);
  if (type == Type::F32) {
    const double d = std::bit_cast<double>(word);
    return d != d || (double)(float)d == d;
  }
  return true;
}

}  // namespace

Value Value::of_word(Type type, uint64_t word) {
  switch (type) {
    case Type::U64:
      return Value::u64(word);
    case Type::F64:
      return Value::f64(std::bit_cast<double>(word));
    case Type::Bool:
      return Value::boolean(word != 0);
    default:
      if (is_payload(type)) return Value::none();
      if (!canonical(type, word)) {
        internal_error("word " + std::to_string(word) + " is not a " +
                       std::string(type_name(type)));
      }
      return Value(Data(std::in_place_index<5>, Word{type, word}));
  }
}

Value Value::of_payload(Type type, std::string payload) {
  if (type == Type::Bytes) return Value::bytes(std::move(payload));
  if (type == Type::Str) return Value::str(std::move(payload));
  if (!is_payload(type)) internal_error(std::string(type_name(type)) + " has no payload");
  if (is_vector(type) && payload.size() % vector_element_width(type) != 0) {
    internal_error(std::to_string(payload.size()) + " bytes are not a whole " +
                   std::string(type_name(type)));
  }
  return Value(Data(std::in_place_index<6>, Blob{type, std::move(payload)}));
}

bool parse_type_name(std::string_view text, Type& out) {
  if (text == "str" || text == "Str" || text == "String") {
    out = Type::Str;
    return true;
  }
  if (text == "Json") {  // polydat's spelling
    out = Type::Json;
    return true;
  }
  // polydat's spellings of its partition value types.
  if (text == "Partition" || text == "PartitionList") {
    out = text == "Partition" ? Type::Partition : Type::PartitionList;
    return true;
  }
  for (Type t : {Type::U64,    Type::F64,    Type::Bool,   Type::I64,       Type::I32,
                 Type::I16,    Type::I8,     Type::U32,    Type::U16,       Type::U8,
                 Type::F32,    Type::Bytes,  Type::Json,   Type::Partition, Type::PartitionList,
                 Type::VecF32, Type::VecF64, Type::VecI32, Type::VecI64,    Type::VecU64}) {
    if (text == type_name(t)) {
      out = t;
      return true;
    }
  }
  return false;
}

Type Value::type() const {
  switch (data_.index()) {
    case 1:
      return Type::U64;
    case 2:
      return Type::F64;
    case 3:
      return Type::Str;
    case 4:
      return Type::Bool;
    case 5:
      return std::get<5>(data_).type;
    case 6:
      return std::get<6>(data_).type;
    default:
      throw WriteError("the value is None and has no type");
  }
}

namespace {
[[noreturn]] void mismatch(const Value& v, Type wanted) {
  throw WriteError("value is " +
                   (v.is_none() ? std::string("None") : std::string(type_name(v.type()))) +
                   ", not " + std::string(type_name(wanted)));
}
}  // namespace

uint64_t Value::as_u64() const {
  if (data_.index() == 1) return std::get<1>(data_);
  if (data_.index() == 5 && is_unsigned_integer(std::get<5>(data_).type))
    return std::get<5>(data_).word;
  mismatch(*this, Type::U64);
}
int64_t Value::as_i64() const {
  if (data_.index() == 5 && is_signed_integer(std::get<5>(data_).type))
    return (int64_t)std::get<5>(data_).word;
  mismatch(*this, Type::I64);
}
double Value::as_f64() const {
  if (data_.index() == 2) return std::get<2>(data_);
  if (data_.index() == 5 && std::get<5>(data_).type == Type::F32)
    return std::bit_cast<double>(std::get<5>(data_).word);
  mismatch(*this, Type::F64);
}
const std::string& Value::as_bytes() const {
  if (data_.index() != 6 || std::get<6>(data_).type != Type::Bytes) mismatch(*this, Type::Bytes);
  return std::get<6>(data_).data;
}
const std::string& Value::as_json() const {
  if (data_.index() != 6 || std::get<6>(data_).type != Type::Json) mismatch(*this, Type::Json);
  return std::get<6>(data_).data;
}
const std::string& Value::as_vector() const {
  if (data_.index() != 6 || !is_vector(std::get<6>(data_).type)) {
    throw WriteError("value is " +
                     (is_none() ? std::string("None") : std::string(type_name(type()))) +
                     ", not a vector");
  }
  return std::get<6>(data_).data;
}
const std::string& Value::text() const {
  if (data_.index() == 6) return std::get<6>(data_).data;
  return as_str();
}
const std::string& Value::as_str() const {
  if (data_.index() != 3) mismatch(*this, Type::Str);
  return std::get<3>(data_);
}
bool Value::as_bool() const {
  if (data_.index() != 4) mismatch(*this, Type::Bool);
  return std::get<4>(data_);
}

std::string Value::to_string() const {
  switch (data_.index()) {
    case 1:
      return std::to_string(std::get<1>(data_));
    case 2:
      return rt::f64_shortest(std::get<2>(data_));
    case 3:
      return std::get<3>(data_);
    case 4:
      return std::get<4>(data_) ? "true" : "false";
    case 6: {
      const Blob& b = std::get<6>(data_);
      if (is_vector(b.type)) return vector_text(b.type, b.data, rt::RowFormat::Csv);
      return b.type == Type::Bytes ? rt::hex_text(b.data) : b.data;
    }
    case 5: {
      const Word& w = std::get<5>(data_);
      if (w.type == Type::F32) return rt::f32_shortest(std::bit_cast<double>(w.word));
      return is_signed_integer(w.type) ? std::to_string((int64_t)w.word) : std::to_string(w.word);
    }
    default:
      return "None";
  }
}

bool Value::same_as(const Value& other) const {
  if (data_.index() != other.data_.index()) return false;
  if (data_.index() == 2) {
    const double a = std::get<2>(data_), b = std::get<2>(other.data_);
    return std::memcmp(&a, &b, sizeof a) == 0;
  }
  return data_ == other.data_;
}

namespace {

// What text parse_value accepts for `type`, for its message.
std::string expected_text(Type type) {
  if (is_signed_integer(type)) {
    return "an integer in " + std::to_string(integer_min(type)) + ".." +
           std::to_string(integer_max(type)) + ", decimal or 0x hex";
  }
  if (is_integer(type)) {
    return type == Type::U64
               ? "decimal digits or 0x hex"
               : "an integer in 0.." + std::to_string(integer_max(type)) + ", decimal or 0x hex";
  }
  if (is_float(type)) return "a decimal number such as 0.25 or 1e-3";
  if (type == Type::Bytes) return "pairs of hex digits such as 00ff";
  if (type == Type::Json) return "one JSON value";
  if (is_vector(type)) return "a JSON array of numbers such as [0.5, -1]";
  return "true, false, 1 or 0";
}

// Decimal or 0x hex digits, with a leading '-' when `negative_ok`: the
// magnitude and whether it was negative; false for anything else.
bool parse_integer_text(std::string_view text, bool negative_ok, uint64_t& magnitude,
                        bool& negative) {
  negative = negative_ok && !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (hex) text.remove_prefix(2);
  auto res = std::from_chars(text.data(), text.data() + text.size(), magnitude, hex ? 16 : 10);
  return !text.empty() && res.ec == std::errc() && res.ptr == text.data() + text.size();
}

// Decimal text as the float type `F` (one rounding); +-inf past its range.
template <typename F>
bool parse_float_text(std::string_view text, F& v) {
  auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || res.ptr != text.data() + text.size()) return false;
  if (res.ec == std::errc::result_out_of_range) {
    // +-inf or +-0, as strtod reads it (and as inf itself reads)
    const std::string copy(text);
    if constexpr (std::is_same_v<F, float>) {
      v = std::strtof(copy.c_str(), nullptr);
    } else {
      v = std::strtod(copy.c_str(), nullptr);
    }
    return true;
  }
  return res.ec == std::errc();
}

}  // namespace

Value parse_value(std::string_view text, Type type, std::string_view target) {
  auto fail = [&]() -> Value {
    throw WriteError("cannot read \"" + text_for_message(text) + "\" as " +
                     std::string(type_name(type)) +
                     (target.empty() ? "" : " for " + std::string(target)) + " (expected " +
                     expected_text(type) + ")");
  };
  if (type == Type::Str) return Value::str(std::string(text));
  if (is_partition(type)) {
    throw WriteError("a " + std::string(type_name(type)) +
                     " is made by the partitions nodes, not read from text" +
                     (target.empty() ? "" : " (" + std::string(target) + ")"));
  }
  if (type == Type::Bytes) {
    const bool hex = text.size() % 2 == 0 &&
                     text.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
    return hex ? Value::bytes(rt::from_hex(text)) : fail();
  }
  if (is_vector(type)) {
    std::string error;
    auto payload = parse_vector_text(text, type, error);
    if (!payload) {
      throw WriteError("cannot read \"" + text_for_message(text) + "\" as " +
                       std::string(type_name(type)) +
                       (target.empty() ? "" : " for " + std::string(target)) + ": " + error +
                       " (expected " + expected_text(type) + ")");
    }
    return Value::vector(type, std::move(*payload));
  }
  if (type == Type::Json) {
    std::string error;
    const auto parsed = rt::parse_json(text, error);
    if (!parsed) {
      throw WriteError("cannot read \"" + text_for_message(text) + "\" as json" +
                       (target.empty() ? "" : " for " + std::string(target)) + ": " + error);
    }
    return Value::json(rt::json_text(*parsed));
  }
  if (is_integer(type)) {
    uint64_t magnitude = 0;
    bool negative = false;
    if (!parse_integer_text(text, is_signed_integer(type), magnitude, negative)) return fail();
    if (negative && magnitude > (uint64_t)1 << 63) return fail();
    const uint64_t word = negative ? 0 - magnitude : magnitude;
    if (!integer_fits(word, negative ? Type::I64 : Type::U64, type)) return fail();
    return Value::of_word(type, word);
  }
  if (type == Type::F64) {
    double v = 0;
    return parse_float_text(text, v) ? Value::f64(v) : fail();
  }
  if (type == Type::F32) {
    float v = 0;
    return parse_float_text(text, v) ? Value::f32(v) : fail();
  }
  std::string lower;
  for (char c : text) lower.push_back((char)std::tolower((unsigned char)c));
  if (lower == "true" || lower == "1") return Value::boolean(true);
  if (lower == "false" || lower == "0") return Value::boolean(false);
  return fail();
}

}  // namespace polyrt

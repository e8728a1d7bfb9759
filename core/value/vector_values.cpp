#include "value/vector_values.hpp"

#include <charconv>
#include <limits>

#include "rtlib/json_text.hpp"
#include "rtlib/text.hpp"
#include "rtlib/text_writers.h"

namespace polyrt {

uint64_t vector_element_word(Type type, std::string_view payload, size_t i) {
  switch (type) {
    case Type::VecF32:
      return std::bit_cast<uint64_t>((double)vector_element_at<float>(payload, i));
    case Type::VecF64:
      return vector_element_at<uint64_t>(payload, i);
    case Type::VecI32:
      return (uint64_t)(int64_t)vector_element_at<int32_t>(payload, i);
    default:  // vec_i64, vec_u64
      return vector_element_at<uint64_t>(payload, i);
  }
}

std::vector<Value> vector_elements(const Value& v) {
  if (!is_vector(v.type())) return {v};
  const Type type = v.type();
  const std::string& payload = v.as_vector();
  std::vector<Value> out;
  for (size_t i = 0; i < vector_size(type, payload); ++i) {
    out.push_back(Value::of_word(vector_element(type), vector_element_word(type, payload, i)));
  }
  return out;
}

size_t vector_text_bound(Type type, size_t bytes) {
  const Type element = vector_element(type);
  const size_t each = is_float(element) ? rt::kF64ShortestText : rt::kU64Text + 1;
  return 2 + vector_size(type, std::string_view(nullptr, bytes)) * (each + 1);
}

char* write_vector_field(char* p, rt::RowFormat format, Type type, std::string_view payload) {
  *p++ = '[';
  const size_t n = vector_size(type, payload);
  for (size_t i = 0; i < n; ++i) {
    if (i) *p++ = ',';
    const uint64_t word = vector_element_word(type, payload, i);
    switch (type) {
      case Type::VecF32:
        p = rt::write_f32_field(p, format, std::bit_cast<double>(word));
        break;
      case Type::VecF64:
        p = rt::write_f64_field(p, format, std::bit_cast<double>(word));
        break;
      case Type::VecU64:
        p = rt::write_u64(p, word);
        break;
      default:
        p = rt::write_i64(p, (int64_t)word);
        break;
    }
  }
  *p++ = ']';
  return p;
}

std::string vector_text(Type type, std::string_view payload, rt::RowFormat format) {
  std::string out(vector_text_bound(type, payload.size()), '\0');
  out.resize((size_t)(write_vector_field(out.data(), format, type, payload) - out.data()));
  return out;
}

namespace {

// One element's JSON as the element type, appended to `payload`; false when
// it is not one.
bool append_element(std::string& payload, Type type, const rt::JsonValue& v) {
  const Type element = vector_element(type);
  if (is_float(element)) {
    double d = 0;
    if (v.kind == rt::JsonValue::Kind::String) {
      if (v.scalar == "NaN") {
        d = std::numeric_limits<double>::quiet_NaN();
      } else if (v.scalar == "inf" || v.scalar == "-inf") {
        d = v.scalar[0] == '-' ? -std::numeric_limits<double>::infinity()
                               : std::numeric_limits<double>::infinity();
      } else {
        return false;
      }
    } else {
      if (v.kind != rt::JsonValue::Kind::Number) return false;
      const char* first = v.scalar.data();
      const char* last = first + v.scalar.size();
      // The nearest f64 (a magnitude past its range is an error), then for
      // an f32 element the f32 nearest to that (infinite past f32's range):
      // how polydat reads a JSON number into a vec_f32.
      const auto res = std::from_chars(first, last, d);
      if (res.ec != std::errc() || res.ptr != last) return false;
    }
    if (element == Type::F32) {
      append_vector_element(payload, (float)d);
    } else {
      append_vector_element(payload, d);
    }
    return true;
  }
  if (v.kind != rt::JsonValue::Kind::Number) return false;
  const std::string& text = v.scalar;
  const bool negative = !text.empty() && text[0] == '-';
  uint64_t magnitude = 0;
  const char* first = text.data() + (negative ? 1 : 0);
  const char* last = text.data() + text.size();
  const auto res = std::from_chars(first, last, magnitude);
  if (res.ec != std::errc() || res.ptr != last || first == last) return false;
  if (negative && magnitude > (uint64_t)1 << 63) return false;
  const uint64_t word = negative ? 0 - magnitude : magnitude;
  if (!integer_fits(word, negative ? Type::I64 : Type::U64, element)) return false;
  if (element == Type::I32) {
    append_vector_element(payload, (int32_t)(int64_t)word);
  } else {
    append_vector_element(payload, word);
  }
  return true;
}

}  // namespace

std::optional<std::string> parse_vector_text(std::string_view text, Type type, std::string& error) {
  const auto parsed = rt::parse_json(text, error);
  if (!parsed) return std::nullopt;
  if (parsed->kind != rt::JsonValue::Kind::Array) {
    error = "not a JSON array";
    return std::nullopt;
  }
  std::string payload;
  payload.reserve(parsed->items.size() * vector_element_width(type));
  for (size_t i = 0; i < parsed->items.size(); ++i) {
    if (!append_element(payload, type, parsed->items[i])) {
      const Type element = vector_element(type);
      error = "element " + std::to_string(i) + " (" + rt::json_text(parsed->items[i]) +
              ") is not " +
              (is_float(element) ? std::string("a number")
               : is_signed_integer(element)
                   ? "an integer in " + std::to_string(integer_min(element)) + ".." +
                         std::to_string(integer_max(element))
                   : "an integer in 0.." + std::to_string(integer_max(element)));
      return std::nullopt;
    }
  }
  return payload;
}

}  // namespace polyrt

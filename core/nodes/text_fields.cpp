#include "nodes/text_fields.hpp"

#include <bit>

#include "polyrt/numeric_types.hpp"
#include "rtlib/byte_encodings.hpp"
#include "rtlib/rtlib.h"
#include "value/vector_values.hpp"

namespace polyrt::nodes {

FieldValue field_of(const Value& v) {
  if (is_payload(v.type())) return {v.type(), 0, v.text()};
  return {v.type(), word_of(v), {}};
}

namespace {

// How a type renders: the rtlib writer family it uses.
enum class Rendering : uint8_t { Unsigned, Signed, F64, F32, Str, Hex, Vector, Bool };

Rendering rendering_of(Type t) {
  if (is_signed_integer(t)) return Rendering::Signed;
  if (is_integer(t)) return Rendering::Unsigned;
  switch (t) {
    case Type::F64:
      return Rendering::F64;
    case Type::F32:
      return Rendering::F32;
    case Type::Str:
    case Type::Json:
    case Type::Partition:
    case Type::PartitionList:
      return Rendering::Str;
    case Type::Bytes:
      return Rendering::Hex;
    default:
      return is_vector(t) ? Rendering::Vector : Rendering::Bool;
  }
}

}  // namespace

size_t display_bound(const FieldValue& v) {
  switch (rendering_of(v.type)) {
    case Rendering::Unsigned:
    case Rendering::Signed:
      return rt::kU64Text + 1;
    case Rendering::F64:
    case Rendering::F32:
      return rt::kF64DisplayText;
    case Rendering::Str:
      return v.text.size();
    case Rendering::Hex:
      return 2 * v.text.size();
    case Rendering::Vector:
      return vector_text_bound(v.type, v.text.size());
    case Rendering::Bool:
      return 5;
  }
  return 0;
}

char* write_display(char* p, const FieldValue& v) {
  switch (rendering_of(v.type)) {
    case Rendering::Unsigned:
      return rt::write_u64(p, v.word);
    case Rendering::Signed:
      return rt::write_i64(p, (int64_t)v.word);
    case Rendering::F64:
      return rt::write_f64_display(p, std::bit_cast<double>(v.word));
    case Rendering::F32:
      return rt::write_f32_display(p, std::bit_cast<double>(v.word));
    case Rendering::Str:
      return std::copy(v.text.begin(), v.text.end(), p);
    case Rendering::Hex:
      return rt::write_hex(p, v.text);
    case Rendering::Vector:
      return write_vector_field(p, rt::RowFormat::Csv, v.type, v.text);
    case Rendering::Bool:
      return v.word ? std::copy_n("true", 4, p) : std::copy_n("false", 5, p);
  }
  return p;
}

size_t field_bound(const rt::FormatSegment& spec, const FieldValue& v) {
  if (spec.escape != rt::TextEscape::None) return rt::escaped_bound(spec.escape, v.text.size());
  size_t bound = 5;  // bool
  switch (rendering_of(v.type)) {
    case Rendering::Unsigned:
    case Rendering::Signed:
      bound = spec.radix ? rt::kU64RadixText : rt::kU64Text + 1;
      break;
    case Rendering::F64:
    case Rendering::F32:
      bound = spec.precision >= 0 ? rt::f64_fixed_bound(spec.precision) : rt::kF64DebugText;
      break;
    case Rendering::Str:
    case Rendering::Hex:
    case Rendering::Vector:
      bound = display_bound(v);
      break;
    case Rendering::Bool:
      break;
  }
  return std::max(bound, (size_t)spec.width);
}

char* write_escaped(char* p, rt::TextEscape escape, std::string_view text) {
  return p + pd_text_tile_escaped(p, text.data(), text.size(), (uint64_t)escape);
}

char* write_field(char* p, const rt::FormatSegment& spec, const FieldValue& v) {
  // The compiler sets an escape only on a str placeholder with no spec.
  if (spec.escape != rt::TextEscape::None) return write_escaped(p, spec.escape, v.text);
  char* end = p;
  const Rendering r = rendering_of(v.type);
  if ((r == Rendering::Unsigned || r == Rendering::Signed) && spec.radix != 0) {
    // A negative integer in a radix shows its two's complement at its width,
    // as Rust's {:x} does.
    const int bits = integer_bits(v.type);
    const uint64_t word = bits == 64 ? v.word : v.word & (((uint64_t)1 << bits) - 1);
    end = rt::write_u64_radix(p, word, spec.base(), false, spec.radix == 'X');
  } else if (r == Rendering::F64 || r == Rendering::F32) {
    const double d = std::bit_cast<double>(v.word);
    end = spec.precision >= 0   ? rt::write_f64_fixed(p, d, spec.precision)
          : r == Rendering::F64 ? rt::write_f64_debug(p, d)
                                : rt::write_f32_debug(p, d);
  } else {
    end = write_display(p, v);
  }
  return spec.width ? rt::pad_field(p, end, spec.width, spec.zero_pad) : end;
}

}  // namespace polyrt::nodes

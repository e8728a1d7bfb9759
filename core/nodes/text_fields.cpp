#include "nodes/text_fields.hpp"

#include <bit>

namespace polyrt::nodes {

FieldValue field_of(const Value& v) {
  if (v.type() == Type::Str) return {Type::Str, 0, v.as_str()};
  return {v.type(), word_of(v), {}};
}

size_t display_bound(const FieldValue& v) {
  switch (v.type) {
    case Type::U64:
      return rt::kU64Text;
    case Type::F64:
      return rt::kF64DisplayText;
    case Type::Str:
      return v.text.size();
    case Type::Bool:
      return 5;
  }
  return 0;
}

char* write_display(char* p, const FieldValue& v) {
  switch (v.type) {
    case Type::U64:
      return rt::write_u64(p, v.word);
    case Type::F64:
      return rt::write_f64_display(p, std::bit_cast<double>(v.word));
    case Type::Str:
      return std::copy(v.text.begin(), v.text.end(), p);
    case Type::Bool:
      return v.word ? std::copy_n("true", 4, p) : std::copy_n("false", 5, p);
  }
  return p;
}

size_t field_bound(const rt::FormatSegment& spec, const FieldValue& v) {
  size_t bound = 5;  // bool
  switch (v.type) {
    case Type::U64:
      bound = spec.radix ? rt::kU64RadixText : rt::kU64Text;
      break;
    case Type::F64:
      bound = spec.precision >= 0 ? rt::f64_fixed_bound(spec.precision) : rt::kF64DebugText;
      break;
    case Type::Str:
      bound = v.text.size();
      break;
    case Type::Bool:
      break;
  }
  return std::max(bound, (size_t)spec.width);
}

char* write_field(char* p, const rt::FormatSegment& spec, const FieldValue& v) {
  char* end = p;
  switch (v.type) {
    case Type::U64:
      end = spec.radix == 0 ? rt::write_u64(p, v.word)
                            : rt::write_u64_radix(p, v.word,
                                                  spec.radix == 'b'   ? 2
                                                  : spec.radix == 'o' ? 8
                                                                      : 16,
                                                  false, spec.radix == 'X');
      break;
    case Type::F64: {
      const double d = std::bit_cast<double>(v.word);
      end = spec.precision >= 0 ? rt::write_f64_fixed(p, d, spec.precision)
                                : rt::write_f64_debug(p, d);
      break;
    }
    case Type::Str:
    case Type::Bool:
      end = write_display(p, v);
      break;
  }
  return spec.width ? rt::pad_field(p, end, spec) : end;
}

}  // namespace polyrt::nodes

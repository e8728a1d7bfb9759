#include "polyrt/value.hpp"

#include <bit>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include "polyrt/error.hpp"
#include "rtlib/text.hpp"

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
  }
  return "?";
}

uint64_t word_of(const Value& v) {
  if (v.is_none()) return 0;
  switch (v.type()) {
    case Type::U64:
      return v.as_u64();
    case Type::F64:
      return std::bit_cast<uint64_t>(v.as_f64());
    case Type::Bool:
      return v.as_bool() ? 1 : 0;
    case Type::Str:
      break;
  }
  return 0;
}

Value value_of_word(Type type, uint64_t word) {
  switch (type) {
    case Type::U64:
      return Value::u64(word);
    case Type::F64:
      return Value::f64(std::bit_cast<double>(word));
    case Type::Bool:
      return Value::boolean(word != 0);
    case Type::Str:
      break;
  }
  return Value::none();
}

bool parse_type_name(std::string_view text, Type& out) {
  if (text == "u64") {
    out = Type::U64;
  } else if (text == "f64") {
    out = Type::F64;
  } else if (text == "str" || text == "Str" || text == "String") {
    out = Type::Str;
  } else if (text == "bool") {
    out = Type::Bool;
  } else {
    return false;
  }
  return true;
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
  if (data_.index() != 1) mismatch(*this, Type::U64);
  return std::get<1>(data_);
}
double Value::as_f64() const {
  if (data_.index() != 2) mismatch(*this, Type::F64);
  return std::get<2>(data_);
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

Value parse_value(std::string_view text, Type type, std::string_view target) {
  auto fail = [&]() -> Value {
    throw WriteError("cannot read \"" + std::string(text) + "\" as " +
                     std::string(type_name(type)) +
                     (target.empty() ? "" : " for " + std::string(target)) +
                     (type == Type::U64   ? " (expected decimal digits or 0x hex)"
                      : type == Type::F64 ? " (expected a decimal number such as 0.25 or 1e-3)"
                                          : " (expected true, false, 1 or 0)"));
  };
  switch (type) {
    case Type::Str:
      return Value::str(std::string(text));
    case Type::U64: {
      uint64_t v = 0;
      const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
      const char* begin = text.data() + (hex ? 2 : 0);
      auto res = std::from_chars(begin, text.data() + text.size(), v, hex ? 16 : 10);
      if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
        return fail();
      return Value::u64(v);
    }
    case Type::F64: {
      double v = 0;
      auto res = std::from_chars(text.data(), text.data() + text.size(), v);
      if (text.empty() || res.ptr != text.data() + text.size()) return fail();
      if (res.ec == std::errc::result_out_of_range) {
        v = std::strtod(std::string(text).c_str(), nullptr);  // +-inf or +-0, like inf itself
      } else if (res.ec != std::errc()) {
        return fail();
      }
      return Value::f64(v);
    }
    case Type::Bool: {
      std::string lower;
      for (char c : text) lower.push_back((char)std::tolower((unsigned char)c));
      if (lower == "true" || lower == "1") return Value::boolean(true);
      if (lower == "false" || lower == "0") return Value::boolean(false);
      return fail();
    }
  }
  return fail();
}

}  // namespace polyrt

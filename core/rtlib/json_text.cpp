#include "json_text.hpp"

#include <charconv>
#include <cstdint>

#include "byte_encodings.hpp"
#include "string_ops.hpp"
#include "text.hpp"
#include "utf8.hpp"

namespace polyrt::rt {

namespace {

// serde_json's recursion limit: it refuses a 128th array or object opened
// inside 127 others, so at most 127 levels nest.
constexpr int kMaxNesting = 127;

class Parser {
 public:
  Parser(std::string_view text, std::string& error) : s_(text), error_(error) {}

  std::optional<JsonValue> document() {
    JsonValue v;
    if (!value(v, 0)) return std::nullopt;
    space();
    if (i_ != s_.size()) {
      fail("text after the value");
      return std::nullopt;
    }
    return v;
  }

 private:
  // Records the first error; false, for `return fail(...)`.
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = what + " at offset " + std::to_string(i_);
    return false;
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  bool value(JsonValue& v, int depth) {
    space();
    if (i_ >= s_.size()) return fail("a value expected");
    const char c = s_[i_];
    if ((c == '{' || c == '[') && depth >= kMaxNesting) {
      return fail("arrays and objects nested more than 127 levels deep (serde_json's limit)");
    }
    if (c == '{') return object(v, depth);
    if (c == '[') return array(v, depth);
    if (c == '"') {
      v.kind = JsonValue::Kind::String;
      return string(v.scalar);
    }
    for (const char* word : {"true", "false"}) {
      if (literal(word)) {
        v.kind = JsonValue::Kind::Bool;
        v.scalar = word;
        return true;
      }
    }
    if (literal("null")) {
      v.kind = JsonValue::Kind::Null;
      return true;
    }
    return number(v);
  }

  bool number(JsonValue& v) {
    const size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    const size_t digits = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    if (i_ == digits || (s_[digits] == '0' && i_ - digits > 1)) return fail("a bad number");
    bool integral = true;
    if (i_ < s_.size() && s_[i_] == '.') {
      integral = false;
      const size_t frac = ++i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      if (i_ == frac) return fail("a bad number");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      integral = false;
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      const size_t exp = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      if (i_ == exp) return fail("a bad number");
    }
    v.kind = JsonValue::Kind::Number;
    v.scalar = std::string(s_.substr(start, i_ - start));
    return settle_number(v, integral);
  }

  // An integer beyond 64 bits, or a fraction, is a double (as serde_json
  // reads it), printed as serde_json prints one; past the f64 range it is
  // an error, as in serde_json.
  bool settle_number(JsonValue& v, bool integral) {
    uint64_t u;
    int64_t n;
    const char* b = v.scalar.data();
    const char* e = b + v.scalar.size();
    const auto whole = [&](auto& into) {
      const auto r = std::from_chars(b, e, into);
      return r.ec == std::errc() && r.ptr == e;
    };
    // "-0" is the double -0.0 to serde_json (no integer is negative zero).
    const bool negative_zero =
        integral && v.scalar[0] == '-' && v.scalar.find_first_not_of('0', 1) == std::string::npos;
    const bool fits = integral && !negative_zero && (whole(u) || whole(n));
    if (!fits) {
      double d = 0;
      if (std::from_chars(b, e, d).ec != std::errc()) return fail("a number out of the f64 range");
      char buf[kF64ShortestText];
      v.scalar.assign(buf, write_f64_json(buf, d));
    }
    return true;
  }

  bool hex4(uint32_t& cp) {
    if (i_ + 4 > s_.size()) return false;
    cp = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      const int d = hex_digit_value(c);
      if (d < 0) return false;
      cp = cp << 4 | (uint32_t)d;
    }
    return true;
  }

  bool string(std::string& out) {
    ++i_;  // '"'
    while (i_ < s_.size() && s_[i_] != '"') {
      const char c = s_[i_];
      if ((unsigned char)c < 0x20) return fail("a control character in a string");
      if (c != '\\') {
        out.push_back(c);
        ++i_;
        continue;
      }
      if (++i_ >= s_.size()) break;
      const char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out.push_back(e);
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          uint32_t cp;
          if (!hex4(cp)) return fail("a bad \\u escape");
          if (cp >= 0xd800 && cp < 0xdc00) {  // a surrogate pair
            uint32_t low;
            if (!literal("\\u") || !hex4(low) || low < 0xdc00 || low >= 0xe000) {
              return fail("an unpaired surrogate");
            }
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          } else if (cp >= 0xdc80 && cp < 0xdd00) {  // a byte that is not UTF-8 (json_quoted)
            out.push_back((char)(cp & 0xff));
            break;
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            return fail("an unpaired surrogate");
          }
          append_utf8(out, (char32_t)cp);
          break;
        }
        default:
          return fail("a bad escape");
      }
    }
    if (i_ >= s_.size()) return fail("an unterminated string");
    ++i_;  // '"'
    return true;
  }

  bool array(JsonValue& v, int depth) {
    v.kind = JsonValue::Kind::Array;
    ++i_;
    space();
    if (i_ < s_.size() && s_[i_] == ']') {
      ++i_;
      return true;
    }
    while (true) {
      v.items.emplace_back();
      if (!value(v.items.back(), depth + 1)) return false;
      space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
        return true;
      }
      return fail("',' or ']' expected");
    }
  }

  bool object(JsonValue& v, int depth) {
    v.kind = JsonValue::Kind::Object;
    ++i_;
    space();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return true;
    }
    while (true) {
      space();
      std::string key;
      if (i_ >= s_.size() || s_[i_] != '"' || !string(key)) return fail("a key expected");
      space();
      if (i_ >= s_.size() || s_[i_] != ':') return fail("':' expected");
      ++i_;
      JsonValue member;
      if (!value(member, depth + 1)) return false;
      v.members[key] = std::move(member);  // a repeated key: the last wins
      space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == '}') {
        ++i_;
        return true;
      }
      return fail("',' or '}' expected");
    }
  }

  std::string_view s_;
  std::string& error_;
  size_t i_ = 0;
};

void write(const JsonValue& v, std::string& out) {
  switch (v.kind) {
    case JsonValue::Kind::Null:
      out += "null";
      return;
    case JsonValue::Kind::Bool:
    case JsonValue::Kind::Number:
      out += v.scalar;
      return;
    case JsonValue::Kind::String:
      out += json_quoted(v.scalar);
      return;
    case JsonValue::Kind::Array:
      out.push_back('[');
      for (size_t k = 0; k < v.items.size(); ++k) {
        if (k) out.push_back(',');
        write(v.items[k], out);
      }
      out.push_back(']');
      return;
    case JsonValue::Kind::Object: {
      out.push_back('{');
      bool first = true;
      for (const auto& [key, member] : v.members) {
        if (!first) out.push_back(',');
        first = false;
        out += json_quoted(key);
        out.push_back(':');
        write(member, out);
      }
      out.push_back('}');
      return;
    }
  }
}

}  // namespace

std::optional<JsonValue> parse_json(std::string_view text, std::string& error) {
  error.clear();
  return Parser(text, error).document();
}

std::string json_text(const JsonValue& value) {
  std::string out;
  write(value, out);
  return out;
}

std::string json_quoted(std::string_view text) {
  return "\"" + escape_json(text) + "\"";
}

}  // namespace polyrt::rt

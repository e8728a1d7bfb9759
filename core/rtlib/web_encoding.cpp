#include "web_encoding.hpp"

#include "byte_encodings.hpp"
#include "utf8.hpp"

namespace polyrt::rt {
namespace {

// The two characters after '%' as a byte, or -1. Like Rust's
// u8::from_str_radix(.., 16), a leading '+' is a sign ("%+F" is 0x0F).
int escaped_byte(char a, char b) {
  if (a == '+') return hex_digit_value(b);
  const int high = hex_digit_value(a), low = hex_digit_value(b);
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  std::string out;
  size_t at = 0;
  for (size_t found; (found = text.find(from, at)) != std::string::npos; at = found + from.size()) {
    out.append(text, at, found - at);
    out.append(to);
  }
  out.append(text, at);
  text = std::move(out);
}

}  // namespace

std::string url_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto b = (unsigned char)ch;
    if ((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '-' ||
        b == '_' || b == '.' || b == '~') {
      out.push_back(ch);
    } else {
      out += {'%', kHex[b >> 4], kHex[b & 15]};
    }
  }
  return out;
}

std::string url_decode(std::string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '%' && i + 2 < text.size()) {
      if (const int b = escaped_byte(text[i + 1], text[i + 2]); b >= 0) {
        bytes.push_back((char)b);
        i += 3;
        continue;
      }
    }
    bytes.push_back(text[i++]);
  }
  return utf8_lossy(bytes);
}

std::string html_encode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#x27;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string html_decode(std::string_view text) {
  std::string out(text);
  static constexpr std::pair<std::string_view, std::string_view> kEntities[] = {
      {"&amp;", "&"},   {"&lt;", "<"},   {"&gt;", ">"},
      {"&quot;", "\""}, {"&#x27;", "'"}, {"&#39;", "'"}};
  for (const auto& [entity, character] : kEntities) replace_all(out, entity, character);
  return out;
}

std::string utf8_lossy(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const Utf8Sequence c = utf8_at(bytes, i);
    if (c.valid) {
      out.append(bytes.substr(i, c.size));
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
    }
    i += c.size;
  }
  return out;
}

}  // namespace polyrt::rt

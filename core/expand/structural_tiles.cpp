#include "expand/structural_tiles.hpp"

#include <cctype>
#include <optional>

#include "expand/tiles.hpp"
#include "rtlib/byte_encodings.hpp"
#include "rtlib/string_ops.hpp"
#include "rtlib/utf8.hpp"

namespace polyrt::expand {

// The syntax tree these expansions rewrite.
using namespace polyrt::syntax;

namespace {

// JSON documents nest at most this deep (serde_json's limit).
constexpr int kMaxDepth = 127;

// A directive string: "@for HEADER", "@if COND" or "@else"; the header or
// condition is bytes [begin, end) of the string.
struct Directive {
  enum Kind : uint8_t { For, If, Else } kind;
  size_t begin = 0, end = 0;
};

// A JSON string of the template, decoded, each byte's source offset kept.
struct JsonString {
  std::string text;
  std::vector<size_t> at;
  size_t offset = 0;  // where its opening quote is in the JSON text
};

// Where a directive member's separating comma goes (polydat's rule: a
// projection that renders nothing leaves no dangling comma).
enum class Comma : uint8_t { Between, Leading, Trailing, Sep };

class Walker {
 public:
  Walker(std::string_view json, const std::vector<size_t>& at, const TileHeader& h)
      : s_(json), at_(at), h_(h) {}

  TemplateText run() {
    skip_space();
    value(0);
    skip_space();
    if (i_ != s_.size()) fail(i_, "text after the JSON document");
    out_.at.push_back(at_.back());
    return std::move(out_);
  }

 private:
  struct Member {
    JsonString key;
    size_t value_begin;
  };

  [[noreturn]] void fail(size_t offset, const std::string& message) const {
    throw StructuralError{message, offset};
  }

  void skip_space() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
      ++i_;
    }
  }

  void emit(std::string_view text, size_t offset) {
    out_.text += text;
    out_.at.insert(out_.at.end(), text.size(), at_[std::min(offset, at_.size() - 1)]);
  }

  std::optional<Directive> directive(std::string_view whole) const {
    size_t b = 0, e = whole.size();
    while (b < e && std::isspace((unsigned char)whole[b])) ++b;
    while (e > b && std::isspace((unsigned char)whole[e - 1])) --e;
    if (whole.compare(b, h_.sigil.size(), h_.sigil) != 0) return std::nullopt;
    b += h_.sigil.size();
    for (const auto& [word, kind] : {std::pair{std::string_view("for"), Directive::For},
                                     std::pair{std::string_view("if"), Directive::If}}) {
      if (whole.compare(b, word.size(), word) == 0 && b + word.size() < e &&
          std::isspace((unsigned char)whole[b + word.size()])) {
        size_t rest = b + word.size();
        while (rest < e && std::isspace((unsigned char)whole[rest])) ++rest;
        return Directive{kind, rest, e};
      }
    }
    if (whole.substr(b, e - b) == "else") return Directive{Directive::Else, e, e};
    return std::nullopt;
  }

  // "@for HEADER { " or "@if COND { ": the header's bytes at their places.
  void open_directive(const JsonString& str, const Directive& d, std::string_view after) {
    emit(h_.sigil + (d.kind == Directive::For ? "for " : "if "), str.offset);
    emit_from(str, d.begin, d.end);
    emit(after, str.offset);
  }

  // The JSON string at i_.
  JsonString string() {
    JsonString out;
    out.offset = i_;
    ++i_;  // '"'
    while (true) {
      if (i_ >= s_.size()) fail(out.offset, "a string is not closed");
      const char c = s_[i_];
      if (c == '"') {
        ++i_;
        return out;
      }
      if ((unsigned char)c < 0x20) fail(i_, "a control character in a string (write it escaped)");
      if (c != '\\') {
        out.text.push_back(c);
        out.at.push_back(at_[i_++]);
        continue;
      }
      const size_t escape = i_;
      if (i_ + 1 >= s_.size()) fail(escape, "a string is not closed");
      const char e = s_[i_ + 1];
      i_ += 2;
      const char* simple = "\"\"\\\\//b\bf\fn\nr\rt\t";
      char decoded = 0;
      for (const char* p = simple; *p; p += 2) {
        if (*p == e) decoded = p[1];
      }
      if (decoded) {
        out.text.push_back(decoded);
        out.at.push_back(at_[escape]);
        continue;
      }
      if (e != 'u') fail(escape, std::string("an unknown escape \\") + e + " in a string");
      const auto hex4 = [&](size_t from) {
        if (from + 4 > s_.size()) fail(escape, "\\u needs four hex digits");
        unsigned v = 0;
        for (size_t k = from; k < from + 4; ++k) {
          const int digit = rt::hex_digit_value(s_[k]);
          if (digit < 0) fail(escape, "\\u needs four hex digits");
          v = v * 16 + (unsigned)digit;
        }
        return v;
      };
      char32_t code = hex4(i_);
      i_ += 4;
      if (code >= 0xD800 && code < 0xDC00 && s_.compare(i_, 2, "\\u") == 0) {
        const unsigned low = hex4(i_ + 2);
        if (low >= 0xDC00 && low < 0xE000) {
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          i_ += 6;
        }
      }
      const size_t before = out.text.size();
      rt::append_utf8(out.text, code);
      out.at.insert(out.at.end(), out.text.size() - before, at_[escape]);
    }
  }

  void literal() {
    const size_t from = i_;
    while (i_ < s_.size() && (std::isalnum((unsigned char)s_[i_]) || s_[i_] == '.' ||
                              s_[i_] == '-' || s_[i_] == '+')) {
      ++i_;
    }
    const std::string_view text = s_.substr(from, i_ - from);
    const bool number = !text.empty() && (std::isdigit((unsigned char)text[0]) || text[0] == '-');
    if (!number && text != "true" && text != "false" && text != "null") {
      fail(from, text.empty() ? "expected a JSON value"
                              : "'" + std::string(text) + "' is not a JSON value");
    }
    emit(text, from);
  }

  void value(int depth) {
    if (depth > kMaxDepth) fail(i_, "arrays and objects nested more than 127 levels deep");
    if (i_ >= s_.size()) fail(i_, "expected a JSON value, found the end");
    switch (s_[i_]) {
      case '"':
        return text_node(string(), false);
      case '[':
        return array(depth);
      case '{':
        return object(depth);
      default:
        return literal();
    }
  }

  // Where the hole that opens at k of `text` closes (after its closer), as
  // the tile's own scan finds it; npos when it does not.
  size_t hole_end(const std::string& text, size_t k) const {
    const size_t close = tile_hole_close(text, k + h_.open.size(), text.size(), h_.close);
    return close == std::string::npos ? close : close + h_.close.size();
  }

  // A string node: a value hole (exactly one hole, not declared str), or a
  // string with its holes in string position. A member name is always the
  // latter.
  void text_node(const JsonString& str, bool key) {
    // A value is read once to find where it ends, before its place (an
    // array's lead, a member's value) is known: checked when written.
    if (skipping_ > 0) return;
    const std::string& t = str.text;
    if (!key && directive(t)) {
      fail(str.offset, "directive string `" + t + "` outside a directive position; a `" + h_.sigil +
                           "for` or `" + h_.sigil +
                           "if` string leads an array, or is an object key");
    }
    for (const char* word : {"for", "if"}) {
      const std::string start = h_.sigil + word;
      for (size_t k = t.find(start); k != std::string::npos; k = t.find(start, k + 1)) {
        if (k + start.size() < t.size() && std::isspace((unsigned char)t[k + start.size()])) {
          fail(str.offset, "string `" + t +
                               "` contains a directive; in the structural form directives are "
                               "arrays and object keys");
        }
      }
    }
    const bool one_hole = t.starts_with(h_.open) &&
                          t.compare(h_.open.size(), h_.open.size(), h_.open) != 0 &&
                          hole_end(t, 0) == t.size();
    if (!key && one_hole && !declares_str(t)) {
      emit_from(str, 0, t.size());
      return;
    }
    emit("\"", str.offset);
    size_t k = 0;
    std::string run;  // static text since the last hole, its escapes decoded
    const auto flush = [&] {
      std::string escaped = rt::escape_json(run);
      run.clear();
      std::string doubled;
      for (size_t p = 0; p < escaped.size();) {
        if (escaped.compare(p, h_.open.size(), h_.open) == 0) {
          doubled += h_.open + h_.open;
          p += h_.open.size();
        } else {
          doubled.push_back(escaped[p++]);
        }
      }
      emit(doubled, str.offset);
    };
    while (k < t.size()) {
      if (t.compare(k, h_.open.size(), h_.open) != 0) {
        run.push_back(t[k++]);
        continue;
      }
      if (t.compare(k + h_.open.size(), h_.open.size(), h_.open) == 0) {  // a literal opener
        run += h_.open;
        k += 2 * h_.open.size();
        continue;
      }
      const size_t end = hole_end(t, k);
      if (end == std::string::npos) {
        fail(str.offset, "in string `" + t + "`: '" + h_.open + "' opens a hole that no '" +
                             h_.close + "' closes");
      }
      flush();
      emit_from(str, k, end);
      k = end;
    }
    flush();
    emit("\"", str.offset);
  }

  // Whether the one hole `t` declares the type str (`${x: str}`).
  bool declares_str(const std::string& t) const {
    std::string_view inside =
        std::string_view(t).substr(h_.open.size(), t.size() - h_.open.size() - h_.close.size());
    const size_t colon = inside.rfind(':');
    if (colon == std::string_view::npos) return false;
    std::string_view type = inside.substr(colon + 1);
    const size_t bar = type.find('|');
    if (bar != std::string_view::npos) type = type.substr(0, bar);
    while (!type.empty() && (std::isspace((unsigned char)type.front()))) type.remove_prefix(1);
    while (!type.empty() && (std::isspace((unsigned char)type.back()) || type.back() == '!')) {
      type.remove_suffix(1);
    }
    return type == "str" || type == "String" || type == "string";
  }

  // Bytes [from, to) of a string, each at its own source offset.
  void emit_from(const JsonString& str, size_t from, size_t to) {
    out_.text.append(str.text, from, to - from);
    out_.at.insert(out_.at.end(), str.at.begin() + (ptrdiff_t)from, str.at.begin() + (ptrdiff_t)to);
  }

  // Parses the values of an array or the members of an object into their
  // positions, to be written once the directives are known.
  std::vector<size_t> array_items(int depth) {
    std::vector<size_t> items;
    ++i_;  // '['
    skip_space();
    if (i_ < s_.size() && s_[i_] == ']') {
      ++i_;
      return items;
    }
    while (true) {
      skip_space();
      items.push_back(i_);
      skip_value(depth + 1);
      skip_space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
        return items;
      }
      fail(i_, "expected ',' or ']' in an array");
    }
  }

  void skip_value(int depth) {
    const size_t saved = out_.text.size(), saved_at = out_.at.size();
    ++skipping_;
    value(depth);
    --skipping_;
    out_.text.resize(saved);
    out_.at.resize(saved_at);
  }

  // The value at `at` written for real.
  void value_at(size_t at, int depth) {
    const size_t end = i_;
    i_ = at;
    value(depth);
    i_ = end;
  }

  // The string at `at` (none when the value there is not a string).
  std::optional<JsonString> string_at(size_t at) {
    if (s_[at] != '"') return std::nullopt;
    const size_t end = i_;
    i_ = at;
    JsonString str = string();
    i_ = end;
    return str;
  }

  std::optional<Directive> directive_at(size_t at) {
    const std::optional<JsonString> str = string_at(at);
    return str ? directive(str->text) : std::nullopt;
  }

  void items(const std::vector<size_t>& list, size_t from, size_t to, int depth) {
    for (size_t k = from; k < to; ++k) {
      if (k > from) emit(", ", list[k]);
      value_at(list[k], depth + 1);
    }
  }

  void array(int depth) {
    const size_t open = i_;
    const std::vector<size_t> list = array_items(depth);
    emit("[", open);
    const std::optional<Directive> lead = list.empty() ? std::nullopt : directive_at(list[0]);
    if (!lead) {
      items(list, 0, list.size(), depth);
    } else if (lead->kind == Directive::For) {
      open_directive(*string_at(list[0]), *lead, " { ");
      items(list, 1, list.size(), depth);
      emit(" }", list[0]);
    } else if (lead->kind == Directive::If) {
      size_t split = 1;
      while (split < list.size()) {
        const std::optional<Directive> d = directive_at(list[split]);
        if (d && d->kind == Directive::Else) break;
        ++split;
      }
      open_directive(*string_at(list[0]), *lead, " { ");
      items(list, 1, split, depth);
      emit(" }", list[0]);
      if (split < list.size()) {
        emit(" " + h_.sigil + "else { ", list[split]);
        items(list, split + 1, list.size(), depth);
        emit(" }", list[split]);
      }
    } else {
      fail(list[0], "`" + h_.sigil + "else` without a leading `" + h_.sigil + "if`");
    }
    emit("]", open);
  }

  std::vector<Member> object_members(int depth) {
    std::vector<Member> members;
    ++i_;  // '{'
    skip_space();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return members;
    }
    while (true) {
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '"')
        fail(i_, "expected a member name (a string) in an object");
      Member m{string(), 0};
      skip_space();
      if (i_ >= s_.size() || s_[i_] != ':') fail(i_, "expected ':' after a member name");
      ++i_;
      skip_space();
      m.value_begin = i_;
      skip_value(depth + 1);
      // A repeated name keeps its first place and its last value.
      bool repeated = false;
      for (Member& earlier : members) {
        if (earlier.key.text == m.key.text) {
          earlier.value_begin = m.value_begin;
          repeated = true;
        }
      }
      if (!repeated) members.push_back(std::move(m));
      skip_space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == '}') {
        ++i_;
        return members;
      }
      fail(i_, "expected ',' or '}' in an object");
    }
  }

  // The members of the object under a directive key, with its comma.
  void directive_members(const Member& m, Comma comma, int depth) {
    const size_t end = i_;
    i_ = m.value_begin;
    if (s_[i_] != '{')
      fail(i_, "the value under directive key `" + m.key.text + "` must be an object of members");
    const std::vector<Member> inner = object_members(depth + 1);
    i_ = end;
    if (comma == Comma::Leading) emit(", ", m.value_begin);
    for (size_t k = 0; k < inner.size(); ++k) {
      if (k > 0) emit(", ", inner[k].value_begin);
      text_node(inner[k].key, true);
      emit(": ", inner[k].value_begin);
      value_at(inner[k].value_begin, depth + 2);
    }
    if (comma == Comma::Trailing) emit(", ", m.value_begin);
  }

  void object(int depth) {
    const size_t open = i_;
    const std::vector<Member> members = object_members(depth);
    emit("{", open);
    bool wrote_static = false;
    for (size_t k = 0; k < members.size(); ++k) {
      const Member& m = members[k];
      const std::optional<Directive> d = directive(m.key.text);
      if (!d) {
        if (wrote_static) emit(", ", m.key.offset);
        text_node(m.key, true);
        emit(": ", m.value_begin);
        value_at(m.value_begin, depth + 1);
        wrote_static = true;
        continue;
      }
      bool after = false;
      for (size_t j = k + 1; j < members.size(); ++j) {
        const std::optional<Directive> later = directive(members[j].key.text);
        after = after || !later || later->kind != Directive::Else;
      }
      const Comma comma = wrote_static ? Comma::Leading : after ? Comma::Trailing : Comma::Sep;
      if (d->kind == Directive::For) {
        const bool own_comma = comma == Comma::Leading || comma == Comma::Trailing;
        open_directive(m.key, *d, own_comma ? " sep \"\" { " : " { ");
        directive_members(m, comma, depth);
        emit(" }", m.key.offset);
      } else if (d->kind == Directive::If) {
        open_directive(m.key, *d, " { ");
        directive_members(m, comma, depth);
        emit(" }", m.key.offset);
        if (k + 1 < members.size()) {
          const std::optional<Directive> next = directive(members[k + 1].key.text);
          if (next && next->kind == Directive::Else) {
            emit(" " + h_.sigil + "else { ", members[k + 1].key.offset);
            directive_members(members[k + 1], comma, depth);
            emit(" }", members[k + 1].key.offset);
            ++k;
          }
        }
      } else {
        fail(m.key.offset,
             "`" + h_.sigil + "else` key without a preceding `" + h_.sigil + "if` key");
      }
    }
    emit("}", open);
  }

  std::string_view s_;
  const std::vector<size_t>& at_;
  const TileHeader& h_;
  size_t i_ = 0;
  int skipping_ = 0;  // values being read only to find their end
  TemplateText out_;
};

}  // namespace

TemplateText structural_template(std::string_view json, const std::vector<size_t>& at,
                                 const TileHeader& header) {
  return Walker(json, at, header).run();
}

}  // namespace polyrt::expand

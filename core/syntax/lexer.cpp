#include "syntax/lexer.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "polyrt/error.hpp"

namespace polyrt::syntax {

const char* token_name(Tok kind) {
  static const char* const names[] = {"end of input", "identifier",
                                      "integer",      "float",
                                      "string",       "'+'",
                                      "'-'",          "'*'",
                                      "'/'",          "'%'",
                                      "'**'",         "'&'",
                                      "'|'",          "'^'",
                                      "'<<'",         "'>>'",
                                      "'&&'",         "'||'",
                                      "'!'",          "'=='",
                                      "'!='",         "'<'",
                                      "'>'",          "'<='",
                                      "'>='",         "':='",
                                      "'='",          "':'",
                                      "'->'",         "'.'",
                                      "','",          "'('",
                                      "')'",          "'['",
                                      "']'",          "'{'",
                                      "'}'",          "a comprehension",
                                      "a tile body"};
  return names[(int)kind];
}

namespace {

class Lexer {
 public:
  Lexer(const SourceText& src, size_t begin, size_t end)
      : src_(src), s_(src.text()), begin_(begin), i_(begin), end_(end) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    bool newline = true;
    while (true) {
      newline = skip_space_and_comments() || newline;
      Token t;
      t.offset = i_;
      t.pos = src_.position_of(i_);
      t.newline_before = newline;
      newline = false;
      if (i_ >= end_) {
        t.kind = Tok::End;
        out.push_back(t);
        return out;
      }
      if (i_ == tile_body_at_) {
        capture_tile_body(t);
        out.push_back(std::move(t));
        continue;
      }
      lex_one(t);
      t.length = i_ - t.offset;
      if (t.kind != Tok::String && t.text.empty()) t.text = s_.substr(t.offset, t.length);
      const bool comprehension_follows = t.kind == Tok::Ident && t.text == "for" && opens_for();
      if (t.kind == Tok::Ident && t.text == "tile" && t.newline_before) {
        tile_body_at_ = tile_body_start();
      }
      out.push_back(std::move(t));
      if (comprehension_follows) out.push_back(capture_comprehension());
    }
  }

 private:
  char peek(size_t k = 0) const { return i_ + k < end_ ? s_[i_ + k] : '\0'; }

  [[noreturn]] void fail(size_t at, const std::string& msg, size_t len = 1,
                         const std::string& hint = {}) {
    src_.fail(src_.position_of(at), msg, len, hint);
  }

  // Returns true when a line break was skipped.
  bool skip_space_and_comments() {
    bool newline = false;
    while (i_ < end_) {
      const char c = s_[i_];
      if (c == '\n') {
        newline = true;
        ++i_;
      } else if (std::isspace((unsigned char)c)) {
        ++i_;
      } else if (c == '#' || (c == '/' && peek(1) == '/')) {
        while (i_ < end_ && s_[i_] != '\n') ++i_;
      } else if (c == '/' && peek(1) == '*') {
        const size_t close = s_.find("*/", i_ + 2);
        if (close == std::string::npos || close + 2 > end_) {
          fail(i_, "unterminated block comment", 2,
               "close it with */ (block comments do not nest)");
        }
        for (size_t k = i_; k < close; ++k) newline = newline || s_[k] == '\n';
        i_ = close + 2;
      } else {
        break;
      }
    }
    return newline;
  }

  // Whether the `for` just lexed is the keyword (not a binding or a call
  // named for): `(` opens a zip clause only when `NAMES) in` follows.
  bool opens_for() const {
    size_t k = i_;
    while (k < end_ && (s_[k] == ' ' || s_[k] == '\t')) ++k;
    if (k < end_ && s_[k] == '(') {
      size_t close = k + 1;
      while (close < end_ &&
             (ident_char(s_[close]) || s_[close] == ',' || s_[close] == ' ' || s_[close] == '\t')) {
        ++close;
      }
      if (close >= end_ || s_[close] != ')') return false;
      size_t in = close + 1;
      while (in < end_ && (s_[in] == ' ' || s_[in] == '\t')) ++in;
      return s_.compare(in, 2, "in") == 0 && (in + 2 >= end_ || !ident_char(s_[in + 2]));
    }
    return k < end_ && s_[k] != '\n' && s_.compare(k, 2, ":=") != 0 && s_[k] != ')' && s_[k] != ',';
  }

  Token capture_comprehension() {
    while (i_ < end_ && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    Token t;
    t.kind = Tok::Comprehension;
    t.offset = i_;
    t.pos = src_.position_of(i_);
    int depth = 0;
    size_t k = i_;
    for (; k < end_; ++k) {
      const char c = s_[k];
      if (c == '"' || c == '\'') {
        const size_t close = s_.find(c, k + 1);
        if (close == std::string::npos || close >= end_) fail(k, "unterminated string");
        k = close;
      } else if (depth == 0 &&
                 (c == '\n' || c == '#' || (c == '/' && k + 1 < end_ && s_[k + 1] == '/'))) {
        break;
      } else if (c == '{' && depth == 0 && !is_reference(k)) {
        break;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        --depth;
      }
    }
    size_t last = k;
    while (last > i_ && std::isspace((unsigned char)s_[last - 1])) --last;
    t.text = s_.substr(i_, last - i_);
    t.length = last - i_;
    if (t.text.empty()) fail(t.offset, "'for' needs a comprehension: for NAME in SOURCE", 1);
    i_ = last;
    return t;
  }

  // After the keyword `tile` at a statement's start: where the body of a
  // tile header `NAME [: ENCODING] [(OPTIONS)] [:=]` begins (a block, a
  // heredoc or a string), or npos when the text is not a tile header (a
  // binding named tile).
  size_t tile_body_start() const {
    size_t k = i_;
    const auto spaces = [&] {
      while (k < end_ && (s_[k] == ' ' || s_[k] == '\t')) ++k;
    };
    const auto ident = [&] {
      if (k >= end_ || !ident_start(s_[k])) return false;
      while (k < end_ && ident_char(s_[k])) ++k;
      return true;
    };
    spaces();
    if (!ident()) return std::string::npos;
    spaces();
    if (k < end_ && s_[k] == ':' && (k + 1 >= end_ || s_[k + 1] != '=')) {
      ++k;
      spaces();
      if (!ident()) return std::string::npos;
      spaces();
    }
    if (k < end_ && s_[k] == '(') {
      k = options_end(k);
      if (k == std::string::npos) return k;
      spaces();
    }
    if (s_.compare(k, 2, ":=") == 0) {
      k += 2;
      while (k < end_ && std::isspace((unsigned char)s_[k])) ++k;
      return k;
    }
    const bool body = k < end_ && (s_[k] == '{' || s_[k] == '[' || s_[k] == '"' || s_[k] == '\'' ||
                                   s_.compare(k, 3, "<<<") == 0);
    return body ? k : std::string::npos;
  }

  // Past the `(OPTIONS)` of a tile header opened at k, on its line; npos
  // when they do not close there (an unterminated string included: no
  // reading past the text).
  size_t options_end(size_t k) const {
    int depth = 0;
    for (; k < end_; ++k) {
      if (s_[k] == '"' || s_[k] == '\'') {
        const char quote = s_[k];
        for (++k; k < end_ && s_[k] != quote && s_[k] != '\n'; ++k) {
          if (s_[k] == '\\' && k + 1 < end_) ++k;
        }
        if (k >= end_) return std::string::npos;
      } else if (s_[k] == '(') {
        ++depth;
      } else if (s_[k] == ')' && --depth == 0) {
        return k + 1;
      } else if (s_[k] == '\n') {
        return std::string::npos;
      }
    }
    return k;
  }

  // The tile body at i_ (tile_body_start), raw.
  void capture_tile_body(Token& t) {
    tile_body_at_ = std::string::npos;
    const size_t start = i_;
    const char c = s_[i_];
    if (s_.compare(i_, 3, "<<<") == 0) {
      const size_t close = s_.find(">>>", i_ + 3);
      if (close == std::string::npos || close + 3 > end_) {
        fail(start, "unterminated heredoc: '<<<' has no closing '>>>'", 3);
      }
      i_ = close + 3;
    } else if (c == '"' || c == '\'') {
      Token ignored;
      lex_string(ignored);
    } else if (c != '{' && c != '[') {
      fail(start,
           std::string("a tile's body is a block ({ ... } or [ ... ]), a heredoc (<<< ... >>>) "
                       "or a string literal, not '") +
               c + "'",
           1,
           "a body that starts with a directive goes inside a heredoc: tile t := <<<@if c {yes} "
           "@else {no}>>>");
    } else {
      const char open = c, close = c == '{' ? '}' : ']';
      int depth = 0;
      for (; i_ < end_; ++i_) {
        const char k = s_[i_];
        if (k == '"') {
          for (++i_; i_ < end_ && s_[i_] != '"'; ++i_) {
            if (s_[i_] == '\\') ++i_;
          }
          if (i_ >= end_) fail(start, "a string in the tile's body is not closed", 1);
        } else if (k == open) {
          ++depth;
        } else if (k == close && --depth == 0) {
          break;
        }
      }
      if (i_ >= end_) {
        fail(start,
             std::string("the tile's body is not closed: this '") + open + "' has no matching '" +
                 close + "'",
             1, "a block body balances its braces and brackets outside JSON strings");
      }
      ++i_;
    }
    t.kind = Tok::TileBody;
    t.length = i_ - start;
    t.text = s_.substr(start, t.length);
  }

  // `{name}` at `at`: a reference, never a traversal's body.
  // `{name}`, or a composed `{k_{k}_limits}` (name characters and
  // `{name}` placeholders), at `at`: a reference, not the body's brace.
  bool is_reference(size_t at) const {
    size_t k = at + 1;
    bool any = false;
    while (k < end_ && s_[k] != '}') {
      if (ident_char(s_[k])) {
        ++k;
      } else if (s_[k] == '{' && k + 1 < end_ && ident_start(s_[k + 1])) {
        for (++k; k < end_ && ident_char(s_[k]);) ++k;
        if (k >= end_ || s_[k] != '}') return false;
        ++k;
      } else {
        return false;
      }
      any = true;
    }
    return any && k < end_ && (ident_start(s_[at + 1]) || s_[at + 1] == '{');
  }

  void lex_one(Token& t) {
    const char c = s_[i_];
    if (ident_start(c)) {
      while (i_ < end_ && ident_char(s_[i_])) ++i_;
      t.kind = Tok::Ident;
      return;
    }
    if (std::isdigit((unsigned char)c)) return lex_number(t);
    if (c == '"' || c == '\'') return lex_string(t);
    if (s_.compare(i_, 3, "<<<") == 0) return lex_heredoc(t);
    struct Op {
      const char* text;
      Tok kind;
    };
    static const Op ops[] = {
        {"**", Tok::StarStar}, {"<<", Tok::Shl},     {">>", Tok::Shr},   {"&&", Tok::AndAnd},
        {"||", Tok::OrOr},     {"==", Tok::EqEq},    {"!=", Tok::NotEq}, {"<=", Tok::Le},
        {">=", Tok::Ge},       {":=", Tok::ColonEq}, {"->", Tok::Arrow}, {"+", Tok::Plus},
        {"-", Tok::Minus},     {"*", Tok::Star},     {"/", Tok::Slash},  {"%", Tok::Percent},
        {"&", Tok::Amp},       {"|", Tok::Pipe},     {"^", Tok::Caret},  {"!", Tok::Bang},
        {"<", Tok::Lt},        {">", Tok::Gt},       {"=", Tok::Eq},     {":", Tok::Colon},
        {".", Tok::Dot},       {",", Tok::Comma},    {"(", Tok::LParen}, {")", Tok::RParen},
        {"[", Tok::LBracket},  {"]", Tok::RBracket}, {"{", Tok::LBrace}, {"}", Tok::RBrace},
    };
    for (const Op& op : ops) {
      const size_t n = std::char_traits<char>::length(op.text);
      if (i_ + n <= end_ && s_.compare(i_, n, op.text) == 0) {
        i_ += n;
        t.kind = op.kind;
        return;
      }
    }
    std::string shown = std::isprint((unsigned char)c) ? std::string(1, c) : "\\x" + [&] {
      static const char* hex = "0123456789abcdef";
      return std::string{hex[(unsigned char)c >> 4], hex[(unsigned char)c & 15]};
    }();
    fail(i_, "unexpected character '" + shown + "'", 1,
         "expected a name, a number, a string, an operator or punctuation");
  }

  // `<<< text >>>`: a string literal taken exactly, minus one line break
  // after `<<<` and one before `>>>`; nothing in it is an escape or a
  // placeholder.
  void lex_heredoc(Token& t) {
    const size_t close = s_.find(">>>", i_ + 3);
    if (close == std::string::npos || close + 3 > end_) {
      fail(i_, "unterminated heredoc: '<<<' has no closing '>>>'", 3);
    }
    t.kind = Tok::String;
    t.text = heredoc_text(std::string_view(s_).substr(i_ + 3, close - i_ - 3));
    i_ = close + 3;
  }

  void lex_string(Token& t) {
    const char quote = s_[i_++];
    std::string value;
    while (true) {
      if (i_ >= end_)
        fail(t.offset, "unterminated string literal", 1, "close it with " + std::string(1, quote));
      const char c = s_[i_];
      if (c == quote) {
        ++i_;
        break;
      }
      if (c == '\\' && i_ + 1 < end_) {
        const char e = s_[i_ + 1];
        if (e == 'n') {
          value.push_back('\n');
        } else if (e == 't') {
          value.push_back('\t');
        } else if (e == '\\') {
          value.push_back('\\');
        } else if (e == quote) {
          value.push_back(quote);
        } else {
          value.push_back('\\');
          value.push_back(e);
        }
        i_ += 2;
        continue;
      }
      value.push_back(c);
      ++i_;
    }
    t.kind = Tok::String;
    t.text = std::move(value);
  }

  void lex_number(Token& t) {
    const size_t start = i_;
    if (s_[i_] == '0' && (peek(1) == 'x' || peek(1) == 'X')) return lex_hex(t, start);
    const bool is_float = scan_decimal();
    const std::string mantissa = s_.substr(start, i_ - start);
    if (lex_suffix(t, start, mantissa, is_float)) return;
    if (is_float) {
      auto res = std::from_chars(mantissa.data(), mantissa.data() + mantissa.size(), t.f);
      if (res.ec == std::errc::result_out_of_range) {
        fail(start, "float literal is out of the range of f64", i_ - start);
      }
      t.kind = Tok::Float;
      return;
    }
    auto res = std::from_chars(mantissa.data(), mantissa.data() + mantissa.size(), t.u);
    if (res.ec != std::errc()) {
      fail(start, "integer literal does not fit in u64", i_ - start,
           "the largest is 18446744073709551615");
    }
    t.kind = Tok::Int;
  }

  void lex_hex(Token& t, size_t start) {
    i_ += 2;
    const size_t digits = i_;
    while (i_ < end_ && std::isxdigit((unsigned char)s_[i_])) ++i_;
    if (i_ == digits) fail(start, "hex literal needs digits after 0x", 2);
    auto res = std::from_chars(s_.data() + digits, s_.data() + i_, t.u, 16);
    if (res.ec != std::errc()) {
      fail(start, "hex literal does not fit in u64", i_ - start,
           "the largest is 0xffffffffffffffff");
    }
    t.kind = Tok::Int;
  }

  // Digits, a fraction and an exponent; true when either of the last two was there.
  bool scan_decimal() {
    bool is_float = false;
    while (i_ < end_ && std::isdigit((unsigned char)s_[i_])) ++i_;
    if (peek() == '.' && std::isdigit((unsigned char)peek(1))) {
      is_float = true;
      ++i_;
      while (i_ < end_ && std::isdigit((unsigned char)s_[i_])) ++i_;
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (std::isdigit((unsigned char)peek(1)) ||
         ((peek(1) == '+' || peek(1) == '-') && std::isdigit((unsigned char)peek(2))))) {
      is_float = true;
      i_ += 2;
      while (i_ < end_ && std::isdigit((unsigned char)s_[i_])) ++i_;
    }
    return is_float;
  }

  // An SI suffix after the mantissa, only when no identifier character
  // follows it: the literal scaled, an integer when the scaled value is one.
  // False when there is none.
  bool lex_suffix(Token& t, size_t start, const std::string& mantissa, bool is_float) {
    struct Suffix {
      const char* text;
      int decimal_exp;  // 10^k, or 0 when binary
      int binary_exp;   // 2^k
    };
    static const Suffix suffixes[] = {{"Ki", 0, 10}, {"Mi", 0, 20}, {"Gi", 0, 30}, {"Ti", 0, 40},
                                      {"Pi", 0, 50}, {"K", 3, 0},   {"M", 6, 0},   {"G", 9, 0},
                                      {"T", 12, 0},  {"P", 15, 0},  {"m", -3, 0},  {"u", -6, 0},
                                      {"n", -9, 0}};
    for (const Suffix& sfx : suffixes) {
      const size_t n = std::char_traits<char>::length(sfx.text);
      if (i_ + n > end_ || s_.compare(i_, n, sfx.text) != 0 ||
          (i_ + n < end_ && ident_char(s_[i_ + n]))) {
        continue;
      }
      i_ += n;
      const double value =
          sfx.binary_exp != 0
              ? std::strtod(mantissa.c_str(), nullptr) * (double)(1ULL << sfx.binary_exp)
              : std::strtod((mantissa + "e" + std::to_string(sfx.decimal_exp)).c_str(), nullptr);
      const bool scaled_up = sfx.decimal_exp > 0 || sfx.binary_exp > 0;
      if (value < 18446744073709551616.0 && value == (double)(uint64_t)value) {
        t.u = is_float || !scaled_up
                  ? (uint64_t)value
                  : scaled_integer(start, mantissa, sfx.decimal_exp, sfx.binary_exp);
        t.kind = Tok::Int;
      } else {
        if (!is_float && scaled_up) fail(start, "literal does not fit in u64", i_ - start);
        t.f = value;
        t.kind = Tok::Float;
      }
      return true;
    }
    return false;
  }

  // An integer mantissa times 10^decimal_exp or 2^binary_exp, exactly
  // (through a double it could round).
  uint64_t scaled_integer(size_t start, const std::string& mantissa, int decimal_exp,
                          int binary_exp) {
    uint64_t m = 0;
    std::from_chars(mantissa.data(), mantissa.data() + mantissa.size(), m);
    if (binary_exp != 0) {
      if (m > (~0ULL >> binary_exp)) fail(start, "literal does not fit in u64", i_ - start);
      return m << binary_exp;
    }
    __extension__ unsigned __int128 v = m;
    for (int k = 0; k < decimal_exp; ++k) v *= 10;
    if (v > ~0ULL) fail(start, "literal does not fit in u64", i_ - start);
    return (uint64_t)v;
  }

  const SourceText& src_;
  const std::string& s_;
  size_t begin_;
  size_t i_;
  size_t end_;
  size_t tile_body_at_ = std::string::npos;
};

}  // namespace

std::string heredoc_text(std::string_view inside) {
  if (inside.starts_with("\r\n")) {
    inside.remove_prefix(2);
  } else if (inside.starts_with("\n")) {
    inside.remove_prefix(1);
  }
  if (inside.ends_with("\r\n")) {
    inside.remove_suffix(2);
  } else if (inside.ends_with("\n")) {
    inside.remove_suffix(1);
  }
  return std::string(inside);
}

std::vector<Token> tokenize(const SourceText& source, size_t begin, size_t end) {
  return Lexer(source, begin, end).run();
}

std::optional<uint64_t> integer_literal(std::string_view text) {
  // One token and nothing else: no space, comment or sign around it.
  const auto literal_char = [](char c) { return ident_char(c) || c == '.'; };
  if (text.empty() || !std::isdigit((unsigned char)text[0]) ||
      !std::all_of(text.begin(), text.end(), literal_char)) {
    return std::nullopt;
  }
  const SourceText source("<literal>", std::string(text));
  try {
    const std::vector<Token> tokens = tokenize(source, 0, source.text().size());
    if (tokens.size() == 2 && tokens[0].kind == Tok::Int && tokens[1].kind == Tok::End) {
      return tokens[0].u;
    }
  } catch (const CompileError&) {
  }
  return std::nullopt;
}

}  // namespace polyrt::syntax

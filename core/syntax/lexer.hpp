// Tokens of the DSL. The language is newline-insensitive, but each token
// records whether a line break precedes it (a call's '(' must be on the line
// of its callee, which keeps `a := b` + `(c, d) := f(x)` two statements).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/source.hpp"
#include "value/name_chars.hpp"

namespace polyrt::syntax {

enum class Tok : uint8_t {
  End,
  Ident,
  Int,
  Float,
  String,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  StarStar,
  Amp,
  Pipe,
  Caret,
  Shl,
  Shr,
  AndAnd,
  OrOr,
  Bang,
  EqEq,
  NotEq,
  Lt,
  Gt,
  Le,
  Ge,
  ColonEq,
  Eq,
  Colon,
  Arrow,
  Dot,
  Comma,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  // The raw text after the keyword `for` (a comprehension, trimmed): up to
  // the end of its line at bracket depth 0 or a `{` at depth 0 that opens a
  // traversal's body (a `{name}` reference does not), whichever comes first;
  // strings are skipped whole and a trailing comment is left out.
  Comprehension,
  // A tile's template body, raw as written (expand/tiles.hpp): a block
  // (`{ ... }` or `[ ... ]`, balanced, JSON strings skipped), a heredoc
  // (`<<< ... >>>`) or a string literal, after a `tile NAME ... :=` header.
  TileBody,
};

const char* token_name(Tok kind);

struct Token {
  Tok kind = Tok::End;
  std::string text;  // identifier, decoded string content, or the raw token text
  uint64_t u = 0;    // Int value
  double f = 0;      // Float value
  SourcePos pos;
  size_t offset = 0;
  size_t length = 0;
  bool newline_before = false;
};

// The characters of a name (value/name_chars.hpp), which the lexer and the
// rules that read names in raw text (producers, tiles) share.
using polyrt::ident_char;
using polyrt::ident_start;

// The text of a heredoc `<<<inside>>>`: exactly as written, minus one line
// break at each end.
std::string heredoc_text(std::string_view inside);

// Tokenizes `source` (or the byte range [begin, end) of it, used for the
// expressions inside string interpolation). Throws CompileError.
std::vector<Token> tokenize(const SourceText& source, size_t begin, size_t end);

// `text` read as one integer literal of the language (digits, `_`
// separators, 0x/0b/0o, an SI suffix: 10M, 1Gi), so a command-line count
// reads as the program would; nullopt when it is anything else or does not
// fit in u64.
std::optional<uint64_t> integer_literal(std::string_view text);

}  // namespace polyrt::syntax

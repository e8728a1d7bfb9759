// Source text with line lookup, and the one formatter of compile diagnostics.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/error.hpp"

namespace polyrt::syntax {

struct SourcePos {
  int line = 0;         // 1-based; 0 = no position (compiler-made)
  int col = 0;          // 1-based, in bytes
  uint32_t origin = 0;  // which text: 0 is the program, others inlined modules (syntax::Sources)
};

// The largest program source polyrt reads (a file or a string).
inline constexpr size_t kMaxSourceBytes = size_t{64} << 20;  // 64 MiB

// How much of a long source line a diagnostic quotes, around the column.
inline constexpr size_t kQuoteWindow = 200;

class SourceText {
 public:
  SourceText(std::string file, std::string text);
  const std::string& file() const { return file_; }
  const std::string& text() const { return text_; }
  SourcePos position_of(size_t offset) const;
  std::string_view line(int line) const;
  // "file:line:col: SEVERITY: message" (error, or warning), the line quoted (at most kQuoteWindow
  // bytes around the column; control bytes shown as spaces, or as \xNN in
  // the message), a caret under the column (underlining `length` bytes),
  // and a hint line when given.
  std::string format(SourcePos pos, std::string_view message, size_t length = 1,
                     std::string_view hint = {}, std::string_view severity = "error") const;
  // Throws CompileError with the formatted diagnostic.
  [[noreturn]] void fail(SourcePos pos, std::string_view message, size_t length = 1,
                         std::string_view hint = {}) const;

 private:
  std::string file_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

// The most errors one compile reports (syntax errors, or bindings' errors);
// past it the report says it shows the first ones.
inline constexpr size_t kMostReportedErrors = 20;

// Several errors of one program as one CompileError: each one's text in
// source order, then their count ("3 errors", "20 errors (the first 20)"
// when the reporter stopped at kMostReportedErrors), placed at the first.
// One error is returned as it is.
CompileError combined_errors(std::vector<CompileError> errors);

// User text in a diagnostic never reaches the terminal raw: control bytes
// are spelled \xNN.
std::string printable(std::string_view text);

// The Levenshtein distance of two names.
size_t edit_distance(std::string_view a, std::string_view b);

// The closest candidate by edit distance, or "" when none is close enough.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

// The candidate `name` is most likely a misspelling of (one edit for a name
// of up to 4 characters, two for a longer one, never the whole name), or "".
// Stricter than closest_name: it decides whether an unknown name is an error
// or an inferred input.
std::string typo_of(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace polyrt::syntax

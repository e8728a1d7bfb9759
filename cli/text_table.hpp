// A table of values as a terminal shows it (polyrt preview): columns
// aligned by display width (a wide East Asian character or an emoji takes
// two columns, a combining mark none), a header of names and types, None
// shown distinctly, text cut with an ellipsis to fit a width, and the
// middle columns elided when even cut columns do not fit.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyrt::cli {

struct TextTable {
  std::vector<std::string> names, types;
  // One cell per column; nullopt is None.
  std::vector<std::vector<std::optional<std::string>>> rows;
};

struct TableStyle {
  // Box-drawing borders and "∅" for None (a terminal), or ASCII borders
  // and "null" (a file or pipe).
  bool unicode = true;
  // The widest line; nullopt: no limit.
  std::optional<size_t> width;
};

std::string render_table(const TextTable& table, const TableStyle& style);

// How many terminal columns `utf8` takes once made printable (see
// printable_cell); invalid bytes count as one replacement character.
size_t display_width(std::string_view utf8);

// `text` (printable) cut on a character boundary to at most `width`
// columns, `ellipsis` ending a cut text.
std::string fit(std::string_view text, size_t width, std::string_view ellipsis);

// A cell's text as one printable line: control characters escaped (\n,
// \t, \r, \xHH; C1 controls as \u0080..\u009f), each invalid UTF-8 byte
// replaced by U+FFFD.
std::string printable_cell(std::string_view text);

}  // namespace polyrt::cli

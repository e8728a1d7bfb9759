#include "cli/text_table.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace polyrt::cli {

namespace {

constexpr size_t kMaxColumnWidth = 40;  // a long text column is cut here even when the line fits
constexpr size_t kMinColumnWidth = 8;   // a text column cut no narrower; a number is never cut

// One UTF-8 code point at `text[i]`: its value and length; nullopt for an
// invalid sequence (one byte consumed).
std::optional<std::pair<char32_t, size_t>> decode(std::string_view text, size_t i) {
  const auto b = (unsigned char)text[i];
  if (b < 0x80) return std::pair(char32_t(b), size_t{1});
  // Lead bytes 0xF5..0xFF and 0xC0, 0xC1 start no sequence.
  const size_t n = b >= 0xF5 ? 0 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return std::nullopt;
  char32_t c = b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto next = (unsigned char)text[i + k];
    if ((next & 0xC0) != 0x80) return std::nullopt;
    c = (c << 6) | (next & 0x3F);
  }
  const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < least[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return std::nullopt;
  return std::pair(c, n);
}

// Terminal columns of a printable code point: 0 for combining marks and
// zero-width characters, 2 for East Asian wide and fullwidth ones and
// emoji, 1 otherwise (the ranges of Unicode's East Asian Width W and F).
size_t columns_of(char32_t c) {
  static const std::pair<char32_t, char32_t> kZero[] = {
      {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F},
      {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
      {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF}};
  static const std::pair<char32_t, char32_t> kWide[] = {
      {0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},  {0x3400, 0x4DBF},
      {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},  {0xF900, 0xFAFF},
      {0xFE30, 0xFE4F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},  {0x1F300, 0x1F64F},
      {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};
  const auto in = [c](const auto& ranges) {
    return std::any_of(std::begin(ranges), std::end(ranges),
                       [c](const auto& r) { return c >= r.first && c <= r.second; });
  };
  if (in(kZero)) return 0;
  return in(kWide) ? 2 : 1;
}

std::string padded(const std::string& text, size_t width, bool right) {
  const size_t pad = width - std::min(width, display_width(text));
  return right ? std::string(pad, ' ') + text : text + std::string(pad, ' ');
}

// Numbers align right, as the tools people compare with do.
bool is_numeric_type(const std::string& type) {
  return type != "str" && type != "bytes" && type != "json" && type != "bool" &&
         type != "partition" && type != "partition_list";
}

}  // namespace

std::string printable_cell(std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const auto decoded = decode(text, i);
    if (!decoded) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    const auto [c, n] = *decoded;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    } else if (c >= 0x80 && c <= 0x9F) {
      // C1 controls: U+009B is a terminal's CSI, as ESC [ is.
      out += std::string("\\u00") + kHex[c >> 4] + kHex[c & 15];
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string fit(std::string_view text, size_t width, std::string_view ellipsis) {
  if (display_width(text) <= width) return std::string(text);
  std::string out;
  size_t used = 0;
  for (size_t i = 0; i < text.size();) {
    const auto [c, n] = decode(text, i).value_or(std::pair(char32_t(0xFFFD), size_t{1}));
    const size_t w = columns_of(c);
    if (used + w + display_width(ellipsis) > width) break;
    out.append(text.substr(i, n));
    used += w;
    i += n;
  }
  return out + std::string(ellipsis);
}

size_t display_width(std::string_view utf8) {
  size_t width = 0;
  for (size_t i = 0; i < utf8.size();) {
    const auto decoded = decode(utf8, i);
    width += decoded ? columns_of(decoded->first) : 1;
    i += decoded ? decoded->second : 1;
  }
  return width;
}

namespace {

// Fits the line into `width`: cuts the widest column a character at a time
// down to its narrowest (its header, all of a number, a few characters of
// text), then leaves out middle columns from `shown`. Returns whether any
// was left out.
bool fit_line(const TextTable& table, size_t width, const std::string& ellipsis,
              std::vector<size_t>& widths, std::vector<size_t>& shown) {
  bool elided = false;
  const auto line_width = [&] {
    size_t w = 1;
    for (size_t c : shown) w += widths[c] + 3;
    return w + (elided ? display_width(ellipsis) + 3 : 0);
  };
  std::vector<size_t> narrowest(widths.size());
  for (size_t c = 0; c < widths.size(); ++c) {
    narrowest[c] = is_numeric_type(table.types[c])
                       ? widths[c]
                       : std::min(widths[c], std::max(kMinColumnWidth,
                                                      std::max(display_width(table.names[c]),
                                                               display_width(table.types[c]))));
  }
  while (line_width() > width) {
    const auto widest = std::max_element(shown.begin(), shown.end(), [&](size_t a, size_t b) {
      return widths[a] - narrowest[a] < widths[b] - narrowest[b];
    });
    if (widths[*widest] > narrowest[*widest]) {
      --widths[*widest];
      continue;
    }
    if (shown.size() <= 1) break;  // one column as narrow as it gets
    shown.erase(shown.begin() + (ptrdiff_t)(shown.size() / 2));
    elided = true;
  }
  return elided;
}

}  // namespace

std::string render_table(const TextTable& table, const TableStyle& style) {
  const size_t columns = table.names.size();
  const std::string none = style.unicode ? "∅" : "null";
  const std::string ellipsis = style.unicode ? "…" : "...";
  // Every cell as it prints, before fitting.
  std::vector<std::vector<std::string>> cells(table.rows.size());
  std::vector<size_t> widths(columns);
  for (size_t c = 0; c < columns; ++c) {
    widths[c] = std::max(display_width(table.names[c]), display_width(table.types[c]));
  }
  for (size_t r = 0; r < table.rows.size(); ++r) {
    for (size_t c = 0; c < columns; ++c) {
      const auto& cell = table.rows[r][c];
      cells[r].push_back(cell ? printable_cell(*cell) : none);
      widths[c] = std::max(widths[c], std::min(display_width(cells[r].back()), kMaxColumnWidth));
    }
  }
  std::vector<size_t> shown(columns);
  std::iota(shown.begin(), shown.end(), size_t{0});
  const bool elided = style.width && fit_line(table, *style.width, ellipsis, widths, shown);
  const size_t elided_at = shown.size() / 2 + (shown.size() % 2);
  const std::string v = style.unicode ? "│" : "|";
  const std::string h = style.unicode ? "─" : "-";
  const auto rule = [&](const char* left, const char* mid, const char* right) {
    std::string out = style.unicode ? left : "+";
    for (size_t k = 0; k < shown.size(); ++k) {
      if (elided && k == elided_at) {
        for (size_t i = 0; i < display_width(ellipsis) + 2; ++i) out += h;
        out += style.unicode ? mid : "+";
      }
      for (size_t i = 0; i < widths[shown[k]] + 2; ++i) out += h;
      out += k + 1 < shown.size() ? (style.unicode ? mid : "+") : (style.unicode ? right : "+");
    }
    return out + "\n";
  };
  const auto line = [&](const std::vector<std::string>& texts, bool header) {
    std::string out = v;
    for (size_t k = 0; k < shown.size(); ++k) {
      if (elided && k == elided_at) out += " " + ellipsis + " " + v;
      const size_t c = shown[k];
      const bool right = !header && is_numeric_type(table.types[c]);
      out += " " + padded(fit(texts[c], widths[c], ellipsis), widths[c], right) + " " + v;
    }
    return out + "\n";
  };
  std::string out = rule("┌", "┬", "┐");
  out += line(table.names, true);
  out += line(table.types, true);
  out += rule("├", "┼", "┤");
  for (const std::vector<std::string>& row : cells) out += line(row, false);
  out += rule("└", "┴", "┘");
  return out;
}

}  // namespace polyrt::cli

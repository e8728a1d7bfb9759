// The lines of a text as Rust's str::lines gives them, which polydat's
// line-reading nodes use: LF or CR LF ends, no empty line after the last
// end.
#pragma once

#include <cstddef>
#include <string_view>

namespace polyrt::nodes {

// Calls `line(number, text)` for each line of `content`, numbers from 1.
template <typename Line>
void for_each_line(std::string_view content, const Line& line) {
  size_t number = 0;
  for (size_t start = 0; start < content.size();) {
    size_t end = content.find('\n', start);
    const size_t next = end == std::string_view::npos ? content.size() : end + 1;
    if (end == std::string_view::npos) end = content.size();
    if (end > start && content[end - 1] == '\r') --end;
    line(++number, content.substr(start, end - start));
    start = next;
  }
}

}  // namespace polyrt::nodes

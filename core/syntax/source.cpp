#include "syntax/source.hpp"

#include <algorithm>

#include "polyrt/error.hpp"

namespace polyrt::syntax {

SourceText::SourceText(std::string file, std::string text)
    : file_(std::move(file)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

SourcePos SourceText::position_of(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const size_t line = (size_t)(it - line_starts_.begin());
  return SourcePos{(int)line, (int)(offset - line_starts_[line - 1]) + 1};
}

std::string_view SourceText::line(int line) const {
  if (line < 1 || (size_t)line > line_starts_.size()) return {};
  const size_t start = line_starts_[line - 1];
  size_t end = text_.find('\n', start);
  if (end == std::string::npos) end = text_.size();
  if (end > start && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(start, end - start);
}

CompileError combined_errors(std::vector<CompileError> errors) {
  if (errors.size() == 1) return errors[0];
  std::stable_sort(errors.begin(), errors.end(), [](const CompileError& a, const CompileError& b) {
    return std::pair(a.line(), a.column()) < std::pair(b.line(), b.column());
  });
  std::string all;
  for (const CompileError& e : errors) all += std::string(e.what()) + "\n";
  all += std::to_string(errors.size()) + " errors" +
         (errors.size() >= kMostReportedErrors
              ? " (the first " + std::to_string(kMostReportedErrors) + ")"
              : "");
  return CompileError(all, errors[0].file(), errors[0].line(), errors[0].column());
}

std::string printable(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    } else {
      out.push_back((char)c);
    }
  }
  return out;
}

std::string SourceText::format(SourcePos pos, std::string_view message, size_t length,
                               std::string_view hint, std::string_view severity) const {
  std::string out = printable(file_) + ":" + std::to_string(pos.line) + ":" +
                    std::to_string(pos.col) + ": " + std::string(severity) + ": " +
                    printable(message);
  std::string_view text = line(pos.line);
  if (pos.line > 0) {
    // At most kQuoteWindow bytes around the column of a long line.
    size_t col = (size_t)std::max(pos.col - 1, 0);
    std::string lead, tail;
    if (text.size() > kQuoteWindow) {
      const size_t start = col > kQuoteWindow / 2 ? col - kQuoteWindow / 2 : 0;
      if (start > 0) lead = "...";
      if (start + kQuoteWindow < text.size()) tail = "...";
      text = text.substr(start, kQuoteWindow);
      col = col - start + lead.size();
    }
    std::string quoted = lead;
    for (char c : text) {
      const auto u = (unsigned char)c;
      quoted.push_back(c == '\t' || u < 0x20 || u == 0x7f ? ' ' : c);  // one column each
    }
    quoted += tail;
    out += "\n  " + quoted + "\n  ";
    out += std::string(col, ' ');
    const size_t room = quoted.size() > col + tail.size() ? quoted.size() - tail.size() - col : 1;
    out += "^" + std::string(std::min(std::max<size_t>(length, 1), room) - 1, '~');
  }
  if (!hint.empty()) out += "\n  " + printable(hint);
  return out;
}

void SourceText::fail(SourcePos pos, std::string_view message, size_t length,
                      std::string_view hint) const {
  throw CompileError(format(pos, message, length, hint), file_, pos.line, pos.col);
}

// Insertions, deletions, substitutions and swaps of two neighbours each
// count one (the optimal string alignment distance): `sede` is one edit
// from `seed`, as a reader sees it.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    before.swap(last);
    last.swap(row);
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      row[j] =
          std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        row[j] = std::min(row[j], before[j - 2] + 1);
      }
    }
  }
  return row[b.size()];
}

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(name, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string typo_of(std::string_view name, const std::vector<std::string>& candidates) {
  const size_t allowed = name.size() <= 4 ? 1 : 2;
  std::string best;
  size_t best_d = allowed + 1;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(name, c);
    if (d < best_d && d < name.size() && d < c.size()) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

}  // namespace polyrt::syntax

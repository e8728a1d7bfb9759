// The numbers of a stats report as people read them (the terminal report,
// the HTML page): six significant digits, a column's integers exactly.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "polyrt/numeric_types.hpp"
#include "polyrt/stats.hpp"

namespace polyrt {

// Six significant digits, written out in full between 1e-4 and 1e15 (a
// mean of 1e+06 beside a spread of 577350 reads as two notations), with an
// exponent only beyond.
std::string stats_number_text(double v) {
  char buf[48];
  const double magnitude = std::fabs(v);
  if (!std::isfinite(v) || magnitude == 0 || magnitude < 1e-4 || magnitude >= 1e15) {
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
  }
  const int decimals = std::max(0, 5 - (int)std::floor(std::log10(magnitude)));
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string out = buf;
  if (out.find('.') != std::string::npos) {
    out.erase(out.find_last_not_of('0') + 1);
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

std::string stats_grouped_text(const std::string& text) {
  const size_t first = text.size() && text[0] == '-' ? 1 : 0;
  size_t end = first;
  while (end < text.size() && std::isdigit((unsigned char)text[end])) ++end;
  if (end == first || text.find_first_of("eE:-T", end) != std::string::npos) return text;
  std::string out = text.substr(0, first);
  for (size_t i = first; i < end; ++i) {
    if (i > first && (end - i) % 3 == 0) out += ',';
    out += text[i];
  }
  return out + text.substr(end);
}

std::string stats_count_text(uint64_t v) {
  return stats_grouped_text(std::to_string(v));
}

std::string stats_share_text(double share) {
  if (share > 0 && share < 0.00005) return "<0.01%";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", 100 * share);
  return buf;
}

std::string stats_value_text(const Value& v, LogicalType logical) {
  if (v.is_none()) return "-";
  if (!logical.is_none()) return logical_text(logical, word_of(v));
  if (is_float(v.type())) return stats_number_text(v.as_f64());
  return v.to_string();
}

std::string stats_type_text(const ColumnStats& s) {
  return s.logical.is_none() ? std::string(type_name(s.type)) : logical_type_name(s.logical);
}

namespace {

// 10^scale: a decimal's words are its value times it.
double decimal_unit(LogicalType logical) {
  return std::pow(10.0, logical.scale);
}

}  // namespace

std::string stats_mean_text(const ColumnStats& s, double mean) {
  switch (s.logical.kind) {
    case LogicalKind::None:
      return stats_number_text(mean);
    case LogicalKind::Decimal:
      return stats_number_text(mean / decimal_unit(s.logical));
    default:  // the instant (or day) nearest the mean
      return logical_text(s.logical, (uint64_t)std::llround(mean));
  }
}

std::string stats_spread_text(const ColumnStats& s, double stddev) {
  switch (s.logical.kind) {
    case LogicalKind::None:
      return stats_number_text(stddev);
    case LogicalKind::Decimal:
      return stats_number_text(stddev / decimal_unit(s.logical));
    case LogicalKind::Timestamp:
      return stats_number_text(stddev / 86400000.0) + " days";
    case LogicalKind::TimestampMicros:
      return stats_number_text(stddev / 86400000000.0) + " days";
    case LogicalKind::Date:
      return stats_number_text(stddev) + " days";
  }
  return stats_number_text(stddev);
}

std::string stats_passes_text(const StatsReport& report) {
  const size_t n = report.passes.size();
  std::string out = std::to_string(n) + (n == 1 ? " pass" : " passes") + " over them (";
  for (size_t p = 0; p < n; ++p) {
    const StatsPass& pass = report.passes[p];
    out += (p ? "; " : "") + std::to_string(p + 1) + ": " + pass.purpose + " of ";
    if (pass.columns.size() == report.columns.size()) {
      out += "every column";
      continue;
    }
    for (size_t c = 0; c < pass.columns.size(); ++c) out += (c ? ", " : "") + pass.columns[c];
  }
  return out + ")";
}

std::string stats_top_bound_text(const TextStats& t) {
  if (t.top_share_bound == 0) return "";
  return std::string(t.top.empty() ? "no value" : "no other value") + " has a share above " +
         stats_share_text(t.top_share_bound);
}

}  // namespace polyrt

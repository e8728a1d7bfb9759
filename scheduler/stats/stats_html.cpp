#include <cmath>
#include <string>

#include "polyrt/numeric_types.hpp"
#include "polyrt/stats.hpp"
#include "rtlib/web_encoding.hpp"

namespace polyrt {

namespace {

std::string escaped(std::string_view text) {
  return rt::html_encode(text);
}

std::string number(double v) {
  return stats_number_text(v);
}

// The histogram as an inline SVG of vertical bars.
std::string histogram_svg(const std::vector<uint64_t>& bins) {
  uint64_t top = 1;
  for (uint64_t b : bins) top = std::max(top, b);
  const double width = 480, height = 100, bar = width / (double)std::max<size_t>(1, bins.size());
  std::string svg =
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" "
      "height=\"100\" viewBox=\"0 0 480 100\" role=\"img\">";
  for (size_t b = 0; b < bins.size(); ++b) {
    const double h = height * (double)bins[b] / (double)top;
    svg += "<rect x=\"" + number((double)b * bar) + "\" y=\"" + number(height - h) + "\" width=\"" +
           number(std::max(1.0, bar - 1)) + "\" height=\"" + number(h) +
           "\" fill=\"#4c78a8\"><title>" + std::to_string(bins[b]) + "</title></rect>";
  }
  return svg + "</svg>";
}

// Shares as an inline SVG of horizontal bars, each labelled.
std::string bars_svg(const std::vector<std::pair<std::string, double>>& shares) {
  const size_t rows = std::max<size_t>(1, shares.size());
  std::string svg =
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" "
      "height=\"" +
      std::to_string(rows * 22) + "\" role=\"img\">";
  for (size_t k = 0; k < shares.size(); ++k) {
    const double y = (double)k * 22;
    svg += "<rect x=\"200\" y=\"" + number(y + 3) + "\" width=\"" +
           number(std::max(1.0, 240 * shares[k].second)) +
           "\" height=\"16\" fill=\"#f58518\"></rect><text x=\"195\" y=\"" + number(y + 15) +
           "\" text-anchor=\"end\" font-size=\"12\">" + escaped(shares[k].first.substr(0, 30)) +
           "</text><text x=\"" + number(205 + 240 * shares[k].second) + "\" y=\"" + number(y + 15) +
           "\" font-size=\"12\">" + number(100 * shares[k].second) + "%</text>";
  }
  return svg + "</svg>";
}

std::string section(const ColumnStats& s) {
  std::string out = "<section class=\"column\" id=\"column-" + escaped(s.name) + "\"><h2>" +
                    escaped(s.name) + " <small>" + escaped(stats_type_text(s)) + "</small></h2>";
  out += "<p>" + std::to_string(s.rows) + " rows" +
         (s.nones ? ", " + std::to_string(s.nones) + " null (" +
                        stats_number_text(100.0 * (double)s.nones / (double)s.rows) + "%)"
                  : std::string()) +
         "</p>";
  if (s.numeric) {
    const NumericStats& n = *s.numeric;
    const auto shown = [&](const Value& v) { return escaped(stats_value_text(v, s.logical)); };
    out +=
        "<table><tr><th>finite</th><th>NaN</th><th>+inf</th><th>-inf</th><th>min</th>"
        "<th>max</th><th>mean</th><th>stddev</th></tr><tr><td>" +
        std::to_string(n.finite) + "</td><td>" + std::to_string(n.nan) + "</td><td>" +
        std::to_string(n.positive_infinity) + "</td><td>" + std::to_string(n.negative_infinity) +
        "</td><td>" + shown(n.min) + "</td><td>" + shown(n.max) + "</td><td>" +
        escaped(stats_mean_text(s, n.mean)) + "</td><td>" +
        escaped(stats_spread_text(s, n.stddev)) + "</td></tr></table><table><tr>";
    for (const auto& [p, v] : n.quantiles)
      out += "<th>p" + std::to_string((int)std::lround(p * 100)) + "</th>";
    out += "</tr><tr>";
    for (const auto& [p, v] : n.quantiles) out += "<td>" + shown(v) + "</td>";
    out += "</tr></table>" + histogram_svg(n.histogram) + "<p class=\"axis\">" + shown(n.min) +
           " .. " + shown(n.max) + "</p>";
  }
  if (s.text) {
    const TextStats& t = *s.text;
    out += "<p>distinct " + std::to_string(t.distinct) +
           (t.distinct_exact ? ""
                             : " (HyperLogLog estimate, standard error " +
                                   number(100 * t.distinct_standard_error) + "%)") +
           ", length " + std::to_string(t.min_length) + " .. " + std::to_string(t.max_length) +
           " (mean " + number(t.mean_length) + ")</p>";
    std::vector<std::pair<std::string, double>> shares;
    for (const auto& [value, count] : t.top) {
      shares.emplace_back(value, s.rows ? (double)count / (double)s.rows : 0.0);
    }
    out += bars_svg(shares);
    if (t.top_share_bound) out += "<p class=\"axis\">" + escaped(stats_top_bound_text(t)) + "</p>";
  }
  if (s.trues) {
    const double share = s.rows ? (double)*s.trues / (double)s.rows : 0.0;
    out += bars_svg({{"true", share}, {"false", 1 - share}});
  }
  return out + "</section>";
}

}  // namespace

std::string stats_html(const StatsReport& report, std::string_view title,
                       std::string_view program_text) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>polyrt stats: " +
      escaped(title) +
      "</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;"
      "margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
      "section{margin-bottom:2em}pre{background:#f6f6f6;padding:1em;overflow:auto}"
      ".axis{color:#666;font-size:small;margin:0}</style></head><body><h1>polyrt stats: " +
      escaped(title) + "</h1><p>" + std::to_string(report.count) + " rows from " +
      std::to_string(report.first) + " on " + escaped(report.device) + ", " +
      escaped(stats_passes_text(report)) + "</p>";
  for (const ColumnStats& c : report.columns) out += section(c);
  return out + "<h2>Program</h2><pre>" + escaped(program_text) + "</pre></body></html>\n";
}

}  // namespace polyrt

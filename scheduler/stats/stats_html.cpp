// The stats report as one self-contained HTML page: an overview table, then
// a section per column (its numbers, a histogram with axes in a linear and a
// log view, or its top values as bars of their share), then the program.
// No network: the charts are inline SVG and the view switch a few lines of
// inline script (without it, both views show).
#include <algorithm>
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

// What a value's text shows: control characters as escapes, so a label
// never breaks its line.
std::string visible(std::string_view text) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto u = (unsigned char)c;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      out += std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

// The code points of `text` (well-formed or not: a stray byte is one).
std::vector<size_t> code_point_starts(std::string_view text) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size(); ++i) {
    if (((unsigned char)text[i] & 0xc0) != 0x80) starts.push_back(i);
  }
  return starts;
}

// At most `room` code points: the start and the end of a longer text with
// an ellipsis between, so that neither end is lost (emails, paths, ids).
std::string middle_ellipsis(const std::string& text, size_t room) {
  const std::vector<size_t> starts = code_point_starts(text);
  if (starts.size() <= room) return text;
  const size_t head = (room - 1) * 3 / 5, tail = room - 1 - head;
  return text.substr(0, starts[head]) + "…" + text.substr(starts[starts.size() - tail]);
}

// A label: cut in the middle to fit, its whole text (up to 2,000 code
// points) on hover.
std::string label_html(const std::string& value, size_t room) {
  const std::string shown = visible(value);
  std::string full = middle_ellipsis(shown, 2000);
  if (full.size() < shown.size()) full += " (" + stats_count_text(value.size()) + " bytes)";
  return "<span class=\"label\" title=\"" + escaped(full) + "\">" +
         escaped(middle_ellipsis(shown, room)) + "</span>";
}

std::string number(double v) {
  return stats_number_text(v);
}

// A value of the column as the report shows it: in its logical type's
// terms, numbers grouped.
std::string value_text(const ColumnStats& s, const Value& v) {
  const std::string text = stats_value_text(v, s.logical);
  return s.logical.kind == LogicalKind::None || s.logical.kind == LogicalKind::Decimal
             ? stats_grouped_text(text)
             : text;
}

// A tick's value in the column's terms: a time as a date (or an instant
// when the range is under two days), a decimal in its units, an integer
// exactly.
std::string tick_text(const ColumnStats& s, double v, double range) {
  const LogicalType logical = s.logical;
  if (logical.kind == LogicalKind::Timestamp || logical.kind == LogicalKind::TimestampMicros) {
    const double day = logical.kind == LogicalKind::Timestamp ? 86400e3 : 86400e6;
    const std::string text = logical_text(logical, (uint64_t)std::llround(v));
    return range >= 2 * day ? text.substr(0, 10) : text;
  }
  if (!logical.is_none())
    return stats_grouped_text(logical_text(logical, (uint64_t)std::llround(v)));
  if (!is_float(s.type) && std::fabs(v) < 9007199254740992.0) {
    return stats_grouped_text(std::to_string((long long)std::llround(v)));
  }
  return stats_grouped_text(number(v));
}

// Round steps for an axis up to `top`: 1, 2 or 5 times a power of ten.
double nice_step(double top, int ticks) {
  const double rough = std::max(top / ticks, 1.0);
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= rough) return m * power;
  }
  return 10 * power;
}

std::string count_tick(double v) {
  return v >= 1e15 ? number(v) : stats_count_text((uint64_t)std::llround(v));
}

// A histogram plot's frame: its size, the count axis (linear: 0 .. a round
// multiple of the step; log: 1 .. the next power of ten) and where a count
// sits on it.
struct HistogramFrame {
  static constexpr double kWidth = 960, kHeight = 280, kLeft = 80, kRight = 24, kTop = 12,
                          kBottom = 44;
  static constexpr double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  bool log_scale;
  std::vector<double> ticks;
  double axis_top = 1;

  HistogramFrame(const NumericStats& n, bool log) : log_scale(log) {
    uint64_t top = 1;
    for (uint64_t b : n.histogram) top = std::max(top, b);
    if (log_scale) {
      const int decades = std::max(1, (int)std::ceil(std::log10((double)top) - 1e-12));
      axis_top = std::pow(10.0, decades);
      for (int d = 0; d <= decades; ++d) ticks.push_back(std::pow(10.0, d));
    } else {
      const double step = nice_step((double)top, 4);
      axis_top = std::ceil((double)top / step) * step;
      for (double t = 0; t <= axis_top * (1 + 1e-12); t += step) ticks.push_back(t);
    }
  }
  double y_of(double count) const {
    if (!log_scale) return kTop + plot_h * (1 - count / axis_top);
    const double level = count <= 1 ? 0 : std::log10(count) / std::log10(axis_top);
    return kTop + plot_h * (1 - level);
  }
};

// The count axis's gridlines and labels.
std::string count_gridlines(const HistogramFrame& f) {
  using F = HistogramFrame;
  std::string svg;
  for (const double t : f.ticks) {
    const std::string y = number(f.y_of(t));
    svg += "<line class=\"grid\" x1=\"" + number(F::kLeft) + "\" x2=\"" +
           number(F::kWidth - F::kRight) + "\" y1=\"" + y + "\" y2=\"" + y +
           "\"/><text class=\"tick\" x=\"" + number(F::kLeft - 6) + "\" y=\"" + y +
           "\" dy=\"4\" text-anchor=\"end\">" + count_tick(t) + "</text>";
  }
  return svg;
}

// One bar per bin, `bar` wide, with its range and count on hover.
std::string histogram_bars(const ColumnStats& s, const NumericStats& n, const HistogramFrame& f,
                           double bar, double range) {
  using F = HistogramFrame;
  std::string svg;
  for (size_t b = 0; b < n.histogram.size(); ++b) {
    const uint64_t count = n.histogram[b];
    double y = f.y_of((double)count);
    if (count && y > F::kTop + F::plot_h - 2)
      y = F::kTop + F::plot_h - 2;  // a nonempty bin always shows
    // An integer bin holds edges[b] .. edges[b + 1] - 1.
    const std::string lo = tick_text(s, n.histogram_edges[b], range);
    const std::string hi =
        tick_text(s, n.histogram_edges[b + 1] - (is_float(s.type) ? 0 : 1), range);
    svg += "<rect class=\"bar\" x=\"" + number(F::kLeft + (double)b * bar + 0.5) + "\" y=\"" +
           number(y) + "\" width=\"" + number(std::max(1.0, bar - 1)) + "\" height=\"" +
           number(F::kTop + F::plot_h - y) + "\"><title>" + escaped(lo) + " .. " + escaped(hi) +
           ": " + stats_count_text(count) + " rows</title></rect>";
  }
  return svg;
}

// Five or six edges along the bottom, the first and the last always (an
// integer column's last one is its max, the last bin's last value); one
// value only when all are equal.
std::string edge_ticks(const ColumnStats& s, const NumericStats& n, size_t bins, double bar,
                       double range) {
  using F = HistogramFrame;
  const bool one_value = range == 0;
  const bool wide = tick_text(s, n.histogram_edges.front(), range).size() > 12;  // an instant
  const size_t step = std::max<size_t>(1, (bins + (wide ? 2 : 4)) / (wide ? 3 : 5));
  std::vector<size_t> edges;
  for (size_t e = 0; e < bins && !(one_value && e); e += step) {
    if (e == 0 || 4 * (bins - e) >= 3 * step) edges.push_back(e);
  }
  if (!one_value) edges.push_back(bins);
  std::string svg;
  for (const size_t e : edges) {
    const double x = one_value ? F::kLeft + bar / 2 : F::kLeft + (double)e * bar;
    const char* anchor = one_value || (e > 0 && e < bins) ? "middle" : e == 0 ? "start" : "end";
    const double at =
        e == bins && !is_float(s.type) ? n.histogram_edges[e] - 1 : n.histogram_edges[e];
    svg += "<line class=\"axis\" x1=\"" + number(x) + "\" x2=\"" + number(x) + "\" y1=\"" +
           number(F::kTop + F::plot_h) + "\" y2=\"" + number(F::kTop + F::plot_h + 5) +
           "\"/><text class=\"tick\" x=\"" + number(x) + "\" y=\"" +
           number(F::kTop + F::plot_h + 20) + "\" text-anchor=\"" + anchor + "\">" +
           escaped(tick_text(s, at, range)) + "</text>";
  }
  return svg;
}

// The histogram as an SVG with axes: counts up the left (linear, or powers
// of ten for the log view) with gridlines, bin edges along the bottom,
// each bar's range and count on hover.
std::string histogram_svg(const ColumnStats& s, const NumericStats& n, bool log_scale) {
  using F = HistogramFrame;
  const HistogramFrame frame(n, log_scale);
  std::string svg = "<svg class=\"chart\" data-scale=\"" +
                    std::string(log_scale ? "log" : "linear") +
                    "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + number(F::kWidth) +
                    " " + number(F::kHeight) + "\" role=\"img\" aria-label=\"histogram of " +
                    escaped(s.name) + (log_scale ? ", counts on a log scale" : "") + "\">";
  svg += count_gridlines(frame);
  const size_t bins = std::max<size_t>(1, n.histogram.size());
  const double bar = F::plot_w / (double)bins;
  const double range =
      n.histogram_edges.empty() ? 0 : n.histogram_edges.back() - n.histogram_edges.front();
  svg += histogram_bars(s, n, frame, bar, range);
  svg += "<line class=\"axis\" x1=\"" + number(F::kLeft) + "\" x2=\"" +
         number(F::kWidth - F::kRight) + "\" y1=\"" + number(F::kTop + F::plot_h) + "\" y2=\"" +
         number(F::kTop + F::plot_h) + "\"/>";
  svg += edge_ticks(s, n, bins, bar, range);
  svg += "<text class=\"axis-title\" x=\"" + number(F::kLeft + F::plot_w / 2) + "\" y=\"" +
         number(F::kHeight - 4) + "\" text-anchor=\"middle\">" + escaped(s.name) +
         "</text><text class=\"axis-title\" transform=\"rotate(-90)\" x=\"" +
         number(-(F::kTop + F::plot_h / 2)) + "\" y=\"14\" text-anchor=\"middle\">rows" +
         (log_scale ? " (log scale)" : "") + "</text>";
  return svg + "</svg>";
}

// Far more room on one side of the median than the other (a log-normal
// amount, a Zipf rank, a latency): its tail shows only in the log view.
double as_double(const Value& v) {
  if (is_float(v.type())) return v.as_f64();
  return is_signed_integer(v.type()) ? (double)v.as_i64() : (double)v.as_u64();
}

bool skewed(const NumericStats& n) {
  if (n.quantiles.size() != std::size(kStatsQuantiles)) return false;
  const double p1 = as_double(n.quantiles.front().second);
  const double p50 = as_double(n.quantiles[3].second);
  const double p99 = as_double(n.quantiles.back().second);
  const double below = p50 - p1, above = p99 - p50;
  return above > 3 * below || below > 3 * above;
}

// Both views of the histogram, the skewed column's log view first shown.
std::string histogram_views(const ColumnStats& s, const NumericStats& n) {
  const bool log_first = skewed(n);
  const auto button = [&](const char* scale, bool pressed) {
    return std::string("<button type=\"button\" data-scale=\"") + scale + "\" aria-pressed=\"" +
           (pressed ? "true" : "false") + "\">" + scale + "</button>";
  };
  std::string out = "<div class=\"views\" data-shown=\"" +
                    std::string(log_first ? "log" : "linear") +
                    "\"><div class=\"switch\">counts: " + button("linear", !log_first) +
                    button("log", log_first) + "</div>" + histogram_svg(s, n, false) +
                    histogram_svg(s, n, true) + "</div>";
  return out;
}

// Shares as rows of a table: the label (cut in the middle, whole on
// hover), a bar on a 0-100 % track, the share and the count.
std::string share_table(const std::vector<std::pair<std::string, uint64_t>>& values,
                        uint64_t rows) {
  std::string out =
      "<table class=\"shares\"><tr><th>value</th><th class=\"track-head\">share of the rows "
      "(0-100%)</th><th>share</th><th>rows</th></tr>";
  for (const auto& [value, count] : values) {
    const double share = rows ? (double)count / (double)rows : 0.0;
    out += "<tr><td>" + label_html(value, 48) +
           "</td><td class=\"track\"><div class=\"fill\" style=\"width:" +
           number(std::min(100.0, 100 * share)) + "%\"></div></td><td class=\"num\">" +
           stats_share_text(share) + "</td><td class=\"num\">" + stats_count_text(count) +
           "</td></tr>";
  }
  return out + "</table>";
}

std::string nulls_text(const ColumnStats& s) {
  if (!s.nones) return "0";
  return stats_count_text(s.nones) + " (" + stats_share_text((double)s.nones / (double)s.rows) +
         ")";
}

std::string overview_row(const ColumnStats& s) {
  std::string distinct = "—", min = "—", max = "—";
  if (s.numeric && s.numeric->finite) {
    min = value_text(s, s.numeric->min);
    max = value_text(s, s.numeric->max);
  }
  if (s.text) {
    distinct = (s.text->distinct_exact ? "" : "≈ ") + stats_count_text(s.text->distinct);
  }
  if (s.trues) {
    const uint64_t present = s.rows - s.nones;
    distinct = std::to_string((*s.trues ? 1 : 0) + (present > *s.trues ? 1 : 0));
    if (present) {
      min = present > *s.trues ? "false" : "true";
      max = *s.trues ? "true" : "false";
    }
  }
  return "<tr><td class=\"name\"><a href=\"#column-" + escaped(s.name) + "\">" +
         label_html(s.name, 40) + "</a></td><td>" + escaped(stats_type_text(s)) +
         "</td><td class=\"num\">" + stats_count_text(s.rows) + "</td><td class=\"num\">" +
         nulls_text(s) + "</td><td class=\"num\">" + distinct + "</td><td class=\"num\">" +
         label_html(min, 32) + "</td><td class=\"num\">" + label_html(max, 32) + "</td></tr>";
}

// Named numbers as boxes that wrap with the page (a timestamp's seven
// quantiles are wider than a table may be).
std::string facts(const std::vector<std::pair<std::string, std::string>>& named) {
  std::string out = "<dl class=\"facts\">";
  for (const auto& [name, html] : named)
    out += "<div><dt>" + name + "</dt><dd>" + html + "</dd></div>";
  return out + "</dl>";
}

std::string numeric_html(const ColumnStats& s, const NumericStats& n) {
  const auto shown = [&](const Value& v) { return label_html(value_text(s, v), 32); };
  std::vector<std::pair<std::string, std::string>> counts = {
      {"finite", stats_count_text(n.finite)},
      {"NaN", stats_count_text(n.nan)},
      {"+inf", stats_count_text(n.positive_infinity)},
      {"-inf", stats_count_text(n.negative_infinity)}};
  if (!n.finite) return facts(counts) + "<p>No finite values.</p>";
  counts.insert(counts.end(),
                {{"min", shown(n.min)},
                 {"max", shown(n.max)},
                 {"mean", escaped(stats_grouped_text(stats_mean_text(s, n.mean)))},
                 {"stddev", escaped(stats_grouped_text(stats_spread_text(s, n.stddev)))}});
  std::vector<std::pair<std::string, std::string>> quantiles;
  for (const auto& [p, v] : n.quantiles) {
    quantiles.emplace_back("p" + std::to_string((int)std::lround(p * 100)), shown(v));
  }
  std::string out = facts(counts) + facts(quantiles);
  if (!n.histogram.empty()) out += histogram_views(s, n);
  return out;
}

std::string section(const ColumnStats& s) {
  std::string out = "<section class=\"column\" id=\"column-" + escaped(s.name) + "\"><h2>" +
                    label_html(s.name, 80) + " <small>" + escaped(stats_type_text(s)) +
                    "</small></h2><p>" + stats_count_text(s.rows) + " rows";
  if (s.nones) out += ", " + nulls_text(s) + " null";
  out += "</p>";
  if (s.rows && s.nones == s.rows) return out + "<p>None on every row.</p></section>";
  if (s.numeric) out += numeric_html(s, *s.numeric);
  if (s.text) {
    const TextStats& t = *s.text;
    out += "<p>distinct " + stats_count_text(t.distinct) +
           (t.distinct_exact ? ""
                             : " (HyperLogLog estimate, standard error " +
                                   number(100 * t.distinct_standard_error) + "%)") +
           ", length " + stats_count_text(t.min_length) + " .. " + stats_count_text(t.max_length) +
           " bytes (mean " + number(t.mean_length) + ")</p>";
    if (!t.top.empty()) out += share_table(t.top, s.rows);
    if (t.top_share_bound) out += "<p class=\"note\">" + escaped(stats_top_bound_text(t)) + "</p>";
  }
  if (s.trues && s.rows > s.nones) {
    out += share_table({{"true", *s.trues}, {"false", s.rows - s.nones - *s.trues}}, s.rows);
  }
  return out + "</section>";
}

constexpr const char* kStyle =
    "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1.5em;"
    "color:#222}h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ddd;"
    "padding-bottom:.2em}h2 small{color:#666;font-weight:normal}table{border-collapse:collapse;"
    "margin:.6em 0}td,th{border:1px solid #d8d8d8;padding:3px 10px;white-space:nowrap}"
    "th{background:#f4f4f4;font-weight:600}td.num,.numbers td{text-align:right;"
    "font-variant-numeric:tabular-nums}.overview td.name{text-align:left}"
    "section{margin:2.5em 0}pre{background:#f6f6f6;padding:1em;overflow:auto}"
    ".note{color:#555;font-size:small}.chart{width:100%;height:auto;display:block}"
    ".chart .bar{fill:#4c78a8}.chart .bar:hover{fill:#f58518}.chart .grid{stroke:#e3e3e3}"
    ".chart .axis{stroke:#555}.chart .tick{font-size:12px;fill:#444}"
    ".chart .axis-title{font-size:13px;fill:#222}.switch{font-size:small;color:#555;"
    "margin:.4em 0}.switch button{margin-left:.4em;border:1px solid #bbb;background:#fff;"
    "padding:1px 8px;cursor:pointer}.switch button[aria-pressed=true]{background:#4c78a8;"
    "color:#fff}.views[data-shown=linear] svg[data-scale=log],.views[data-shown=log] "
    "svg[data-scale=linear]{display:none}table.shares{width:100%}table.shares td.track{"
    "width:60%;background:#f0f0f0;padding:0}.track .fill{background:#f58518;height:14px}"
    ".track-head{text-align:left}dl.facts{display:flex;flex-wrap:wrap;margin:.5em 0;gap:0}"
    "dl.facts div{border:1px solid #d8d8d8;margin:0 -1px -1px 0;padding:3px 10px;min-width:4em}"
    "dl.facts dt{font-size:small;color:#555;font-weight:600}dl.facts dd{margin:0;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}";

// The view switch: a button shows its scale's chart of the same column.
constexpr const char* kScript =
    "document.querySelectorAll('.views').forEach(function(v){v.querySelectorAll('button')"
    ".forEach(function(b){b.addEventListener('click',function(){v.dataset.shown=b.dataset.scale;"
    "v.querySelectorAll('button').forEach(function(o){o.setAttribute('aria-pressed',String(o"
    "===b))})})})});";

}  // namespace

std::string stats_html(const StatsReport& report, std::string_view title,
                       std::string_view program_text) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width\"><title>polyrt stats: " +
      escaped(title) + "</title><style>" + kStyle +
      "</style></head><body><h1>polyrt stats: " + escaped(title) + "</h1><p>" +
      stats_count_text(report.count) + " rows from coordinate " + stats_count_text(report.first) +
      " on " + escaped(report.device) + ", " + escaped(stats_passes_text(report)) + "</p>";
  out +=
      "<h2>Overview</h2><table class=\"overview\"><tr><th>column</th><th>type</th><th>rows</th>"
      "<th>nulls</th><th>distinct</th><th>min</th><th>max</th></tr>";
  for (const ColumnStats& c : report.columns) out += overview_row(c);
  out += "</table>";
  for (const ColumnStats& c : report.columns) out += section(c);
  return out + "<h2>Program</h2><pre>" + escaped(program_text) + "</pre><script>" + kScript +
         "</script></body></html>\n";
}

}  // namespace polyrt

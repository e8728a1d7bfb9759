#include <cmath>
#include <string>

#include "polyrt/stats.hpp"
#include "rtlib/json_text.hpp"

namespace polyrt {

namespace {

// A float value as JSON, in its own shortest text (an f32's as an f32);
// NaN and the infinities as polyrt's JSON Lines writes them, strings.
std::string number(const Value& v) {
  const std::string text = v.to_string();
  return std::isfinite(v.as_f64()) ? text : rt::json_quoted(text);
}

std::string number(double v) {
  return number(Value::f64(v));
}

// A column's value: integers exactly, floats as number() writes them. Never
// by reparsing the text: a subnormal (5e-324) is out of std::stod's range.
std::string value(const Value& v) {
  if (v.is_none()) return "null";
  if (v.type() == Type::F64 || v.type() == Type::F32) return number(v);
  return v.to_string();
}

std::string quantile_name(double p) {
  return "p" + std::to_string((int)std::lround(p * 100));
}

void numeric_json(std::string& out, const NumericStats& n) {
  out +=
      ",\"numeric\":{\"finite\":" + std::to_string(n.finite) + ",\"nan\":" + std::to_string(n.nan) +
      ",\"positive_infinity\":" + std::to_string(n.positive_infinity) +
      ",\"negative_infinity\":" + std::to_string(n.negative_infinity) + ",\"min\":" + value(n.min) +
      ",\"max\":" + value(n.max) + ",\"mean\":" + (n.finite ? number(n.mean) : "null") +
      ",\"stddev\":" + (n.finite ? number(n.stddev) : "null") + ",\"quantiles\":{";
  // With no finite value (an empty range) there are none: each is null.
  size_t q = 0;
  for (const double p : kStatsQuantiles) {
    const bool known = q < n.quantiles.size() && n.quantiles[q].first == p;
    out += (p == kStatsQuantiles[0] ? "\"" : ",\"") + quantile_name(p) +
           "\":" + (known ? value(n.quantiles[q++].second) : "null");
  }
  out += "},\"histogram\":[";
  for (size_t b = 0; b < n.histogram.size(); ++b) {
    out += (b ? "," : "") + std::to_string(n.histogram[b]);
  }
  out += "],\"histogram_edges\":[";
  for (size_t b = 0; b < n.histogram_edges.size(); ++b) {
    out += (b ? "," : "") + number(n.histogram_edges[b]);
  }
  out += "]}";
}

void text_json(std::string& out, const TextStats& t, uint64_t rows) {
  out += ",\"text\":{\"distinct\":" + std::to_string(t.distinct) +
         ",\"distinct_exact\":" + (t.distinct_exact ? "true" : "false") +
         ",\"distinct_standard_error\":" + number(t.distinct_standard_error) +
         ",\"min_length\":" + std::to_string(t.min_length) +
         ",\"max_length\":" + std::to_string(t.max_length) +
         ",\"mean_length\":" + number(t.mean_length) + ",\"top\":[";
  for (size_t k = 0; k < t.top.size(); ++k) {
    out += (k ? "," : "") + std::string("{\"value\":") + rt::json_quoted(t.top[k].first) +
           ",\"count\":" + std::to_string(t.top[k].second) +
           ",\"share\":" + number(rows ? (double)t.top[k].second / (double)rows : 0.0) + "}";
  }
  out += "],\"top_share_bound\":" + number(t.top_share_bound) + "}";
}

}  // namespace

std::string stats_json(const StatsReport& report) {
  std::string out = "{\"first\":" + std::to_string(report.first) +
                    ",\"count\":" + std::to_string(report.count) +
                    ",\"passes\":" + std::to_string(report.passes.size()) + ",\"pass_log\":[";
  for (size_t p = 0; p < report.passes.size(); ++p) {
    out += std::string(p ? "," : "") + "{\"purpose\":" + rt::json_quoted(report.passes[p].purpose) +
           ",\"columns\":[";
    for (size_t c = 0; c < report.passes[p].columns.size(); ++c) {
      out += (c ? "," : "") + rt::json_quoted(report.passes[p].columns[c]);
    }
    out += "]}";
  }
  out += "],\"device\":" + rt::json_quoted(report.device) + ",\"columns\":[";
  for (size_t c = 0; c < report.columns.size(); ++c) {
    const ColumnStats& s = report.columns[c];
    out += (c ? "," : "") + std::string("{\"name\":") + rt::json_quoted(s.name) + ",\"type\":\"" +
           std::string(type_name(s.type)) + "\",\"rows\":" + std::to_string(s.rows) +
           ",\"nones\":" + std::to_string(s.nones);
    // A logical column's numbers are its words' (epoch ms, days, unscaled).
    if (!s.logical.is_none())
      out += ",\"logical\":" + rt::json_quoted(logical_type_name(s.logical));
    if (s.numeric) numeric_json(out, *s.numeric);
    if (s.text) text_json(out, *s.text, s.rows);
    if (s.trues) {
      out += ",\"trues\":" + std::to_string(*s.trues) +
             ",\"true_share\":" + number(s.rows ? (double)*s.trues / (double)s.rows : 0.0);
    }
    out += "}";
  }
  return out + "]}\n";
}

}  // namespace polyrt

// The numbers of a stats report as people read them (the terminal report,
// the HTML page): six significant digits, a column's integers exactly.
#include <cstdio>
#include <string>

#include "polyrt/numeric_types.hpp"
#include "polyrt/stats.hpp"

namespace polyrt {

std::string stats_number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string stats_value_text(const Value& v) {
  if (v.is_none()) return "-";
  if (is_float(v.type())) return stats_number_text(std::stod(v.to_string()));
  return v.to_string();
}

}  // namespace polyrt

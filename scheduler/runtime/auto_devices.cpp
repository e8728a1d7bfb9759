#include "scheduler/runtime/auto_devices.hpp"

#include <cstdio>

namespace polyrt::scheduler {

namespace {

std::string rate_text(double rate) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g rows/s", rate);
  return text;
}

}  // namespace

AutoChoice choose_auto_devices(std::span<const double> rates, std::span<const std::string> names) {
  double total = 0;
  size_t fastest = 0;
  for (size_t d = 0; d < rates.size(); ++d) {
    total += rates[d];
    if (rates[d] > rates[fastest]) fastest = d;
  }
  AutoChoice choice;
  choice.use.assign(rates.size(), 0);
  std::string chosen, measured, left_out;
  for (size_t d = 0; d < rates.size(); ++d) {
    choice.use[d] = d == fastest || rates[d] >= kAutoMinShare * total;
    measured += (measured.empty() ? "" : ", ") + names[d] + " " + rate_text(rates[d]);
    std::string& list = choice.use[d] ? chosen : left_out;
    list += (list.empty() ? "" : " + ") + names[d];
  }
  choice.reason = "chose " + chosen + " (measured: " + measured + ")";
  if (!left_out.empty()) {
    choice.reason += "; left out " + left_out + ": under " +
                     std::to_string((int)(kAutoMinShare * 100)) + " % of the summed speed";
  }
  return choice;
}

}  // namespace polyrt::scheduler

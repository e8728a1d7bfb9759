// Browser user-agent strings for test data (web logs, request tables), a
// pure function of a u64. Host-only.
#pragma once

#include <cstdint>
#include <string>

namespace polyrt::rt {

// A user agent of a common browser and platform (Chrome, Safari, Edge,
// Firefox, Samsung Internet, Googlebot), picked by rough shares of today's
// traffic, in the exact form that browser sends, with a recent version
// (the same one wherever the string repeats it).
std::string user_agent(uint64_t input);

}  // namespace polyrt::rt

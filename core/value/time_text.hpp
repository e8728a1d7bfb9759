// ISO 8601 text read as the logical types' words: what `str as timestamp`,
// `str as timestamp_us` and `str as date` convert (core/nodes/nodes_logical.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace polyrt {

// A parsed word, or why the text is not one (a sentence for the row's error).
using ParsedTime = std::variant<int64_t, std::string>;

// "YYYY-MM-DD" (a year may have a sign and more digits) as days since
// 1970-01-01.
ParsedTime parse_date_text(std::string_view text);

// A date, or a date and a time "YYYY-MM-DD[T| ]hh:mm[:ss[.fraction]]" with an
// optional offset "Z", "+hh:mm", "+hhmm" or "+hh" (none: UTC), as the instant
// in units of 10^-digits seconds (3: milliseconds, 6: microseconds); fraction
// digits past the unit are cut.
ParsedTime parse_instant_text(std::string_view text, int digits);

}  // namespace polyrt

// Full Unicode case mapping of UTF-8 text, as Rust's str::to_lowercase and
// str::to_uppercase do it (polydat's str_lower and str_upper): one
// character may become several ("ß" -> "SS"), and a capital sigma at the
// end of a word becomes the final form "ς". Bytes that are not valid UTF-8
// pass through unchanged. The tables are generated
// (tools/generate_case_tables.py, Unicode 14). Host-only.
#pragma once

#include <string>
#include <string_view>

namespace polyrt::rt {

std::string utf8_lower(std::string_view text);
std::string utf8_upper(std::string_view text);

}  // namespace polyrt::rt

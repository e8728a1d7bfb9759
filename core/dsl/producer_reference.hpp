// How a `for` text names a producer (`sweep`, `sweep where {a} > 1`,
// `sweep order halton/4`) rather than writing a comprehension: the parser
// leaves such a text to the producers' expansion (expand/producers.hpp).
#pragma once

#include <string_view>
#include <utility>

namespace polyrt::dsl {

bool is_producer_reference(std::string_view text);

// A reference's producer name and the `where ...`/`order ...` text after it.
std::pair<std::string_view, std::string_view> split_producer_reference(std::string_view text);

}  // namespace polyrt::dsl

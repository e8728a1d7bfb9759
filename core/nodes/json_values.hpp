// A json value's text parsed: the json nodes and the body nodes read their
// inputs through it.
#pragma once

#include <string>

#include "rtlib/json_text.hpp"

namespace polyrt::nodes {

// The text of a json value (compact JSON that a node made: not JSON is an
// internal error) as its JsonValue.
rt::JsonValue parsed_json(const std::string& text);

}  // namespace polyrt::nodes

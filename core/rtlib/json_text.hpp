// JSON values as polyrt carries them: one compact text per value, object
// members sorted by key (serde_json's default map, which polydat uses), no
// insignificant space. The json nodes build and read values through this
// one parser and printer. Host-only.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyrt::rt {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  std::string scalar;            // Bool, Number: the literal text; String: the decoded text
  std::vector<JsonValue> items;  // Array
  std::map<std::string, JsonValue> members;  // Object, sorted by key
};

// Parses one JSON value (RFC 8259; at most 127 nested levels, serde_json's
// limit; "-0" is the double -0.0 as serde_json reads it); nullopt with
// `error` set for anything else.
std::optional<JsonValue> parse_json(std::string_view text, std::string& error);
// The compact text of a value.
std::string json_text(const JsonValue& value);
// A string as a JSON string literal: quotes, escapes for " \ and controls,
// and a byte that is not UTF-8 as the lone surrogate \udcXX, which
// parse_json reads back as that byte.
std::string json_quoted(std::string_view text);

}  // namespace polyrt::rt

// polydat's structural tile templates, `NAME := polytile_json(JSON)`: a JSON
// document whose strings are holes and whose directives are arrays led by
// "@for ..." or "@if ..." strings and object keys "@for ..."/"@if ...". It
// is turned into the template text a `json` tile block would hold for the
// same document (polydat's textual form of it: members joined by ", ", a
// string that is exactly one hole a value hole unless declared str), which
// expand/tiles.hpp then compiles, so both forms mean the same by construction.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "syntax/ast.hpp"

namespace polyrt::expand {

// Template text, and per byte the source offset it comes from (a hole's
// bytes map to the source's, so its expression parses from there).
struct TemplateText {
  std::string text;
  std::vector<size_t> at;  // text.size() + 1 entries
};

// What is wrong with a structural template, and where in `json`.
struct StructuralError {
  std::string message;
  size_t offset = 0;
};

// The template text of the structural template `json` (decoded text; at[i]
// is the source offset of json[i], one more entry for its end), under the
// header's delimiters and sigil. Throws StructuralError.
TemplateText structural_template(std::string_view json, const std::vector<size_t>& at,
                                 const syntax::TileHeader& header);

}  // namespace polyrt::expand

// Text extracts as polydat picks them (nosqlbench's HashedLoremExtractToString
// and HashedLineToString): a hashed slice of a bundled lorem ipsum text, and
// a line of a text the program gives. The lorem text is polyrt's own
// (tools/generate_lorem_text.py, from Faker's Latin word list; NOTICE), of
// the size of polydat's, so extracts have polydat's lengths and offsets but
// not its words. Host steps.
#include <string_view>

#include "nodes/registry.hpp"
#include "nodes/text_lines.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

using P = PortType;

constexpr std::string_view kLoremText =
#include "nodes/lorem_text.inc"
    ;

// input's extract: min + input % (max - min + 1) bytes from an offset that
// XXH3-64 of input picks among those where it fits.
std::string_view lorem_extract(uint64_t input, uint64_t min, uint64_t max) {
  const uint64_t length = std::min<uint64_t>(min + input % (max - min + 1), kLoremText.size());
  const uint64_t last_offset = kLoremText.size() - length;
  const uint64_t offset = last_offset > 0 ? pd_xxh3(input) % (last_offset + 1) : 0;
  return kLoremText.substr(offset, length);
}

// The non-empty lines of `text`, as polydat's node keeps them.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for_each_line(text, [&](size_t, std::string_view line) {
    if (!line.empty()) lines.emplace_back(line);
  });
  return lines;
}

}  // namespace

void register_lorem_nodes(Registry& r) {
  r.add({.name = "hashed_lorem_extract",
         .family = "strings",
         .args = {wire("input", P::U64), konst("min_len", P::U64), konst("max_len", P::U64)},
         .results = {Type::Str},
         .summary = "min_len + input % (max_len - min_len + 1) bytes of polyrt's 93 KB lorem "
                    "ipsum text (ASCII Latin words) from an offset picked by XXH3-64 of input, "
                    "as polydat picks them from its own text: the same lengths and offsets, "
                    "other words.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           if (p[1].as_u64() < p[0].as_u64()) {
             throw ParamError{1, "max_len " + std::to_string(p[1].as_u64()) + " is below min_len " +
                                     std::to_string(p[0].as_u64())};
           }
           return nullptr;
         },
         .eval =
             [](Call& c) {
               c.set_str(std::string(lorem_extract(c.u64(0), c.param_u64(0), c.param_u64(1))));
             }});
  r.add({.name = "hashed_line_to_string",
         .family = "strings",
         .args = {wire("input", P::U64), konst("source", P::Str)},
         .results = {Type::Str},
         .summary = "Line input % n of source's n non-empty lines (a trailing carriage return "
                    "dropped), as polydat's node picks it.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           auto prepared = std::make_shared<Prepared>();
           prepared->strs = lines_of(p[0].as_str());
           if (prepared->strs.empty()) throw ParamError{0, "the source has no non-empty line"};
           return prepared;
         },
         .eval =
             [](Call& c) {
               const std::vector<std::string>& lines = c.prepared().strs;
               c.set_str(lines[c.u64(0) % lines.size()]);
             }});
}

}  // namespace polyrt::nodes

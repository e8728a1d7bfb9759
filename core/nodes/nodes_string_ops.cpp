// String operations beyond formatting: case mapping, numbers in words,
// deterministic characters, numbers read back from text (identifiers:
// nodes_identifiers.cpp).
// Host steps (their results are variable-length text).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nodes/registry.hpp"
#include "rtlib/string_ops.hpp"
#include "rtlib/unicode_case.hpp"
#include "rtlib/web_encoding.hpp"

namespace polyrt::nodes {
namespace {

// The longest char_buf: a wire argument, so checked per value.
constexpr uint64_t kMaxCharBufLength = uint64_t(1) << 20;

}  // namespace

void register_string_op_nodes(Registry& r) {
  using P = PortType;
  // Nodes of one wire argument.
  const auto unary = [&](std::string_view name, std::string_view arg, PortType in, Type out,
                         std::string_view summary, void (*eval)(Call&)) {
    r.add({.name = name,
           .family = "strings",
           .args = {wire(arg, in)},
           .results = {out},
           .summary = summary,
           .eval = eval});
  };
  const auto text_map = [&](std::string_view name, std::string_view summary, void (*eval)(Call&)) {
    unary(name, "input", P::Str, Type::Str, summary, eval);
  };
  text_map("str_lower",
           "Full Unicode lowercase (Rust's to_lowercase): \"ÄPFEL\" -> \"äpfel\", a word-final "
           "capital sigma -> \"ς\"; bytes that are not UTF-8 are kept.",
           [](Call& c) { c.set_str(rt::utf8_lower(c.str(0))); });
  text_map("str_upper",
           "Full Unicode uppercase (Rust's to_uppercase): \"straße\" -> \"STRASSE\"; bytes that "
           "are not UTF-8 are kept.",
           [](Call& c) { c.set_str(rt::utf8_upper(c.str(0))); });
  text_map("url_encode",
           "Every byte but A-Z a-z 0-9 - _ . ~ as %XX (RFC 3986): \"a=1&b\" -> \"a%3D1%26b\".",
           [](Call& c) { c.set_str(rt::url_encode(c.str(0))); });
  text_map("url_decode",
           "%XX back to its byte (other text kept), then bytes that are not UTF-8 as U+FFFD, "
           "one per maximal invalid sequence.",
           [](Call& c) { c.set_str(rt::url_decode(c.str(0))); });
  text_map("html_encode", "& < > \" ' as &amp; &lt; &gt; &quot; &#x27;.",
           [](Call& c) { c.set_str(rt::html_encode(c.str(0))); });
  text_map("html_decode",
           "&amp; &lt; &gt; &quot; &#x27; &#39; back, one entity after another in that order "
           "(\"&amp;lt;\" -> \"<\").",
           [](Call& c) { c.set_str(rt::html_decode(c.str(0))); });
  unary("number_to_words", "input", P::U64, Type::Str,
        "input in English words: 0 -> \"zero\", 42 -> \"forty-two\", 1001 -> \"one "
        "thousand one\", up to the quintillions.",
        [](Call& c) { c.set_str(rt::number_to_words(c.u64(0))); });
  r.add({.name = "char_buf",
         .family = "strings",
         .args = {wire("seed", P::U64), konst("charset", P::Str), wire("length", P::U64)},
         .results = {Type::Str},
         .can_fail = true,
         .summary = "length characters from charset (ranges such as \"A-Za-z0-9\" and single "
                    "characters; \"\" means a-z), each picked by XXH3-64 chained from seed.",
         .failure = "length above 1048576",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           auto charset = std::make_shared<Prepared>();
           charset->strs = rt::expand_charset(p[0].as_str());
           return charset;
         },
         .eval =
             [](Call& c) {
               const uint64_t length = c.u64(1);
               if (length > kMaxCharBufLength) {
                 throw NodeFailure{"length " + std::to_string(length) + " is above " +
                                   std::to_string(kMaxCharBufLength)};
               }
               c.set_str(rt::char_buf(c.u64(0), c.prepared().strs, length));
             }});
  unary("str_to_u64", "s", P::Str, Type::U64,
        "The u64 the whole text (surrounding whitespace aside) spells in decimal, "
        "else 0 (unlike `as u64`, which fails).",
        [](Call& c) { c.set_u64(rt::str_to_u64(c.str(0))); });
  unary("str_digit_suffix", "s", P::Str, Type::U64,
        "The decimal digits that end the text (trailing whitespace aside): "
        "\"label-17\" -> 17; 0 when there are none or they do not fit a u64.",
        [](Call& c) { c.set_u64(rt::str_digit_suffix(c.str(0))); });
  text_map("escape_json",
           "The inside of a JSON string literal for input, as serde_json writes it: \" and \\ "
           "backslashed, \\n \\t \\r \\b \\f, other control bytes as \\u00xx; no quotes "
           "added.",
           [](Call& c) { c.set_str(rt::escape_json(c.str(0))); });
  r.add({.name = "str_length",
         .family = "strings",
         .args = {wire("input", P::Str)},
         .results = {Type::U64},
         .summary = "The number of characters (a valid UTF-8 sequence is one, so is each maximal "
                    "invalid piece): \"äpfel\" -> 5.",
         .eval = [](Call& c) { c.set_u64(rt::char_count(c.str(0))); },
         .device_text = DeviceTextForm{.kind = DeviceTextKind::Word,
                                       .symbol = "pd_text_char_count",
                                       .args = {text_input_text(0)}}});
  r.add({.name = "substring",
         .family = "strings",
         .args = {wire("input", P::Str), wire("start", P::U64), wire("length", P::U64)},
         .results = {Type::Str},
         .summary = "The length characters from character start (counted as str_length counts, "
                    "so a character is never split); fewer at the end, \"\" from past it.",
         .eval = [](Call& c) { c.set_str(rt::substring(c.str(0), c.u64(1), c.u64(2))); }});
  r.add(
      {.name = "str_replace",
       .family = "strings",
       .args = {wire("input", P::Str), konst("from", P::Str), konst("to", P::Str)},
       .results = {Type::Str},
       .summary = "Every non-overlapping occurrence of from replaced by to, left to right.",
       .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
         if (p[0].as_str().empty()) throw ParamError{0, "from must not be empty"};
         return nullptr;
       },
       .eval =
           [](Call& c) { c.set_str(rt::replace_all(c.str(0), c.param_str(0), c.param_str(1))); }});
}

}  // namespace polyrt::nodes

// Slices of an image made once, when the program is compiled (nosqlbench's
// CharBufImage, polydat's byte_image_extract and char_image_extract): the
// image is filled from hash(seed + i), and each row copies out the slice at
// an offset its input picks, input % (last offset + 1). Host steps: a row
// is a copy, the hashing all done up front.
#include <string>
#include <string_view>

#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/string_ops.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

// The largest image: made in memory when the program is compiled.
constexpr uint64_t kMaxImageSize = uint64_t(1) << 26;

void check_image_size(uint64_t size, size_t param) {
  if (size > kMaxImageSize) {
    throw ParamError{param, "image_size " + std::to_string(size) + " is above the largest, " +
                                std::to_string(kMaxImageSize)};
  }
}

// Where a slice of `length` units starts in an image of `units`.
uint64_t slice_start(uint64_t input, uint64_t units, uint64_t length) {
  const uint64_t last = units > length ? units - length : 0;
  return last > 0 ? input % (last + 1) : 0;
}

// strs[0]: the image; u64s: where each character starts in it, and its end
// (empty when every character is one byte, so that a character's index is
// its offset).
std::shared_ptr<const Prepared> char_image(std::string_view charset, uint64_t size, uint64_t seed) {
  const std::vector<std::string> chars = rt::expand_charset(charset);
  auto image = std::make_shared<Prepared>();
  std::string& text = image->strs.emplace_back();
  bool one_byte = true;
  for (const std::string& c : chars) one_byte &= c.size() == 1;
  for (uint64_t i = 0; i < size; ++i) {
    if (!one_byte) image->u64s.push_back(text.size());
    text += chars[pd_hash(seed + i) % chars.size()];
  }
  if (!one_byte) image->u64s.push_back(text.size());
  return image;
}

}  // namespace

void register_image_nodes(Registry& r) {
  r.add({.name = "byte_image_extract",
         .family = "bytes and digests",
         .wants_hashed_input = true,
         .args = {wire("input", P::U64), konst("image_size", P::U64), konst("slice_size", P::U64),
                  konst("seed", P::U64)},
         .results = {Type::Bytes},
         .summary = "slice_size bytes (fewer when the image is smaller) of an image_size-byte "
                    "image of hash(seed + k), little-endian, for k = 0, 1, ..., made once; "
                    "from byte input % (image_size - slice_size + 1), as polydat cuts them.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           check_image_size(p[0].as_u64(), 0);
           auto image = std::make_shared<Prepared>();
           std::string& bytes = image->strs.emplace_back();
           bytes.reserve(p[0].as_u64() + 8);
           for (uint64_t k = 0; bytes.size() < p[0].as_u64(); ++k) {
             const uint64_t word = pd_hash(p[2].as_u64() + k);
             for (int b = 0; b < 8; ++b) bytes += (char)(word >> (8 * b) & 0xff);
           }
           bytes.resize(p[0].as_u64());
           return image;
         },
         .eval =
             [](Call& c) {
               const std::string& image = c.prepared().strs[0];
               const uint64_t length = c.param_u64(1);
               const uint64_t start = slice_start(c.u64(0), image.size(), length);
               c.set(Value::bytes(image.substr(start, length)));
             }});
  r.add({.name = "char_image_extract",
         .family = "strings",
         .wants_hashed_input = true,
         .args = {wire("input", P::U64), konst("charset", P::Str), konst("image_size", P::U64),
                  konst("slice_size", P::U64), konst("seed", P::U64, Value::u64(0))},
         .results = {Type::Str},
         .summary = "slice_size characters (fewer when the image is smaller) of an image of "
                    "image_size characters from charset (ranges such as \"A-Za-z0-9\"), the "
                    "k-th hash(seed + k) % its size, made once; from character input % "
                    "(image_size - slice_size + 1), as polydat cuts them.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           if (p[0].as_str().empty()) throw ParamError{0, "the charset is empty"};
           check_image_size(p[1].as_u64(), 1);
           return char_image(p[0].as_str(), p[1].as_u64(), p[3].as_u64());
         },
         .eval =
             [](Call& c) {
               const Prepared& image = c.prepared();
               const std::string& text = image.strs[0];
               const uint64_t units = image.u64s.empty() ? text.size() : image.u64s.size() - 1;
               const uint64_t length = std::min(c.param_u64(2), units);
               const uint64_t start = slice_start(c.u64(0), units, length);
               if (image.u64s.empty()) return c.set_str(text.substr(start, length));
               const uint64_t from = image.u64s[start], to = image.u64s[start + length];
               c.set_str(text.substr(from, to - from));
             }});
}

}  // namespace polyrt::nodes

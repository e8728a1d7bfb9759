// Nodes of the bytes type: bytes from integers and hashes, slices, hex,
// base64 and base32 text, and SHA-256 and MD5 digests (polydat's bytebuf and
// digest families). Host steps: their results are variable-length.
#include <string>
#include <string_view>

#include "nodes/registry.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/byte_encodings.hpp"
#include "rtlib/digest_blocks.h"
#include "rtlib/digests.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/text_writers.h"

namespace polyrt::nodes {

namespace {

using P = PortType;

// The longest bytes_from_hash: a constant, checked at compile time.
constexpr uint64_t kMaxGeneratedBytes = uint64_t(1) << 24;

// The low `width` bytes of a word, little-endian.
std::string little_endian(uint64_t word, size_t width) {
  std::string out(width, '\0');
  for (size_t i = 0; i < width; ++i) out[i] = (char)(word >> (8 * i) & 0xff);
  return out;
}

}  // namespace

std::string bytes_of(const Value& v) {
  const Type t = v.type();
  if (t == Type::Bytes) return v.as_bytes();
  if (is_payload(t)) return v.text();
  if (t == Type::Bool) return std::string(1, v.as_bool() ? '\1' : '\0');
  if (t == Type::F32) {
    const auto bits = std::bit_cast<uint32_t>((float)v.as_f64());
    return little_endian(bits, 4);
  }
  return little_endian(word_of(v), native_width(t));
}

void register_bytes_nodes(Registry& r) {
  const auto unary = [&](std::string_view name, PortType in, Type out, std::string_view summary,
                         void (*eval)(Call&),
                         std::optional<DeviceTextForm> device_text = std::nullopt) {
    r.add({.name = name,
           .family = "bytes and digests",
           .args = {wire("input", in)},
           .results = {out},
           .summary = summary,
           .eval = eval,
           .device_text = std::move(device_text)});
  };
  // A GPU form over the input's bytes (`symbol(out, bytes, length)`).
  const auto over_bytes = [](std::string_view symbol, decltype(DeviceTextForm::bound) bound) {
    return DeviceTextForm{.symbol = symbol, .args = {text_input_text(0)}, .bound = bound};
  };
  unary("u64_to_bytes", P::U64, Type::Bytes, "The 8 bytes of input, little-endian.",
        [](Call& c) { c.set(Value::bytes(little_endian(c.u64(0), 8))); });
  r.add({.name = "bytes_from_hash",
         .family = "bytes and digests",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("size", P::U64, Value::u64(8))},
         .results = {Type::Bytes},
         .summary = "size bytes: hash(input + k), little-endian, for k = 0, 1, ... (the last one "
                    "cut to fit), as polydat fills them.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           if (p[0].as_u64() > kMaxGeneratedBytes) {
             throw ParamError{0, "size " + std::to_string(p[0].as_u64()) +
                                     " is above the largest, " +
                                     std::to_string(kMaxGeneratedBytes)};
           }
           return nullptr;
         },
         .eval =
             [](Call& c) {
               const uint64_t size = c.param_u64(0);
               std::string out;
               out.reserve(size);
               for (uint64_t k = 0; out.size() < size; ++k) {
                 out +=
                     little_endian(pd_hash(c.u64(0) + k), std::min<uint64_t>(8, size - out.size()));
               }
               c.set(Value::bytes(std::move(out)));
             }});
  r.add({.name = "byte_slice",
         .family = "bytes and digests",
         .args = {wire("input", P::Bytes), konst("offset", P::U64, Value::u64(0)),
                  konst("length", P::U64, Value::u64(8))},
         .results = {Type::Bytes},
         .summary = "Bytes [offset, offset + length) of input, cut at its end (empty past it).",
         .eval = [](Call& c) {
           const std::string& in = c.input(0).as_bytes();
           const uint64_t start = std::min<uint64_t>(c.param_u64(0), in.size());
           c.set(Value::bytes(in.substr(start, c.param_u64(1))));
         }});
  unary(
      "to_hex", P::Bytes, Type::Str, "Lowercase hex, two digits a byte.",
      [](Call& c) { c.set_str(rt::hex_text(c.input(0).as_bytes())); },
      over_bytes("pd_text_hex", [](const std::vector<Value>&, const Prepared*,
                                   std::span<const size_t> in) { return 2 * in[0]; }));
  unary("from_hex", P::Str, Type::Bytes,
        "Pairs of hex digits (either case) to bytes; a pair with another character is "
        "skipped, an odd last character ignored.",
        [](Call& c) { c.set(Value::bytes(rt::from_hex(c.str(0)))); });
  unary(
      "to_base64", P::Bytes, Type::Str, "Standard base64 with padding (RFC 4648).",
      [](Call& c) { c.set_str(rt::to_base64(c.input(0).as_bytes())); },
      over_bytes("pd_text_base64",
                 [](const std::vector<Value>&, const Prepared*, std::span<const size_t> in) {
                   return (size_t)rt::encoded_group_chars(in[0], 3, 4);
                 }));
  unary("from_base64", P::Str, Type::Bytes,
        "Standard padded base64 to bytes; empty when the text is not valid base64.",
        [](Call& c) { c.set(Value::bytes(rt::from_base64(c.str(0)))); });
  unary(
      "to_base32", P::Bytes, Type::Str, "Base32 with padding (RFC 4648).",
      [](Call& c) { c.set_str(rt::to_base32(c.input(0).as_bytes())); },
      over_bytes("pd_text_base32",
                 [](const std::vector<Value>&, const Prepared*, std::span<const size_t> in) {
                   return (size_t)rt::encoded_group_chars(in[0], 5, 8);
                 }));
  unary("from_base32", P::Str, Type::Bytes,
        "Padded base32 to bytes; empty when the text is not valid base32.",
        [](Call& c) { c.set(Value::bytes(rt::from_base32(c.str(0)))); });
  unary(
      "sha256", P::Bytes, Type::Bytes, "The 32-byte SHA-256 digest (FIPS 180-4).",
      [](Call& c) { c.set(Value::bytes(rt::sha256(c.input(0).as_bytes()))); },
      over_bytes("pd_text_sha256",
                 [](const std::vector<Value>&, const Prepared*, std::span<const size_t>) {
                   return (size_t)rt::kSha256Bytes;
                 }));
  unary(
      "md5", P::Bytes, Type::Bytes, "The 16-byte MD5 digest (RFC 1321).",
      [](Call& c) { c.set(Value::bytes(rt::md5(c.input(0).as_bytes()))); },
      over_bytes("pd_text_md5", [](const std::vector<Value>&, const Prepared*,
                                   std::span<const size_t>) { return (size_t)rt::kMd5Bytes; }));
}

const NodeDef& to_bytes_node() {
  static const NodeDef def{
      .name = "__to_bytes",
      .family = "internal",
      .args = {wire("value", P::Any)},
      .results = {Type::Bytes},
      .summary =
          "A number's little-endian bytes at its width (an f32 as its 4 IEEE bytes), "
          "a bool as 1 byte, text as its bytes; inserted by `as bytes` and where a "
          "bytes parameter gets a number.",
      .eval = [](Call& c) { c.set(Value::bytes(bytes_of(c.input(0)))); },
      // Text's bytes are the text: a copy (a number's stay a host step).
      .device_text = DeviceTextForm{.symbol = "pd_text_copy",
                                    .args = {text_input_text(0)},
                                    .bound = [](const std::vector<Value>&, const Prepared*,
                                                std::span<const size_t> in) { return in[0]; }},
  };
  return def;
}

}  // namespace polyrt::nodes

// A plugin library for `polyrt --plugin` (polyrt/host_nodes.hpp): two host
// nodes, a checksum of two words and a tag of a prefix and a number, the
// functions polydat's embedding guide registers (its section 5 documents
// their values at cycles 1 and 2). Built as a module that links nothing:
// the polyrt that loads it provides the symbols it uses.
#include <bit>
#include <cstdio>
#include <string>

#include "polyrt/host_nodes.hpp"

extern "C" void polyrt_plugin_register(polyrt::HostRegistry& registry) {
  using polyrt::Type;
  using polyrt::Value;
  registry.add({.name = "host_checksum",
                .inputs = {Type::U64, Type::U64},
                .result = Type::U64,
                .row =
                    [](std::span<const Value> in) {
                      return Value::u64(std::rotl(in[0].as_u64(), 7) ^
                                        in[1].as_u64() * 0x9E3779B97F4A7C15ULL);
                    },
                .summary = "a rotated left by 7, xor b times the golden ratio."});
  registry.add({.name = "host_tag",
                .inputs = {Type::Str, Type::U64},
                .result = Type::Str,
                .row =
                    [](std::span<const Value> in) {
                      char digits[32];
                      std::snprintf(digits, sizeof digits, "%04llu",
                                    (unsigned long long)in[1].as_u64());
                      return Value::str(in[0].as_str() + "-" + digits);
                    },
                .summary = "prefix-NNNN."});
}

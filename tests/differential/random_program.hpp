// A seeded generator of random programs for the differential test: integer,
// float and string nodes, failing nodes, None-consuming nodes, volatile and
// side-channel nodes, const bindings, and externs that get cleared.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace polyrt::difftest {

struct ExternSpec {
  std::string name;
  char type;  // 'u', 'f', 's'
  bool has_default;
};

struct RandomProgram {
  std::string source;
  size_t coordinates = 0;
  std::vector<ExternSpec> externs;
  std::vector<std::string> outputs;
  // Compiled with this CompileOptions::seed (every third program): every
  // engine and tier must agree on the re-keyed values too.
  std::optional<uint64_t> hash_seed;
};

// `size` bounds the number of bindings (each adds one to three nodes).
RandomProgram generate_program(uint64_t seed, size_t size);

}  // namespace polyrt::difftest

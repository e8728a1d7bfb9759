// Generated programs of a given size, shared by the compile-scale benchmark
// and the program-scale tests: `independent(n)` binds n unrelated hashes of
// the input, `hash_chain(n)` n hashes each fed by the previous one.
#pragma once

#include <cstdint>
#include <string>

namespace polyrt::bench {

inline std::string independent_program(int64_t n) {
  std::string src = "input x\n";
  for (int64_t i = 0; i < n; ++i)
    src += "b" + std::to_string(i) + " := hash(x + " + std::to_string(i) + ")\n";
  return src;
}

inline std::string hash_chain_program(int64_t n) {
  std::string src = "input x\nb0 := hash(x)\n";
  for (int64_t i = 1; i < n; ++i) {
    src += "b" + std::to_string(i) + " := hash(b" + std::to_string(i - 1) + " ^ " +
           std::to_string(i) + ")\n";
  }
  return src;
}

// independent(n), a tile, and one traversal over a literal lattice whose body
// reads a binding: the body and its batch form compile from the parsed tree
// (a parse of the whole file each, before the front end parsed once).
inline std::string traversal_program(int64_t n) {
  return independent_program(n) +
         "tile card := { \"id\": ${format_u64(b1, 10)}, \"name\": \"${first_names(b2)}\" }\n"
         "for k in 0..4, tier in gold, silver {\n  y := k * 2 + b7\n  label := \"{tier} {k}\"\n}\n";
}

}  // namespace polyrt::bench

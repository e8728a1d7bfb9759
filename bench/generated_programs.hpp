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

}  // namespace polyrt::bench

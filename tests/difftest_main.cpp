// Soak driver of the differential test: polyrt_difftest [--seconds N] [--seed S]
// runs random programs on every engine until the time is up; exit 1 and a
// reproducer on the first disagreement.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "tests/differential/differential.hpp"

int main(int argc, char** argv) {
  double seconds = 60;
  uint64_t first = std::random_device{}();
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--seconds") == 0) {
      seconds = std::atof(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--seed") == 0) {
      first = std::strtoull(argv[i + 1], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: polyrt_difftest [--seconds N] [--seed S]\n");
      return 2;
    }
  }
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  uint64_t programs = 0;
  for (uint64_t seed = first; std::chrono::steady_clock::now() < end; ++seed, ++programs) {
    if (auto report = polyrt::difftest::check_seed(seed)) {
      std::printf("%s", report->c_str());
      return 1;
    }
  }
  std::printf("%llu programs from seed %llu: every engine agreed\n", (unsigned long long)programs,
              (unsigned long long)first);
  return 0;
}

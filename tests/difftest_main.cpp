// Soak driver of the differential test:
//   polyrt_difftest [--seconds N | --seeds N] [--seed S]
// runs random programs on every engine until the time is up (or N seeds have
// run); exit 1 and a reproducer on the first disagreement, exit 2 on a bad
// command line (a run that checked nothing never reports success), exit 3
// with the seed and its program when LLVM meets a fatal error.
//   polyrt_difftest --program S
// prints seed S's program for other drivers (the Python tests): a first line
// with the outputs the batch tier can run, then the source.
#include <charconv>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "codegen/pipeline/llvm_fatal_errors.hpp"
#include "gpu_backend/driver/cuda_driver.hpp"
#include "tests/differential/differential.hpp"

namespace {

int usage(const char* why) {
  std::fprintf(stderr,
               "polyrt_difftest: %s\nusage: polyrt_difftest [--seconds N | --seeds N] [--seed S]\n"
               "       polyrt_difftest --program S\n",
               why);
  return 2;
}

template <typename T>
std::optional<T> number(std::string_view text) {
  T v{};
  auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
    return std::nullopt;
  return v;
}

int print_program(uint64_t seed) {
  const polyrt::difftest::RandomProgram p = polyrt::difftest::program_for_seed(seed);
  try {
    const auto program = polyrt::compile(p.source);
    for (const std::string& name : polyrt::difftest::batch_outputs(*program)) {
      std::printf("%s ", name.c_str());
    }
  } catch (const polyrt::Error&) {
    // Not a program that compiles: no batch outputs.
  }
  std::printf("\n%s", p.source.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 60;
  std::optional<uint64_t> seeds;
  uint64_t first = std::random_device{}();
  for (int i = 1; i < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) return usage("an option needs a value");
    const std::string_view value = argv[i + 1];
    if (flag == "--seconds") {
      const auto s = number<double>(value);
      if (!s || !(*s > 0)) return usage("--seconds needs a positive number");
      seconds = *s;
    } else if (flag == "--seeds") {
      seeds = number<uint64_t>(value);
      if (!seeds || *seeds == 0) return usage("--seeds needs a positive integer");
    } else if (flag == "--program") {
      const auto s = number<uint64_t>(value);
      if (!s) return usage("--program needs an unsigned integer");
      return print_program(*s);
    } else if (flag == "--seed") {
      const auto s = number<uint64_t>(value);
      if (!s) return usage("--seed needs an unsigned integer");
      first = *s;
    } else {
      return usage("unknown option");
    }
  }
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  uint64_t programs = 0;
  for (uint64_t seed = first; seeds ? programs < *seeds : std::chrono::steady_clock::now() < end;
       ++seed, ++programs) {
    try {
      // What LLVM cannot recover from (code generation of a kernel) ends the
      // process, never to return here: its report names the seed and program.
      const polyrt::codegen::FatalErrorContext context(
          "checking seed " + std::to_string(seed) + ", whose program is:\n" +
          polyrt::difftest::program_for_seed(seed).source);
      if (auto report = polyrt::difftest::check_seed(seed)) {
        std::printf("%s", report->c_str());
        return 1;
      }
    } catch (const polyrt::InternalError& e) {
      std::printf("seed %llu: %s\nthe program:\n%s", (unsigned long long)seed, e.what(),
                  polyrt::difftest::program_for_seed(seed).source.c_str());
      return 1;
    }
  }
  if (programs == 0) {
    std::printf("no program ran in %g s: nothing was checked\n", seconds);
    return 1;
  }
  // Which GPU tier took part: agreement without a usable driver says nothing
  // of a GPU, and the line must not read as if it did.
  const polyrt::gpu::CudaDriver* driver = polyrt::gpu::CudaDriver::get();
  const std::string gpu =
      driver && !driver->devices().empty()
          ? "GPU tier on " + driver->devices()[0].name + " (driver " + driver->library_path() + ")"
          : "no GPU tier: " + polyrt::gpu::CudaDriver::unavailable_reason();
  std::printf("%llu programs from seed %llu: every engine agreed; %s\n",
              (unsigned long long)programs, (unsigned long long)first, gpu.c_str());
  return 0;
}

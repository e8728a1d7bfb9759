#include "gpu_backend/ptx/ptxas.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace polyrt::gpu {

namespace {

bool is_executable(const std::string& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0 && !std::filesystem::is_directory(path);
}

// `text` as one word of a shell command.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::optional<std::string> find_ptxas() {
  if (const char* chosen = std::getenv("POLYRT_PTXAS"); chosen && *chosen) {
    return is_executable(chosen) ? std::optional<std::string>(chosen) : std::nullopt;
  }
  std::vector<std::string> places;
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    for (size_t at = 0; at <= dirs.size();) {
      const size_t end = std::min(dirs.find(':', at), dirs.size());
      if (end > at) places.push_back(dirs.substr(at, end - at));
      at = end + 1;
    }
  }
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) {
    places.push_back(std::string(home) + "/bin");
  }
  places.push_back("/usr/local/cuda/bin");
  for (const std::string& dir : places) {
    if (is_executable(dir + "/ptxas")) return dir + "/ptxas";
  }
  return std::nullopt;
}

std::vector<KernelResources> parse_ptxas_report(const std::string& output) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  std::vector<KernelResources> kernels;
  std::istringstream lines(output);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, entry)) {
      kernels.push_back(KernelResources{.entry = m[1]});
    } else if (kernels.empty()) {
      continue;
    } else if (std::regex_search(line, m, frame)) {
      kernels.back().stack_bytes = std::stoull(m[1]);
      kernels.back().spill_store_bytes = std::stoull(m[2]);
      kernels.back().spill_load_bytes = std::stoull(m[3]);
    } else if (std::regex_search(line, m, used)) {
      kernels.back().registers = (unsigned)std::stoul(m[1]);
    }
  }
  return kernels;
}

PtxasRun run_ptxas(const std::string& ptxas, const std::string& ptx, unsigned sm) {
  PtxasRun run;
  std::string path = (std::filesystem::temp_directory_path() / "polyrt-ptxas-XXXXXX.ptx").string();
  const int fd = ::mkstemps(path.data(), 4);
  if (fd < 0) {
    run.output = "could not create a temporary file for ptxas";
    return run;
  }
  ::close(fd);
  std::ofstream(path, std::ios::binary) << ptx;
  const std::string command = shell_quoted(ptxas) + " -arch=sm_" + std::to_string(sm) + " -v " +
                              shell_quoted(path) + " -o /dev/null 2>&1";
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
    const int status = ::pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::filesystem::remove(path);
  run.kernels = parse_ptxas_report(run.output);
  return run;
}

Occupancy occupancy_of(unsigned sm, unsigned registers, unsigned threads) {
  // Threads per SM by compute capability: 2048, except 1024 on sm_75 and
  // 1536 on sm_86, sm_87, sm_89 and sm_120.
  const unsigned max_threads = sm == 75                                        ? 1024
                               : sm == 86 || sm == 87 || sm == 89 || sm == 120 ? 1536
                                                                               : 2048;
  constexpr unsigned kRegistersPerSm = 65536, kMaxBlocksPerSm = 32, kAllocationUnit = 256;
  Occupancy o;
  o.max_warps_per_sm = max_threads / 32;
  const unsigned warps = std::max(1u, (threads + 31) / 32);
  const unsigned per_warp =
      (std::max(registers, 1u) * 32 + kAllocationUnit - 1) / kAllocationUnit * kAllocationUnit;
  const unsigned by_registers = kRegistersPerSm / per_warp / warps;
  o.blocks_per_sm = std::min({by_registers, o.max_warps_per_sm / warps, kMaxBlocksPerSm});
  o.warps_per_sm = o.blocks_per_sm * warps;
  return o;
}

std::string describe_kernel_resources(const std::string& ptx,
                                      const std::vector<std::string>& entries, size_t steps,
                                      unsigned sm, unsigned threads) {
  const std::optional<std::string> ptxas = find_ptxas();
  if (!ptxas) {
    const char* chosen = std::getenv("POLYRT_PTXAS");
    return chosen && *chosen ? "kernel resources: POLYRT_PTXAS='" + std::string(chosen) +
                                   "' is not an executable file\n"
                             : "kernel resources: no ptxas found (install the CUDA toolkit, or "
                               "set POLYRT_PTXAS)\n";
  }
  const PtxasRun run = run_ptxas(*ptxas, ptx, sm);
  if (run.status != 0) {
    return "kernel resources: ptxas failed (status " + std::to_string(run.status) + "):\n" +
           run.output;
  }
  std::string out = "kernel resources (" + *ptxas + " -arch=sm_" + std::to_string(sm) + " -v), " +
                    std::to_string(threads) + " threads per block:\n";
  // A plan step's kernel, or (past the steps) a text compaction kernel.
  const auto name = [&](size_t s) { return s < steps ? "step " + std::to_string(s) : entries[s]; };
  for (size_t s = 0; s < entries.size(); ++s) {
    if (entries[s].empty()) continue;
    const auto k = std::find_if(run.kernels.begin(), run.kernels.end(),
                                [&](const KernelResources& r) { return r.entry == entries[s]; });
    if (k == run.kernels.end()) {
      out += name(s) + ": " + entries[s] + " not in ptxas's report\n";
      continue;
    }
    const Occupancy o = occupancy_of(sm, k->registers, threads);
    out += name(s) + ": " + std::to_string(k->registers) + " registers, " +
           std::to_string(k->stack_bytes) + " bytes stack, " +
           (k->spill_store_bytes || k->spill_load_bytes
                ? std::to_string(k->spill_store_bytes) + " bytes spill stores, " +
                      std::to_string(k->spill_load_bytes) + " bytes spill loads"
                : std::string("no spills")) +
           "; " + std::to_string(o.blocks_per_sm) + " block(s) per SM, " +
           std::to_string(o.warps_per_sm) + " of " + std::to_string(o.max_warps_per_sm) +
           " warps (" + std::to_string(o.warps_per_sm * 100 / std::max(o.max_warps_per_sm, 1u)) +
           "% occupancy)\n";
  }
  return out;
}

}  // namespace polyrt::gpu

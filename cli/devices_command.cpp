// `polyrt devices`: what the batch tier can run on here.
#include <cstdio>

#include "cli/command_line.hpp"
#include "polyrt/devices.hpp"

namespace polyrt::cli {

int devices_command(CommandLine& args) {
  static const char* usage =
      "usage: polyrt devices\n\n"
      "Lists the CPU (cores, the JIT's target and vector ISA) and every GPU (name, compute\n"
      "capability, SMs, memory, CUDA driver), or says why no GPU is usable. POLYRT_LIBCUDA\n"
      "names the driver library to load instead of libcuda.so.1.\n";
  if (args.wants_help()) return std::fputs(usage, stdout), 0;
  if (!args.done()) args.unknown_flag(args.flag());
  args.allow_positionals(0, "devices takes no argument");
  std::fputs(describe_devices(devices()).c_str(), stdout);
  return 0;
}

}  // namespace polyrt::cli

// polyrt: compile and run procedural-data programs from the command line.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "polyrt/error.hpp"
#include "scheduler/jobs/interruption.hpp"

namespace {

const char* kUsage =
    "usage: polyrt COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  check FILE                          compile FILE and report diagnostics\n"
    "  eval FILE [--set N=V]... INPUTS...  evaluate one coordinate, print every output\n"
    "  run FILE --cycles A..B [OPTIONS]    generate rows for coordinates A..B-1 with every core\n"
    "  plan FILE [--emit-llvm]             print the native plan (or its optimized LLVM IR)\n"
    "  devices                             list the CPU and GPUs the batch tier can use\n"
    "  bench FILE [OPTIONS]                measure FILE on every tier and device here\n"
    "  version                             polyrt's version and how it was built (also --version)\n"
    "  nodes                               print the node reference (Markdown)\n"
    "\n"
    "Run 'polyrt COMMAND --help' for the options of a command.\n";

int dispatch(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--version" || args[0] == "version")) {
    if (args.size() > 1) {
      std::fprintf(stderr, "polyrt %s: takes no arguments, got '%s'\n", args[0].c_str(),
                   args[1].c_str());
      return 2;
    }
    return polyrt::cli::version_command();
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  try {
    polyrt::cli::CommandLine line(command, std::vector<std::string>(args.begin() + 1, args.end()));
    if (command == "check") return polyrt::cli::check_command(line);
    if (command == "eval") return polyrt::cli::eval_command(line);
    if (command == "run") return polyrt::cli::run_command(line);
    if (command == "nodes") return polyrt::cli::nodes_command(line);
    if (command == "plan") return polyrt::cli::plan_command(line);
    if (command == "devices") return polyrt::cli::devices_command(line);
    if (command == "bench") return polyrt::cli::bench_command(line);
    std::fprintf(stderr, "polyrt: unknown command '%s'\n\n%s", command.c_str(), kUsage);
    return 2;
  } catch (const polyrt::scheduler::InterruptedError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return e.exit_status();
  } catch (const polyrt::UsageError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const polyrt::InternalError& e) {
    std::fprintf(stderr, "polyrt: %s\n", e.what());
    return 3;
  } catch (const polyrt::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "polyrt: internal error: %s\n", e.what());
    return 3;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int status = dispatch(std::vector<std::string>(argv + 1, argv + argc));
  // Output that could not be written (a full disk, a closed pipe, /dev/full)
  // is a failure of every command, never a silent exit 0.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "polyrt: cannot write the output to standard output: %s\n",
                 std::strerror(errno));
    return status == 0 ? 2 : status;
  }
  return status;
}

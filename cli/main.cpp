// polyrt: compile and run procedural-data programs from the command line.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "polyrt/error.hpp"

namespace {

const char* kUsage =
    "usage: polyrt COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  check FILE                          compile FILE and report diagnostics\n"
    "  eval FILE [--set N=V]... INPUTS...  evaluate one coordinate, print every output\n"
    "  run FILE --cycles A..B [OPTIONS]    generate rows for coordinates A..B-1 with every core\n"
    "  plan FILE [--emit-llvm]             print the native plan (or its optimized LLVM IR)\n"
    "  nodes                               print the node reference (Markdown)\n"
    "\n"
    "Run 'polyrt COMMAND --help' for the options of a command.\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  polyrt::cli::CommandLine line(command, std::vector<std::string>(args.begin() + 1, args.end()));
  try {
    if (command == "check") return polyrt::cli::check_command(line);
    if (command == "eval") return polyrt::cli::eval_command(line);
    if (command == "run") return polyrt::cli::run_command(line);
    if (command == "nodes") return polyrt::cli::nodes_command(line);
    if (command == "plan") return polyrt::cli::plan_command(line);
    std::fprintf(stderr, "polyrt: unknown command '%s'\n\n%s", command.c_str(), kUsage);
    return 2;
  } catch (const polyrt::UsageError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const polyrt::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "polyrt: internal error: %s\n", e.what());
    return 3;
  }
}

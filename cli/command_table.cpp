#include "cli/command_table.hpp"

#include <string>

#include "cli/usage_error.hpp"
#include "polyrt/error.hpp"

namespace polyrt::cli {

namespace {

int version_with_no_arguments(CommandLine& args) {
  const std::string extra = !args.done()                  ? args.flag()
                            : !args.positionals().empty() ? args.positionals()[0]
                            : args.wants_help()           ? std::string("--help")
                                                          : std::string();
  if (!extra.empty()) {
    throw UsageError("polyrt " + args.command() + ": takes no arguments, got '" + extra + "'");
  }
  return version_command();
}

const Command kCommands[] = {
    {"check", "FILE", "compile FILE and report diagnostics", check_command},
    {"eval", "FILE [--set N=V]... INPUTS...", "evaluate one coordinate, print every output",
     eval_command},
    {"run", "FILE --cycles A..B [OPTIONS]", "generate rows for coordinates A..B-1 with every core",
     run_command},
    {"preview", "FILE [--rows N] [--cycles A..B]", "the first rows as an aligned table",
     preview_command},
    {"stats", "FILE --cycles A..B [--json]", "each column's statistics over a range",
     stats_command},
    {"plan", "FILE [--emit-llvm|--emit-asm]",
     "print the native plan (or its LLVM IR or machine code)", plan_command},
    {"devices", "", "list the CPU and GPUs the batch tier can use", devices_command},
    {"bench", "FILE [OPTIONS]", "measure FILE on every tier and device here", bench_command},
    {"version", "", "polyrt's version and how it was built (also --version)",
     version_with_no_arguments},
    {"nodes", "", "print the node reference (Markdown)", nodes_command},
};

}  // namespace

std::span<const Command> commands() {
  return kCommands;
}

std::string usage_text() {
  std::string out = "usage: polyrt COMMAND [OPTIONS]\n\ncommands:\n";
  for (const Command& c : kCommands) {
    std::string head = std::string("  ") + c.name + (*c.synopsis ? " " : "") + c.synopsis;
    if (head.size() < 38) head.resize(38, ' ');
    out += head + c.summary + "\n";
  }
  return out + "\nRun 'polyrt COMMAND --help' for the options of a command.\n";
}

}  // namespace polyrt::cli

#include "cli/command_table.hpp"

#include <algorithm>
#include <cstring>
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
    {"check", "FILE|DIR...", "compile FILE and report diagnostics, or list which programs compile",
     check_command},
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

// Worked examples, each run as written by the tests (Cli.HelpExamplesRunAsWritten)
// from a directory holding the examples.
const char* kExamples =
    "examples (from polyrt's source directory):\n"
    "  polyrt run examples/users.polydat --rows 1M --out users.csv.zst\n"
    "      a million rows of a users table as zstd-compressed CSV, on every core\n"
    "  polyrt run examples/users.polydat --rows 1M --format parquet --out users.parquet\n"
    "      the same rows typed, for DuckDB, polars or Spark (docs/output.md)\n"
    "  polyrt run examples/ladder.polydat --cycles 0..1000 --set tenant_seed=7 --set "
    "operation_seed=1\n"
    "      a parameter sweep: the other inputs fixed, the first one iterated\n"
    "  polyrt eval examples/users.polydat 42\n"
    "      one request's values, as a workload driver pulls them\n"
    "  polyrt preview examples/users.polydat --rows 5 --seed 7\n"
    "      the first rows of another, equally reproducible data set\n"
    "  polyrt stats examples/users.polydat --cycles 0..1M --html report.html\n"
    "      what each column holds, also as an HTML report\n";

std::string usage_text() {
  std::string out = "usage: polyrt COMMAND [OPTIONS]\n\ncommands:\n";
  size_t width = 0;
  for (const Command& c : kCommands) {
    width = std::max(width, std::strlen(c.name) + std::strlen(c.synopsis) + 5);
  }
  for (const Command& c : kCommands) {
    std::string head = std::string("  ") + c.name + (*c.synopsis ? " " : "") + c.synopsis;
    head.resize(width, ' ');
    out += head + c.summary + "\n";
  }
  return out + "\n" + kExamples + "\nRun 'polyrt COMMAND --help' for the options of a command.\n";
}

}  // namespace polyrt::cli

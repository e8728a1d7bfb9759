// polyrt bench: one program measured on every tier and device of this
// machine, each for a fixed time: compile times, the per-state tiers (pulls
// and per-request latency) and the batch tier (rows/s, output GB/s).
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>

#include "cli/command_line.hpp"
#include "cli/workload_file.hpp"
#include "polyrt/bench.hpp"
#include "polyrt/traversal.hpp"
#include "scheduler/jobs/progress_bar.hpp"

namespace polyrt::cli {

namespace {

const char* kBenchUsage =
    "usage: polyrt bench FILE [--seconds S] [--outputs a,b,...] [--set NAME=VALUE]... [--json]\n"
    "                    [--threads N] [--lib DIR]... [--partition [CURSOR=]I]... [-q]\n\n"
    "Measures FILE on every tier and device here, each for about S seconds (default 0.5),\n"
    "iterating the first input from 0 (other inputs and externs from --set):\n"
    "  compile    cold (an empty cache) and cached (compiled again in this process), per engine\n"
    "  per state  interpreter, closures, native: ns per pull, pulls/s, and the latency of one\n"
    "             request (set the inputs, pull every output): p50, p99, p99.9; and, when\n"
    "             every output is a scalar, native serving it as one State::request\n"
    "  batch      rows/s and output GB/s on 1 thread, on N threads (--threads, default every\n"
    "             core), on each GPU and on all devices together (the CPU's part on N threads),\n"
    "             and what all together make of the sum of each device alone\n"
    "Numbers from one run are comparable; --json prints them for machines. On a terminal,\n"
    "a run over a second counts its measurements on stderr (-q: never).\n";

struct Settings {
  std::string file;
  std::vector<std::string> outputs;  // empty: every output
  std::vector<std::pair<std::string, std::string>> sets;
  BenchOptions bench;
};

}  // namespace

int bench_command(CommandLine& args) {
  if (args.wants_help()) return print_compiling_help(kBenchUsage);
  Settings settings;
  bool json = false;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--seconds") {
      const Value v = parse_setting("--seconds", args.value_of(f), Type::F64);
      settings.bench.seconds = v.as_f64();
      if (!(settings.bench.seconds > 0) || settings.bench.seconds > 3600) {
        throw UsageError("polyrt bench: --seconds must be in (0, 3600]");
      }
    } else if (f == "--threads") {
      const Value v = parse_setting("--threads", args.value_of(f), Type::U64);
      if (v.as_u64() == 0 || v.as_u64() > 4096) {
        throw UsageError("polyrt bench: --threads must be in [1, 4096]");
      }
      settings.bench.threads = (size_t)v.as_u64();
    } else if (f == "--outputs") {
      settings.outputs = split_list(args.value_of(f), "bench");
    } else if (f == "--set") {
      take_setting(args.value_of(f), settings.sets, settings.bench.compile);
    } else if (f == "--json") {
      json = true;
    } else if (quiet_flag(f)) {
    } else if (!program_flag(args, f, settings.bench.compile)) {
      args.unknown_flag(f);
    }
  }
  settings.file = args.file();
  args.allow_positionals(1, "bench takes one FILE; options start with --");

  // Cold compiles fill an empty cache directory of their own, never the user's.
  const std::string cache = std::filesystem::temp_directory_path().string() + "/polyrt-bench-" +
                            std::to_string(::getpid());
  ::setenv("POLYRT_CACHE_DIR", cache.c_str(), 1);
  struct RemoveCache {
    std::string dir;
    ~RemoveCache() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } remove_cache{cache};

  // --set's text typed by the program's declarations (the interpreter's
  // compile builds no code: the timed compiles below stay cold).
  CompileOptions interpreter = settings.bench.compile;
  interpreter.engine = Engine::Interpreter;
  const ProgramCompiler compile = [&](const CompileOptions& options) {
    return compile_program_argument(settings.file, options);
  };
  const std::shared_ptr<const Program> p = compile(interpreter);
  if (p->input_names().empty()) {
    throw UsageError("polyrt bench: " + settings.file + " declares no input to iterate");
  }
  // A traversal's rows are not measured (yet): say so, never measure a
  // top-level binding as if it were them.
  const std::string traversal_note =
      p->traversal_count() ? "its traversal 'for " + traversal_info(*p, 0).comprehension +
                                 "' is not measured by bench (time `polyrt run` of its rows)"
                           : "";
  if (p->output_names().empty()) {
    throw UsageError("polyrt bench: " + settings.file + " has no top-level output" +
                     (traversal_note.empty() ? "" : "; " + traversal_note));
  }
  if (!traversal_note.empty()) {
    std::fprintf(stderr, "polyrt bench: %s measures its top-level outputs; %s\n",
                 settings.file.c_str(), traversal_note.c_str());
  }
  apply_settings(*p, settings.sets, "bench", settings.bench.coordinates);
  settings.bench.outputs = settings.outputs;
  check_outputs("bench", settings.outputs, *p, settings.file);
  // Each measurement takes about --seconds: a progress line counts them.
  std::optional<scheduler::ProgressBar> progress;
  settings.bench.on_measure = [&](size_t done, size_t total) {
    if (!progress) progress.emplace(total, "polyrt bench", "measurements");
    progress->advance(done - progress->done());
  };
  const BenchReport report = bench_program(settings.file, compile, settings.bench);
  if (progress) progress->finish();
  for (const std::string& w : report.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  std::fputs(json ? report.json().c_str() : report.text().c_str(), stdout);
  return 0;
}

}  // namespace polyrt::cli

// polyrt check: one program's diagnostics, or, for several programs and
// directories of them, one line each saying what compiles and why the rest
// do not (text or JSON Lines), so a user sees at a glance which of their
// workloads run.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli/command_line.hpp"
#include "cli/workload_file.hpp"
#include "polyrt/polyrt.hpp"
#include "scheduler/encoding/row_format.hpp"

namespace polyrt::cli {

namespace {

// Each block of a workload file, as path#BLOCK (none when it has none).
std::vector<std::string> blocks_of(const std::string& path) {
  std::vector<std::string> out;
  for (const WorkloadBlock& b : read_workload(path).blocks) out.push_back(path + "#" + b.key);
  return out;
}

// The programs named: each FILE as it is (each block of a workload without
// #BLOCK), and under each DIR every .polydat file and every block of every
// .yaml or .yml workload, in name order.
std::vector<std::string> programs_named(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
      if (names_workload(path) && path.find('#') == std::string::npos) {
        const std::vector<std::string> blocks = blocks_of(path);
        if (blocks.empty()) throw UsageError("polyrt check: " + path + " has no bindings block");
        out.insert(out.end(), blocks.begin(), blocks.end());
      } else {
        out.push_back(path);
      }
      continue;
    }
    std::vector<std::string> files;
    for (auto it = std::filesystem::recursive_directory_iterator(
             path, std::filesystem::directory_options::skip_permission_denied, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (!it->is_regular_file(error)) continue;
      if (it->path().extension() == ".polydat" || names_workload(it->path().string())) {
        files.push_back(it->path().string());
      }
    }
    if (error) throw UsageError("polyrt check: cannot list '" + path + "': " + error.message());
    // Files in name order; a workload's blocks in its own order.
    std::sort(files.begin(), files.end());
    const size_t before = out.size();
    for (const std::string& file : files) {
      if (!names_workload(file)) {
        out.push_back(file);
        continue;
      }
      try {
        const std::vector<std::string> blocks = blocks_of(file);
        out.insert(out.end(), blocks.begin(), blocks.end());
      } catch (const UsageError&) {  // YAML that is no workload: not a program
      }
    }
    if (out.size() == before) {
      throw UsageError("polyrt check: " + path + " holds no .polydat file or workload block");
    }
  }
  return out;
}

// The message of an error's first line, without its "FILE:LINE:COL: error: ".
std::string why(const std::exception& e) {
  std::string first = e.what();
  first = first.substr(0, first.find('\n'));
  const size_t marker = first.find(": error: ");
  return marker == std::string::npos ? first : first.substr(marker + 9);
}

struct Verdict {
  std::string line, json;
  bool ok;
};

Verdict check_one(const std::string& file, const CompileOptions& options) {
  const std::string quoted = scheduler::json_string(file);
  try {
    const auto program = compile_program_argument(file, options);
    const size_t inputs = program->input_names().size(), externs = program->externs().size(),
                 outputs = program->output_names().size();
    return {file + ": ok (" + std::to_string(inputs) + " inputs, " + std::to_string(externs) +
                " externs, " + std::to_string(outputs) + " outputs)",
            "{\"file\":" + quoted + ",\"ok\":true,\"inputs\":" + std::to_string(inputs) +
                ",\"externs\":" + std::to_string(externs) +
                ",\"outputs\":" + std::to_string(outputs) + "}",
            true};
  } catch (const CompileError& e) {
    const std::string at =
        e.line() ? ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) : "";
    return {file + at + ": refused: " + why(e),
            "{\"file\":" + quoted + ",\"ok\":false,\"line\":" + std::to_string(e.line()) +
                ",\"column\":" + std::to_string(e.column()) +
                ",\"error\":" + scheduler::json_string(why(e)) + "}",
            false};
  } catch (const Error& e) {
    return {
        file + ": refused: " + why(e),
        "{\"file\":" + quoted + ",\"ok\":false,\"error\":" + scheduler::json_string(why(e)) + "}",
        false};
  }
}

}  // namespace

int check_command(CommandLine& args) {
  static const char* usage =
      "usage: polyrt check FILE|DIR... [--json] [--set NAME=VALUE]... [--lib DIR]...\n"
      "                    [--plugin LIB]... [--partition [CURSOR=]I]...\n"
      "       polyrt check FILE --dump-after EXPANSION\n\n"
      "Compiles FILE and reports its diagnostics. Exit status 0 when it compiles, 1 when not.\n"
      "FILE may be an nmbrs workload, workload.yaml#BLOCK (a bindings block with the\n"
      "workload's params), or workload.yaml for each of its blocks.\n"
      "Several FILEs, a DIR (every .polydat file and workload under it, in name order) or\n"
      "--json list\n"
      "instead one line per program: FILE: ok (N inputs, N externs, N outputs), or\n"
      "FILE:LINE:COL: refused: WHY; then how many compile. --json writes each line as a\n"
      "JSON object ({\"file\", \"ok\", \"inputs\", \"externs\", \"outputs\"} or {\"file\", "
      "\"ok\",\n"
      "\"line\", \"column\", \"error\"}). The exit status is 0 when every program compiles.\n"
      "--lib DIR adds a directory of modules (searched in order, after FILE's directory\n"
      "and before POLYRT_LIB_PATH and the standard library); --plugin LIB loads a library\n"
      "of host nodes (docs/embedding.md, every command takes it); --partition the\n"
      "partition a top-level cursor takes; --set a value for an extern or a name the\n"
      "programs read without declaring it (as a workload's params; see polyrt run).\n"
      "--dump-after EXPANSION prints FILE's syntax tree after that step of the front\n"
      "end (for debugging; an unknown name lists them all: producers, tiles,\n"
      "emitted_rows, modules, table_values), the program's and then each traversal\n"
      "body's, as the front end rewrote it.\n";
  if (args.wants_help()) return print_compiling_help(usage);
  CompileOptions options;
  std::vector<std::pair<std::string, std::string>> sets;
  bool json = false;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--json") {
      json = true;
    } else if (f == "--dump-after") {
      options.dump_after = args.value_of(f);
      options.dump_sink = [](std::string_view tree) {
        std::fwrite(tree.data(), 1, tree.size(), stdout);
      };
    } else if (f == "--set") {
      take_setting(args.value_of(f), sets, options);
    } else if (!program_flag(args, f, options)) {
      args.unknown_flag(f);
    }
  }
  const std::string& first = args.file();
  std::error_code error;
  const bool several_blocks = names_workload(first) && first.find('#') == std::string::npos &&
                              read_workload(first).blocks.size() != 1;
  if (!json && args.positionals().size() == 1 && !std::filesystem::is_directory(first, error) &&
      !several_blocks) {
    auto program = compile_program_argument(first, options);
    for (const std::string& w : program->warnings()) std::fprintf(stderr, "%s\n", w.c_str());
    std::printf("%s: ok (%zu inputs, %zu externs, %zu outputs)\n", first.c_str(),
                program->input_names().size(), program->externs().size(),
                program->output_names().size());
    return 0;
  }
  if (!options.dump_after.empty()) {
    throw UsageError("polyrt check: --dump-after shows the tree of one program, FILE");
  }
  const std::vector<std::string> files = programs_named(args.positionals());
  size_t compiled = 0;
  for (const std::string& file : files) {
    const Verdict v = check_one(file, options);
    compiled += v.ok;
    std::printf("%s\n", (json ? v.json : v.line).c_str());
  }
  if (!json) std::printf("%zu of %zu compile\n", compiled, files.size());
  return compiled == files.size() ? 0 : 1;
}

}  // namespace polyrt::cli

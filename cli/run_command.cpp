// polyrt run: rows for a coordinate range, evaluated on every core.
#include <charconv>
#include <cstdio>
#include <thread>

#include "cli/command_line.hpp"
#include "polyrt/polyrt.hpp"
#include "scheduler/batch_job.hpp"
#include "scheduler/range_job.hpp"

namespace polyrt::cli {

namespace {

const char* kRunUsage =
    "usage: polyrt run FILE --cycles A..B [options]\n\n"
    "Iterates the first input over [A, B) and writes one row per coordinate, in order.\n"
    "The batch tier (default) evaluates columns with vectorized native kernels on every\n"
    "core; --engine selects a per-state tier instead (the same values).\n\n"
    "options:\n"
    "  --cycles A..B         the half-open coordinate range (required)\n"
    "  --outputs a,b,...     columns (default: every named binding, in source order)\n"
    "  --format csv|tsv|jsonl|npy  output format (default csv; csv and tsv have a header\n"
    "                        line; npy writes DIR/<output>.npy per column, needs --out DIR)\n"
    "  --out PATH            write to PATH (atomically for a regular file or an npy\n"
    "                        directory; default stdout)\n"
    "  --set NAME=VALUE      an extern, or another input (repeatable)\n"
    "  --threads N           worker threads (default: every core)\n"
    "  --engine E            batch, interpreter, closures or native (default batch)\n"
    "  --provenance M        auto, raw, pull or pushpull (slot engines; default auto)\n";

uint64_t parse_u64_arg(const std::string& text, const std::string& what) {
  uint64_t v = 0;
  auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size()) {
    throw UsageError("polyrt run: " + what + " must be an unsigned integer, got '" + text + "'");
  }
  return v;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

int run_command(CommandLine& args) {
  if (!args.done() && (args.peek() == "--help" || args.peek() == "-h")) {
    std::fputs(kRunUsage, stdout);
    return 0;
  }
  if (args.done() || args.is_flag()) throw UsageError("polyrt run: missing FILE");
  const std::string file = args.next();
  std::optional<std::pair<uint64_t, uint64_t>> cycles;
  std::vector<std::string> outputs;
  std::string out_path;
  std::vector<std::pair<std::string, std::string>> sets;
  scheduler::RangeJob job;
  CompileOptions options;
  bool batch = true;
  bool npy = false;
  while (!args.done()) {
    if (!args.is_flag()) throw UsageError("polyrt run: unexpected argument '" + args.peek() + "'");
    const std::string f = args.flag();
    if (f == "--cycles") {
      const std::string v = args.value_of(f);
      const size_t dots = v.find("..");
      if (dots == std::string::npos)
        throw UsageError("polyrt run: --cycles expects A..B, got '" + v + "'");
      const uint64_t a = parse_u64_arg(v.substr(0, dots), "the start of --cycles");
      const uint64_t b = parse_u64_arg(v.substr(dots + 2), "the end of --cycles");
      if (b < a) throw UsageError("polyrt run: --cycles " + v + " ends before it starts");
      cycles = {a, b};
    } else if (f == "--outputs") {
      outputs = split_list(args.value_of(f));
    } else if (f == "--format") {
      const std::string format = args.value_of(f);
      npy = format == "npy";
      if (!npy) job.format = scheduler::parse_row_format(format);
    } else if (f == "--out") {
      out_path = args.value_of(f);
    } else if (f == "--set") {
      sets.push_back(split_assignment(args.value_of(f)));
    } else if (f == "--threads") {
      job.threads = parse_u64_arg(args.value_of(f), "--threads");
      if (job.threads == 0 || job.threads > 4096)
        throw UsageError("polyrt run: --threads must be in [1, 4096]");
    } else if (!engine_flag(args, f, options, &batch)) {
      args.unknown_flag(f);
    }
  }
  if (!cycles) throw UsageError("polyrt run: --cycles A..B is required");
  if (npy && !batch)
    throw UsageError("polyrt run: --format npy runs on the batch tier (drop --engine)");
  if (npy && out_path.empty()) throw UsageError("polyrt run: --format npy needs --out DIR");

  job.program = compile_file(file, options);
  const Program& p = *job.program;
  if (p.input_names().empty())
    throw UsageError("polyrt run: " + file + " declares no input to iterate");
  job.first = cycles->first;
  job.last = cycles->second;
  job.coordinates.assign(p.input_names().size(), 0);
  std::vector<bool> coordinate_set(p.input_names().size(), false);
  coordinate_set[0] = true;
  std::vector<bool> extern_set(p.externs().size(), false);
  for (const auto& [name, text] : sets) {
    bool found = false;
    for (size_t c = 0; c < p.input_names().size() && !found; ++c) {
      if (p.input_names()[c] != name) continue;
      if (c == 0)
        throw UsageError("polyrt run: '" + name + "' is iterated by --cycles; do not --set it");
      job.coordinates[c] = parse_value(text, Type::U64).as_u64();
      coordinate_set[c] = found = true;
    }
    for (size_t e = 0; e < p.externs().size() && !found; ++e) {
      if (p.externs()[e].name != name) continue;
      job.externs.emplace_back(name, parse_value(text, p.externs()[e].type));
      extern_set[e] = found = true;
    }
    if (!found)
      throw UsageError("polyrt run: --set " + name +
                       ": the program has no input or extern named '" + name + "'");
  }
  for (size_t c = 0; c < coordinate_set.size(); ++c) {
    if (!coordinate_set[c]) {
      throw UsageError("polyrt run: input '" + p.input_names()[c] + "' has no value; pass --set " +
                       p.input_names()[c] + "=VALUE");
    }
  }
  for (size_t e = 0; e < extern_set.size(); ++e) {
    if (!extern_set[e] && p.externs()[e].default_value.is_none()) {
      throw UsageError("polyrt run: extern '" + p.externs()[e].name +
                       "' has no default; pass --set " + p.externs()[e].name + "=VALUE");
    }
  }
  job.outputs = outputs.empty() ? p.output_names() : outputs;
  for (const std::string& name : job.outputs) {
    if (!p.output_index(name))
      throw UsageError("polyrt run: --outputs names '" + name + "', which is not a binding of " +
                       file);
  }

  if (npy) {
    scheduler::run_batch_npy_job(job, out_path);
    return 0;
  }
  scheduler::OutputSink sink(out_path);
  if (batch) {
    scheduler::run_batch_text_job(job, sink);
  } else {
    scheduler::run_range_job(job, sink);
  }
  sink.commit();
  return 0;
}

}  // namespace polyrt::cli

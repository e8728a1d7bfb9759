// polyrt run: rows for a coordinate range, evaluated on every core.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>

#include "cli/command_line.hpp"
#include "cli/run_parts.hpp"
#include "cli/workload_file.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "polyrt/traversal.hpp"
#include "polyrt/traversal_rows.hpp"
#include "scheduler/jobs/batch_job.hpp"
#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/range_job.hpp"
#include "scheduler/jobs/ranks.hpp"
#include "scheduler/jobs/traversal_job.hpp"

namespace polyrt::cli {

namespace {

const char* kRunUsage =
    "usage: polyrt run FILE --cycles A..B [options]\n"
    "       polyrt run FILE --rows N [options]\n\n"
    "Iterates the first input over [A, B) and writes one row per coordinate, in order.\n"
    "The batch tier (default) evaluates columns with vectorized native kernels on every\n"
    "core, or on a GPU (--device); --engine selects a per-state tier instead (the same\n"
    "values).\n\n"
    "options:\n"
    "  --cycles RANGE        the coordinates: A..B (B excluded), A..=B (B included) or\n"
    "                        A.. (to the end of the u64 range); bounds as in a program\n"
    "                        (10M, 1Gi, 0x10); required unless --rows is given or the\n"
    "                        program has a top-level cursor (default: its slice, 0..size)\n"
    "  --rows N              at most N rows: the first N of --cycles (default 0..), so\n"
    "                        --rows 1M is --cycles 0..1M and --cycles 5.. --rows 10 is 5..15\n"
    "  --outputs a,b,...     columns (default: every named binding, in source order)\n"
    "  --no-nulls            refuse to run when an output may be null (null_if, an if with\n"
    "                        a None branch), which is otherwise an empty field, JSON's null\n"
    "                        or Arrow's null\n"
    "  --format F            csv (default), tsv, jsonl, text, npy, parquet, arrow or arrows:\n"
    "                        csv and tsv have a header line; text writes one str output's\n"
    "                        rows as they are, one per line; npy writes DIR/<output>.npy\n"
    "                        per column, needs --out DIR; parquet (zstd by default), arrow\n"
    "                        (the Arrow IPC file) and arrows (the IPC stream, for a pipe)\n"
    "                        keep every type (see docs/output.md)\n"
    "  --out PATH            write to PATH (atomically for a regular file or an npy\n"
    "                        directory; default stdout); a name ending in .gz or .zst\n"
    "                        is compressed so (csv, tsv, jsonl, text)\n"
    "  --compress C[:LEVEL]  none, gzip or zstd, on every core (default: by --out's\n"
    "                        suffix; none for stdout); LEVEL gzip 1-9, zstd 1-19 (both 1);\n"
    "                        parts are named <table>.<K>.csv.gz or .csv.zst; parquet's\n"
    "                        pages: zstd (default), snappy, gzip or none; arrow: none\n"
    "                        (default) or zstd\n"
    "  --set NAME=VALUE      an extern's value, or another input's; a name the program\n"
    "                        reads without declaring it becomes an extern of this value\n"
    "                        (u64, f64, bool or str as the text reads; repeatable)\n"
    "  --threads N           worker threads (default: every core)\n"
    "  --device D            cpu, gpu, a GPU's index (see polyrt devices), auto or all: the\n"
    "                        batch tier's device (default auto: the CPU and every usable\n"
    "                        GPU, measured on the first rows, then those worth their cost;\n"
    "                        all: every usable GPU and the CPU cores together)\n"
    "  -q, --quiet           no progress line (shown on a terminal once a run takes over a\n"
    "                        second: rows, percent, rows/s and the time left)\n"
    "  -v, --verbose         say on stderr which devices run the batch, what auto chose and\n"
    "                        why, and after it each device's share of the rows and speed\n"
    "  --engine E            batch, interpreter, closures or native (default batch)\n"
    "  --provenance M        auto, raw, pull or pushpull (slot engines; default auto)\n"
    "  --lib DIR             a directory of modules, searched after FILE's directory\n"
    "                        (repeatable; see docs/language.md)\n"
    "  --plugin LIB          a library of host nodes the program calls (repeatable;\n"
    "                        see docs/embedding.md)\n"
    "  --partition I         the partition a top-level cursor over a spec of several takes\n"
    "                        (CURSOR=I for one cursor; repeatable; see docs/language.md)\n"
    "  --parts N             split the range into N contiguous parts, one file each under\n"
    "                        --out DIR: DIR/<table>.<K>.<csv|tsv|jsonl> (table: FILE's\n"
    "                        name without .polydat) or DIR/part-K/<output>.npy; part K\n"
    "                        covers [A + (K-1)*C/N, A + K*C/N) of the C rows, rounded down\n"
    "  --part K              write only part K (1..N) of --parts N, e.g. one per host\n"
    "  --rate R              at most R rows per second, row by row (csv, tsv, jsonl): to feed\n"
    "                        a load generator; a slow output is reported, never caught up\n"
    "                        by more than a second's rows\n";

// --rate R: a positive, finite number of rows per second (fractions allowed).
double parse_rate(const std::string& text) {
  double rate = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), rate);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size() ||
      !(rate > 0) || rate > 1e12) {
    throw UsageError("polyrt run: --rate must be a number of rows per second in (0, 1e12], got '" +
                     text + "'");
  }
  return rate;
}

// What `polyrt run`'s flags ask for.
struct RunRequest {
  std::optional<std::pair<uint64_t, uint64_t>> cycles;
  std::optional<uint64_t> rows;
  std::vector<std::string> outputs;
  std::string out_path;
  std::vector<std::pair<std::string, std::string>> sets;
  scheduler::RangeJob job{.device = BatchDevice::Auto};
  std::string device = "auto";
  bool device_given = false;
  CompileOptions options;
  bool batch = true;
  bool engine_given = false;  // --engine: the user's choice of tier
  std::optional<uint64_t> parts, part;
  std::optional<scheduler::Compression> compress;  // --compress; else --out's suffix says
  bool no_nulls = false;                           // --no-nulls
};

// One flag into `r`; false when it is none of run's own.
bool parse_run_flag(CommandLine& args, const std::string& f, RunRequest& r) {
  scheduler::RangeJob& job = r.job;
  if (f == "--cycles") {
    r.cycles = parse_cycles("run", args.value_of(f));
  } else if (f == "--rows") {
    r.rows = parse_u64_arg("run", args.value_of(f), "--rows");
  } else if (f == "--outputs") {
    r.outputs = split_list(args.value_of(f), "run");
  } else if (f == "--no-nulls") {
    r.no_nulls = true;
  } else if (f == "--format") {
    const std::string format = args.value_of(f);
    job.format = scheduler::find_output_format(format);
    if (!job.format) {
      throw UsageError("polyrt run: unknown --format '" + format +
                       "' (valid: " + scheduler::output_format_names() + ")" +
                       did_you_mean(format, scheduler::output_format_names()));
    }
  } else if (f == "--out") {
    r.out_path = args.value_of(f);
  } else if (f == "--compress") {
    const std::string value = args.value_of(f);
    try {
      r.compress = scheduler::parse_compression(value);
    } catch (const OutputError& e) {
      throw UsageError("polyrt run: --compress: " + std::string(e.what()) +
                       did_you_mean(value.substr(0, value.find(':')), scheduler::kCodecNames));
    }
  } else if (f == "--set") {
    take_setting(args.value_of(f), r.sets, r.options);
  } else if (f == "--threads") {
    job.threads = parse_u64_arg("run", args.value_of(f), "--threads");
    if (job.threads == 0 || job.threads > 4096)
      throw UsageError(
          "polyrt run: --threads must be in [1, 4096] (more than the machine's "
          "cores runs on every core)");
  } else if (f == "--device") {
    r.device = args.value_of(f);
    r.device_given = true;
    job.device = parse_device("run", r.device);
  } else if (f == "--parts") {
    r.parts = parse_u64_arg("run", args.value_of(f), "--parts");
    if (*r.parts == 0 || *r.parts > kMaxParts) {
      throw UsageError("polyrt run: --parts must be in [1, " + std::to_string(kMaxParts) +
                       "], got " + std::to_string(*r.parts));
    }
  } else if (f == "--rate") {
    job.rate = parse_rate(args.value_of(f));
  } else if (f == "--part") {
    r.part = parse_u64_arg("run", args.value_of(f), "--part");
  } else if (quiet_flag(f)) {
  } else if (f == "-v" || f == "--verbose") {
    job.verbose = true;
  } else {
    r.engine_given = r.engine_given || f == "--engine";
    return engine_flag(args, f, r.options, &r.batch);
  }
  return true;
}

// The flags' combinations that cannot run, refused before anything compiles.
void refuse_conflicts(const RunRequest& r) {
  if (!r.batch && r.device_given && r.job.device.kind != BatchDevice::Cpu) {
    throw UsageError("polyrt run: --device " + r.device +
                     " runs the batch tier; per-state engines (--engine) run on the CPU");
  }
  const scheduler::OutputFormat& format = *r.job.format;
  const std::string name(format.name());
  if (!format.text_rows() && !r.batch)
    throw UsageError("polyrt run: --format " + name + " runs on the batch tier (drop --engine)");
  if (format.writes_directory() && r.out_path.empty())
    throw UsageError("polyrt run: --format " + name + " needs --out DIR");
  if (!format.text_rows() && r.job.rate > 0) {
    throw UsageError("polyrt run: --rate paces text rows; " + name +
                     " columns are written as a whole");
  }
  if (r.part && !r.parts) throw UsageError("polyrt run: --part K needs --parts N");
  if (r.part && (*r.part == 0 || *r.part > *r.parts)) {
    throw UsageError("polyrt run: --part must be in 1.." + std::to_string(*r.parts) +
                     " (the --parts), got " + std::to_string(*r.part));
  }
  if (r.parts && r.out_path.empty()) {
    throw UsageError("polyrt run: --parts writes one file per part and needs --out DIR");
  }
  if (const std::optional<scheduler::Compression>& c = r.job.compression) {
    const std::vector<scheduler::Codec> codecs = format.codecs();
    if (codecs.empty() && c->codec != scheduler::Codec::None) {
      throw UsageError("polyrt run: --format " + name + " is not compressed (" +
                       std::string(scheduler::codec_name(c->codec)) +
                       " applies to csv, tsv, jsonl, text, parquet and arrow)");
    }
    if (!codecs.empty() && std::find(codecs.begin(), codecs.end(), c->codec) == codecs.end()) {
      throw UsageError("polyrt run: --format " + name + " takes --compress " +
                       scheduler::codec_names(codecs) + ", not " +
                       std::string(scheduler::codec_name(c->codec)));
    }
  }
}

// What a traversal's rows cannot be written with. Several traversals write
// their rows one after another, a header each: only text formats hold that.
void refuse_traversal_conflicts(const RunRequest& r, const Program& p) {
  const size_t traversals = p.traversal_count();
  const std::string_view format = r.job.format->name();
  if (traversals > 1 && r.parts) {
    throw UsageError("polyrt run: the program has " + std::to_string(traversals) +
                     " traversals, whose rows have no one set of columns for parts to share; "
                     "drop --parts (or split the program)");
  }
  // Every row holds the iterated input and each element beside the body's
  // outputs: formats that cannot hold those columns are refused for them.
  if (format == "text") {
    throw UsageError(
        "polyrt run: --format text writes one text column, but a traversal's rows hold the "
        "iterated input and the elements beside the body's outputs; write csv, tsv or jsonl");
  }
  for (size_t t = 0; t < traversals; ++t) {
    const TraversalInfo info = flattened_traversal_info(p, t);
    for (size_t e = 0; e < info.names.size() && format == "npy"; ++e) {
      if (is_text(info.types[e])) {
        throw UsageError(
            "polyrt run: npy output holds numeric, bool and vector columns, but the "
            "traversal's element '" +
            info.names[e] + "' is " + std::string(type_name(info.types[e])) +
            " (every element is a column of its rows); write csv, tsv, jsonl, parquet or arrow");
      }
    }
  }
  const std::vector<TraversalRows> runners = scheduler::traversal_runners(r.job, r.batch);
  scheduler::refuse_unwritable_traversals(r.job, runners);
  for (const TraversalRows& rows : runners) {
    if (r.device_given && r.job.device.kind != BatchDevice::Cpu &&
        r.job.device.kind != BatchDevice::Auto &&
        rows.batch_rows() == TraversalRows::BatchRows::None) {
      throw UsageError("polyrt run: --device " + r.device +
                       ": this traversal's rows run on a per-state engine, on the CPU (a "
                       "traversal over a literal lattice whose body reads nothing of the program "
                       "runs in the batch tier, and so do activations of " +
                       std::to_string(kBatchActivationCycles) +
                       " cycles or more of a body with a cursor)");
    }
  }
}

// The cycles of a run without --cycles: a program with top-level cursors
// walks its narrowest cursor's slice once; with --rows, any other program
// starts at 0.
std::pair<uint64_t, uint64_t> default_cycles(const Program& p, bool rows_given) {
  std::optional<uint64_t> size;
  for (const CursorInfo& c : p.cursors()) {
    if (c.size) size = std::min(size.value_or(*c.size), *c.size);
  }
  if (size) return {0, *size};
  if (rows_given) return parse_cycles("run", "0..");
  throw UsageError("polyrt run: --cycles A..B or --rows N is required" +
                   std::string(p.cursors().empty()
                                   ? ""
                                   : " (the program's cursors have bounds known only when it "
                                     "runs, so they give no default)"));
}

// The cursor whose wall-clock rule sets a run's length: a time-boxed one
// (until_elapsed, ...) when neither --cycles, --rows nor a sized cursor does.
const CursorInfo* time_boxing_cursor(const RunRequest& r, const Program& p) {
  if (r.cycles || r.rows) return nullptr;
  const CursorInfo* timed = nullptr;
  for (const CursorInfo& c : p.cursors()) {
    if (c.size) return nullptr;
    if (c.wall_clock && !timed) timed = &c;
  }
  return timed;
}

// A run as long as a time-boxed cursor's rule says, as nmbrs runs the phase:
// its rows are decided as they are issued, so it runs on the per-state
// engines (as --engine native), to one output of text rows.
void take_time_box(RunRequest& r, const CursorInfo& c, const Program& p) {
  const std::string why = "cursor '" + c.name + "' runs until " +
                          std::to_string(c.wall_clock->min_ms) +
                          " ms have passed (nmbrs's time box), so its rows are counted as they "
                          "are made; ";
  if (!r.job.format->text_rows()) {
    throw UsageError("polyrt run: " + why + "it writes csv, tsv, jsonl or text, not " +
                     std::string(r.job.format->name()) + " (or bound it with --rows N)");
  }
  if (r.batch && r.engine_given) {
    throw UsageError("polyrt run: " + why +
                     "the batch tier needs the row count up front; drop --engine batch (the run "
                     "takes a per-state engine) or bound it with --rows N");
  }
  if (r.parts || p.traversal_count()) {
    throw UsageError("polyrt run: " + why +
                     (r.parts ? "it cannot be split into parts" : "it cannot feed a traversal") +
                     "; bound it with --rows N or --cycles A..B");
  }
  r.batch = false;
  r.job.wall_clock = c.wall_clock;
  r.cycles = {0, c.wall_clock->max_rows};
}

// The job: the program compiled, its range, settings and outputs checked.
void prepare_job(RunRequest& r, const std::string& file) {
  scheduler::RangeJob& job = r.job;
  job.program = compile_program_argument(file, r.options);
  const Program& p = *job.program;
  if (p.traversal_count() && p.input_names().empty()) refuse_inputless_traversal("run", file);
  if (const CursorInfo* timed = time_boxing_cursor(r, p)) take_time_box(r, *timed, p);
  if (!r.cycles) r.cycles = default_cycles(p, r.rows.has_value());
  if (r.rows) r.cycles->second = std::min(r.cycles->second, *r.rows);
  job.first = r.cycles->first;
  job.count = r.cycles->second;
  apply_settings(p, r.sets, "run", job.coordinates, true);
  refuse_outputs_of_several_traversals("run", p, r.outputs);
  const size_t traversals = p.traversal_count();
  std::vector<const Program*> row_programs{&p};
  if (traversals) row_programs.clear();
  for (size_t t = 0; t < traversals; ++t) {
    row_programs.push_back(flattened_traversal_info(p, t).body.get());
  }
  if (traversals <= 1) {
    job.outputs = r.outputs.empty() ? row_programs[0]->output_names() : r.outputs;
    check_outputs("run", job.outputs, *row_programs[0],
                  (traversals ? "the traversal's body in " : "") + file);
  }
  if (traversals) refuse_traversal_conflicts(r, p);
  for (const Program* rows : row_programs) {
    for (const std::string& name : job.outputs.empty() ? rows->output_names() : job.outputs) {
      if (r.no_nulls && rows->output_nullable(rows->require_output(name))) {
        throw UsageError("polyrt run: output '" + name +
                         "' may be null (null_if, null_with_probability or an if with a None "
                         "branch) and --no-nulls refuses it; drop --no-nulls, leave it out of "
                         "--outputs, or write default_or(" +
                         name + ", fallback)");
      }
    }
  }
  for (const std::string& w : p.warnings()) std::fprintf(stderr, "%s\n", w.c_str());
}

// Runs the job to one output, as parts, or as this MPI rank's part.
int execute(const RunRequest& r, const std::string& file) {
  const scheduler::RangeJob& job = r.job;
  // From here on SIGINT, SIGTERM and SIGHUP stop the job cleanly.
  const scheduler::Interruption::Guard interruptible;
  const auto run_to = [&](const scheduler::RangeJob& to_run, const std::string& path) {
    if (to_run.program->traversal_count()) {
      return scheduler::run_traversal_job(to_run, path, r.batch);
    }
    if (r.batch) {
      scheduler::run_batch_job(to_run, path);
    } else {
      scheduler::run_range_job(to_run, path);
    }
    return to_run.count;
  };
  const PartsTarget target{.dir = r.out_path,
                           .program_file = file,
                           .table = std::filesystem::path(file).stem().string()};
  if (const std::unique_ptr<scheduler::Ranks> ranks = scheduler::join_mpi_launch()) {
    if (r.parts) {
      throw UsageError(
          "polyrt run: under an MPI launch every rank writes one part; drop --parts "
          "and --part");
    }
    if (r.out_path.empty()) {
      throw UsageError("polyrt run: under an MPI launch the ranks write parts and need --out DIR");
    }
    if (job.program->traversal_count() > 1) {
      throw UsageError(
          "polyrt run: under an MPI launch the ranks write parts of one set of "
          "columns, and the program's traversals have one each; split the program");
    }
    if (job.wall_clock) {
      throw UsageError(
          "polyrt run: a time-boxed cursor's rows are counted as they are made, so ranks cannot "
          "share them; bound the run with --rows N or --cycles A..B");
    }
    return run_as_rank(*ranks, job, target, run_to);
  }
  if (!r.parts) {
    run_to(job, r.out_path);
    return 0;
  }
  run_parts(job, *r.parts, r.part, target, run_to);
  return 0;
}

}  // namespace

int run_command(CommandLine& args) {
  if (args.wants_help()) return print_compiling_help(kRunUsage);
  RunRequest request;
  while (!args.done()) {
    const std::string f = args.flag();
    if (!parse_run_flag(args, f, request)) args.unknown_flag(f);
  }
  const std::string file = args.file();
  args.allow_positionals(1, "run takes one FILE; options start with --");
  // Without --compress, a single file's name says (parts: --out is their
  // directory), else the format's default.
  request.job.compression = request.compress;
  if (const scheduler::Codec by_name = scheduler::codec_of_path(request.out_path);
      !request.compress && !request.parts && by_name != scheduler::Codec::None) {
    request.job.compression = scheduler::Compression{.codec = by_name};
  }
  refuse_conflicts(request);
  prepare_job(request, file);
  return execute(request, file);
}

}  // namespace polyrt::cli

// polyrt stats: each column's statistics over a range, computed in the
// batch tier by regenerating the rows (polyrt/stats.hpp), shown in the
// terminal (histograms as block characters) or as JSON.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "cli/command_line.hpp"
#include "cli/text_table.hpp"
#include "cli/workload_file.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/numeric_types.hpp"
#include "polyrt/stats.hpp"
#include "scheduler/output/output_target.hpp"

namespace polyrt::cli {

namespace {

const char* kStatsUsage =
    "usage: polyrt stats FILE --cycles A..B [--outputs a,b,...] [--json] [--log]\n"
    "                    [--html REPORT.html]\n"
    "                    [--set NAME=VALUE]... [--threads N] [--device D] [--lib DIR]... [-q]\n\n"
    "Each column's statistics over the rows of A..B, computed in the batch tier on every\n"
    "core (or --device) by generating the rows again for each pass: numbers get count,\n"
    "NaN and infinities, min, max, mean, standard deviation, the exact quantiles p1 p5\n"
    "p25 p50 p75 p95 p99 (order statistics, numpy's method=\"lower\") and a 40-bin\n"
    "histogram (--log: bar heights on a log scale); text gets distinct values (exact up\n"
    "to 1,000,000, then a HyperLogLog estimate with its error), lengths and the top\n"
    "values with exact counts; bools their share of true. --json prints one JSON\n"
    "document instead (docs/stats.md); --html also writes a self-contained HTML report\n"
    "(a section per column with its chart as inline SVG, then the program). On a terminal,\n"
    "a pass that takes over a second shows its progress on stderr (-q: never).\n";

// The histogram as one line of block characters, the tallest bin a full block.
std::string sparkline(const std::vector<uint64_t>& bins, bool log_scale) {
  static const char* const kBlocks[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  uint64_t top = 0;
  for (uint64_t b : bins) top = std::max(top, b);
  std::string out;
  for (uint64_t b : bins) {
    double level = 0;
    if (b && top) {
      level = log_scale ? std::log1p((double)b) / std::log1p((double)top) : (double)b / (double)top;
    }
    // Any nonempty bin shows at least the lowest block.
    const int index = b == 0 ? 0 : std::max(1, (int)std::lround(level * 8));
    out += kBlocks[index];
  }
  return out;
}

std::string column_text(const ColumnStats& s, bool log_scale) {
  std::string out = s.name + "  " + stats_type_text(s) + "  " + stats_count_text(s.rows) + " rows";
  if (s.nones && s.nones == s.rows) return out + ", all None\n";
  if (s.nones) {
    out += ", " + stats_count_text(s.nones) + " null (" +
           stats_share_text((double)s.nones / (double)s.rows) + ")";
  }
  out += "\n";
  if (s.numeric) {
    const NumericStats& n = *s.numeric;
    if (n.nan || n.positive_infinity || n.negative_infinity) {
      out += "  finite " + stats_count_text(n.finite) + "  NaN " + stats_count_text(n.nan) +
             "  +inf " + stats_count_text(n.positive_infinity) + "  -inf " +
             stats_count_text(n.negative_infinity) + "\n";
    }
    if (!n.finite) return out + "  no finite values\n";
    const auto shown = [&](const Value& v) { return stats_value_text(v, s.logical); };
    out += "  min " + shown(n.min) + "  max " + shown(n.max) + "  mean " +
           stats_mean_text(s, n.mean) + "  stddev " + stats_spread_text(s, n.stddev) + "\n  ";
    for (const auto& [p, v] : n.quantiles) {
      out += (p == n.quantiles.front().first ? "p" : "  p") +
             std::to_string((int)std::lround(p * 100)) + " " + shown(v);
    }
    out += "\n  " + sparkline(n.histogram, log_scale) + "  " + shown(n.min) + " .. " +
           shown(n.max) + (log_scale ? " (log)" : "") + "\n";
  }
  if (s.text) {
    const TextStats& t = *s.text;
    out += "  distinct " + stats_count_text(t.distinct) +
           (t.distinct_exact ? ""
                             : " (HyperLogLog estimate, standard error " +
                                   stats_number_text(100 * t.distinct_standard_error) + "%)") +
           "  length " + stats_count_text(t.min_length) + " .. " + stats_count_text(t.max_length) +
           " (mean " + stats_number_text(t.mean_length) + ")\n";
    // Bar, share and count in aligned columns, the value last.
    const size_t shown_top = std::min<size_t>(t.top.size(), 5);
    size_t count_width = 0;
    for (size_t k = 0; k < shown_top; ++k) {
      count_width = std::max(count_width, stats_count_text(t.top[k].second).size());
    }
    for (size_t k = 0; k < shown_top; ++k) {
      const double share = s.rows ? (double)t.top[k].second / (double)s.rows : 0;
      const std::string bar(std::lround(share * 20), '#');
      const std::string share_text = stats_share_text(share);
      const std::string count = stats_count_text(t.top[k].second);
      out += "  " + bar + std::string(21 - bar.size(), ' ') +
             std::string(7 - std::min<size_t>(7, share_text.size()), ' ') + share_text + "  " +
             std::string(count_width - count.size(), ' ') + count + "  " +
             fit(printable_cell(t.top[k].first), 40, "...") + "\n";
    }
    if (t.top_share_bound) out += "  (" + stats_top_bound_text(t) + ")\n";
  }
  if (s.trues) {
    out += "  true " + stats_share_text(s.rows ? (double)*s.trues / (double)s.rows : 0) + "  (" +
           stats_count_text(*s.trues) + ")\n";
  }
  return out;
}

// Writes `page` to `path` whole or not at all: a temporary beside it,
// renamed when written; a failure (an unwritable directory, a full disk)
// removes the temporary and says why.
void write_report(const std::string& path, const std::string& page, const Program& program) {
  if (scheduler::check_output_target(path, program.source_files(), "--html report")) {
    throw OutputError("--html " + path + ": not a regular file; give a file path for the report");
  }
  const scheduler::OutputTemporary temporary = scheduler::create_output_temporary(path);
  size_t written = 0;
  while (written < page.size()) {
    const ssize_t n = ::write(temporary.fd, page.data() + written, page.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(temporary.fd);
      ::unlink(temporary.path.c_str());
      throw OutputError("--html " + path + ": cannot write the report: " + why);
    }
    written += (size_t)n;
  }
  if (::close(temporary.fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temporary.path.c_str());
    throw OutputError("--html " + path + ": cannot write the report: " + why);
  }
  scheduler::commit_output_temporary(temporary.path, path);
}

}  // namespace

int stats_command(CommandLine& args) {
  if (args.wants_help()) return print_compiling_help(kStatsUsage);
  std::optional<std::pair<uint64_t, uint64_t>> cycles;
  std::vector<std::string> outputs;
  std::vector<std::pair<std::string, std::string>> sets;
  CompileOptions options;
  BatchOptions batch;
  bool json = false, log_scale = false;
  std::string html;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--cycles") {
      cycles = parse_cycles("stats", args.value_of(f));
    } else if (f == "--outputs") {
      outputs = split_list(args.value_of(f), "stats");
    } else if (f == "--set") {
      take_setting(args.value_of(f), sets, options);
    } else if (f == "--json") {
      json = true;
    } else if (f == "--log") {
      log_scale = true;
    } else if (quiet_flag(f)) {
    } else if (f == "--html") {
      html = args.value_of(f);
    } else if (f == "--threads") {
      batch.threads = parse_u64_arg("stats", args.value_of(f), "--threads");
    } else if (f == "--device") {
      batch.device = parse_device("stats", args.value_of(f));
    } else if (!program_flag(args, f, options)) {
      args.unknown_flag(f);
    }
  }
  const std::string& file = args.file();
  args.allow_positionals(1, "stats takes one FILE");
  if (!cycles) throw UsageError("polyrt stats: --cycles A..B is required");
  const auto program = compile_program_argument(file, options);
  if (program->input_names().empty()) {
    throw UsageError("polyrt stats: " + file + " declares no input to iterate");
  }
  if (program->traversal_count()) {
    throw UsageError("polyrt stats: " + file +
                     " has a traversal; stats reads a program's own rows (not yet a "
                     "traversal's)");
  }
  apply_settings(*program, sets, "stats", batch.coordinates, true);
  batch.outputs = outputs;
  if (!html.empty()) {
    // Refused before the rows are generated: a report nowhere to go.
    const size_t slash = html.rfind('/');
    const std::string dir =
        slash == std::string::npos ? "." : html.substr(0, std::max<size_t>(slash, 1));
    if (::access(dir.c_str(), W_OK) != 0) {
      throw OutputError("--html " + html + ": cannot write into '" + dir +
                        "': " + std::strerror(errno));
    }
  }
  const StatsReport report = compute_stats(program, batch, cycles->first, cycles->second);
  if (!html.empty()) {
    write_report(html, stats_html(report, file, program->source_text()), *program);
  }
  std::string out;
  if (json) {
    out = stats_json(report);
  } else {
    for (const ColumnStats& c : report.columns) out += column_text(c, log_scale) + "\n";
    out += stats_count_text(report.count) + " rows from " + program->input_names()[0] + " = " +
           std::to_string(report.first) + " on " + report.device + ", " +
           stats_passes_text(report) + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace polyrt::cli

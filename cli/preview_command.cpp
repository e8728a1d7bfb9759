// polyrt preview: the first rows of a program (or of each of its traversals) as an
// aligned table, computed on a per-state engine: a few rows need no batch.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cli/command_line.hpp"
#include "cli/text_table.hpp"
#include "cli/workload_file.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "polyrt/traversal.hpp"
#include "polyrt/traversal_rows.hpp"

namespace polyrt::cli {

namespace {

const char* kPreviewUsage =
    "usage: polyrt preview FILE [--cycles A..B] [--rows N] [--outputs a,b,...]\n"
    "                      [--set NAME=VALUE]... [--width W] [--lib DIR]... [--partition I]\n\n"
    "Prints the first N rows (default 10) from coordinate A (default 0; --cycles A..B\n"
    "stops at B) as an aligned table: each column's name and type, None as ∅ (null when\n"
    "stdout is not a terminal), text cut to fit the terminal's width (--width W, or the\n"
    "COLUMNS environment variable; no limit when stdout is not a terminal), the middle\n"
    "columns elided when they cannot fit. A program with a traversal previews its rows;\n"
    "one with several, a table of each traversal's rows, one after another.\n";

struct PreviewRequest {
  std::pair<uint64_t, uint64_t> cycles{0, 10};
  bool cycles_given = false;
  uint64_t rows = 10;
  std::optional<size_t> width;
  std::vector<std::string> outputs;
  std::vector<std::pair<std::string, std::string>> sets;
  CompileOptions options;
};

// The line width: --width, else COLUMNS, else the terminal's; none for a
// pipe or file.
std::optional<size_t> line_width(const PreviewRequest& r, bool terminal) {
  if (r.width) return r.width;
  if (const char* columns = std::getenv("COLUMNS")) {
    const long v = std::strtol(columns, nullptr, 10);
    if (v > 0) return (size_t)v;
  }
  winsize size{};
  if (terminal && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return std::nullopt;
}

// A value as its cell; one of an output with a logical type as that type's
// text (ISO 8601, a plain decimal).
std::optional<std::string> cell_of(const Value& v, LogicalType logical = {}) {
  if (v.is_none()) return std::nullopt;
  if (!logical.is_none()) return logical_text(logical, word_of(v));
  return v.to_string();
}

// A column's type as the table's header shows it: its logical type's name
// when it has one.
std::string type_shown(Type type, LogicalType logical) {
  return logical.is_none() ? std::string(type_name(type)) : logical_type_name(logical);
}

// The rows of a plain program: one state, the first input iterated.
void program_rows(const Program& p, const PreviewRequest& r, std::vector<uint64_t> coordinates,
                  TextTable& table) {
  std::vector<size_t> outputs;
  for (const std::string& name : r.outputs.empty() ? p.output_names() : r.outputs) {
    outputs.push_back(p.require_output(name));
    table.names.push_back(name);
    table.types.push_back(
        type_shown(p.output_type(outputs.back()), p.output_logical_type(outputs.back())));
  }
  State state = p.new_state();
  const uint64_t count = std::min(r.rows, r.cycles.second);
  for (uint64_t k = 0; k < count; ++k) {
    if (!coordinates.empty()) {  // a program with no input shows its constants each row
      coordinates[0] = r.cycles.first + k;
      state.set_inputs(coordinates);
    }
    std::vector<std::optional<std::string>> row;
    for (size_t o : outputs) row.push_back(cell_of(state.pull_at(o), p.output_logical_type(o)));
    table.rows.push_back(std::move(row));
  }
}

// The rows of traversal `index`, as polyrt run writes them: the iterated
// input, every level's elements, the innermost body's outputs.
void traversal_rows(std::shared_ptr<const Program> p, size_t index, const PreviewRequest& r,
                    std::vector<uint64_t> coordinates, TextTable& table) {
  TraversalRowsOptions options;
  options.traversal = index;
  options.outputs = r.outputs;
  options.coordinates = std::move(coordinates);
  options.threads = 1;
  const TraversalRows rows(std::move(p), options);
  for (size_t k = 0; k < rows.names().size(); ++k) {
    table.names.push_back(rows.names()[k]);
    table.types.push_back(type_shown(rows.types()[k], rows.logical_types()[k]));
  }
  const std::vector<Column> columns = rows.evaluate(r.cycles.first, r.cycles.second, r.rows);
  const size_t count = columns.empty() ? 0 : columns[0].words.size();
  for (size_t row = 0; row < count; ++row) {
    std::vector<std::optional<std::string>> cells;
    for (const Column& c : columns) cells.push_back(cell_of(c.value(row), c.logical));
    table.rows.push_back(std::move(cells));
  }
}

}  // namespace

int preview_command(CommandLine& args) {
  if (args.wants_help()) return print_compiling_help(kPreviewUsage);
  PreviewRequest r;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--cycles") {
      r.cycles = parse_cycles("preview", args.value_of(f));
      r.cycles_given = true;
    } else if (f == "--rows") {
      const std::string text = args.value_of(f);
      r.rows = parse_u64_arg("preview", text, "--rows");
      if (r.rows == 0 || r.rows > 1'000'000) {
        throw UsageError("polyrt preview: --rows must be in [1, 1000000], got " + text);
      }
    } else if (f == "--width") {
      const std::string text = args.value_of(f);
      r.width = (size_t)parse_u64_arg("preview", text, "--width");
      if (*r.width < 10 || *r.width > 100'000) {
        throw UsageError("polyrt preview: --width must be in [10, 100000], got " + text);
      }
    } else if (f == "--outputs") {
      r.outputs = split_list(args.value_of(f), "preview");
    } else if (f == "--set") {
      take_setting(args.value_of(f), r.sets, r.options);
    } else if (!engine_flag(args, f, r.options)) {
      args.unknown_flag(f);
    }
  }
  const std::string& file = args.file();
  args.allow_positionals(1, "preview takes one FILE");
  const auto program = compile_program_argument(file, r.options);
  const Program& p = *program;
  if (!r.cycles_given) r.cycles = {0, ~uint64_t{0}};
  if (!r.cycles_given && !p.cursors().empty() && p.cursors()[0].size) {
    r.cycles = {0, *p.cursors()[0].size};
  }
  std::vector<uint64_t> coordinates;
  apply_settings(p, r.sets, "preview", coordinates, true);
  if (p.traversal_count() && p.input_names().empty()) refuse_inputless_traversal("preview", file);
  refuse_outputs_of_several_traversals("preview", p, r.outputs);
  // One table, or one per traversal (each with its comprehension above it),
  // as polyrt run writes their rows one traversal after another.
  const size_t tables = std::max<size_t>(p.traversal_count(), 1);
  const bool terminal = isatty(STDOUT_FILENO) == 1;
  std::string out;
  for (size_t t = 0; t < tables; ++t) {
    TextTable table;
    if (p.traversal_count()) {
      traversal_rows(program, t, r, coordinates, table);
    } else {
      program_rows(p, r, coordinates, table);
    }
    if (tables > 1) {
      out += (t ? "\n" : "") + std::string("traversal ") + std::to_string(t) + ": for " +
             flattened_traversal_info(p, t).comprehension + "\n";
    }
    out += render_table(table, TableStyle{terminal, line_width(r, terminal)});
    out += std::to_string(table.rows.size()) + (table.rows.size() == 1 ? " row" : " rows") +
           (p.input_names().empty()
                ? " (no input: the same constants each row)"
                : " from " + p.input_names()[0] + " = " + std::to_string(r.cycles.first)) +
           "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace polyrt::cli

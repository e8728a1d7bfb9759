// The eval and nodes subcommands (check and run have their own files).
#include <cstdio>

#include "cli/command_line.hpp"
#include "cli/workload_file.hpp"
#include "polyrt/introspect.hpp"
#include "polyrt/polyrt.hpp"
#include "polyrt/traversal.hpp"

namespace polyrt::cli {

namespace {

// One opening: a line per tuple with its elements and the body's outputs
// of that activation (at cycle 0), then, indented, the openings of the
// traversals nested in the body at that activation.
void append_opening(std::string& out, const Traversal& t, const std::string& indent) {
  out += indent + "for " + t.comprehension() + ": " + std::to_string(t.tuples().size()) +
         " tuple(s)\n";
  const std::vector<std::string>& outputs = t.body().output_names();
  for (size_t a = 0; a < t.tuples().size(); ++a) {
    out += indent + "  [" + std::to_string(a) + "]";
    for (size_t k = 0; k < t.names().size(); ++k) {
      out += " " + t.names()[k] + "=" + t.tuples()[a][k].to_string();
    }
    State body = t.activation(a);
    if (const uint64_t cycles = t.cycles(a); cycles != 1) {
      out += " (" + std::to_string(cycles) + " cycles; cycle 0)";
    }
    out += " ->";
    for (size_t o = 0; o < outputs.size(); ++o) {
      out += " " + outputs[o] + " = " + body.pull_at(o).to_string() +
             (o + 1 < outputs.size() ? "," : "");
    }
    out += "\n";
    for (size_t n = 0; n < t.nested_count(); ++n) {
      append_opening(out, t.open_nested(a, n), indent + "    ");
    }
  }
}

// Traversal `index`'s opening at the state's coordinates.
void print_opening(State& state, const std::vector<uint64_t>& coordinates, size_t index) {
  std::string out;
  append_opening(out, open_traversal(state, coordinates, index), "");
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

int eval_command(CommandLine& args) {
  static const char* usage =
      "usage: polyrt eval FILE [--set NAME=VALUE]... [--engine E] INPUTS...\n\n"
      "Sets the coordinate inputs (one value per declared input, in order) and the\n"
      "externs given with --set, then prints every named output as 'name = value', and\n"
      "for each traversal (for ... { body }) the tuples of its opening there, each with\n"
      "the body's outputs.\n"
      "--engine interpreter|closures|native (default native), --provenance "
      "auto|raw|pull|pushpull,\n--lib DIR a directory of modules (repeatable), --partition "
      "[CURSOR=]I the\n"
      "partition a top-level cursor takes.\n";
  if (args.wants_help()) return print_compiling_help(usage);
  std::vector<std::pair<std::string, std::string>> sets;
  CompileOptions options;
  options.engine = Engine::Native;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--set") {
      take_setting(args.value_of(f), sets, options);
    } else if (!engine_flag(args, f, options)) {
      args.unknown_flag(f);
    }
  }
  const std::string& file = args.file();
  auto program = compile_program_argument(file, options);
  const auto& inputs = program->input_names();
  const size_t given = args.positionals().size() - 1;
  if (given != inputs.size()) {
    std::string names;
    for (const std::string& n : inputs) names += (names.empty() ? "" : ", ") + n;
    throw UsageError("polyrt eval: " + file + " declares " + std::to_string(inputs.size()) +
                     " input(s)" + (names.empty() ? "" : " (" + names + ")") + " but got " +
                     std::to_string(given) + " coordinate(s); give one value per input, in order");
  }
  std::vector<uint64_t> coordinates;
  for (size_t i = 1; i < args.positionals().size(); ++i) {
    const std::string what =
        i - 1 < inputs.size() ? "input " + inputs[i - 1] : "input #" + std::to_string(i);
    coordinates.push_back(parse_setting(what, args.positionals()[i], Type::U64).as_u64());
  }
  // The externs hold their --set values as their defaults (take_setting).
  State state = program->new_state();
  for (const auto& [name, text] : sets) {
    bool found = false;
    for (const auto& e : program->externs()) found |= e.name == name;
    if (!found) state.set_input(name, Value::none());  // throws the WriteError naming externs
  }
  state.set_inputs(coordinates);
  const auto& outputs = program->output_names();
  for (size_t i = 0; i < outputs.size(); ++i) {
    // fwrite, not %s: a string value may hold NUL bytes.
    const std::string line = outputs[i] + " = " + state.pull_at(i).to_string() + "\n";
    std::fwrite(line.data(), 1, line.size(), stdout);
  }
  for (size_t t = 0; t < program->traversal_count(); ++t) print_opening(state, coordinates, t);
  return 0;
}

int nodes_command(CommandLine& args) {
  static const char* usage = "usage: polyrt nodes\n\nPrints the node reference as Markdown.\n";
  if (args.wants_help()) return std::fputs(usage, stdout), 0;
  if (!args.done()) args.unknown_flag(args.flag());
  args.allow_positionals(0, "nodes takes no argument");
  std::fputs(node_reference().c_str(), stdout);
  return 0;
}

}  // namespace polyrt::cli

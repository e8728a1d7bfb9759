#include <algorithm>
#include <bit>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "expand/expansions.hpp"
#include "graph/lower.hpp"
#include "graph/passes.hpp"
#include "graph/vector_dimensions.hpp"
#include "interp/interpreter.hpp"
#include "io/confinement.hpp"
#include "io/data_files.hpp"
#include "io/regular_file.hpp"
#include "modules/inline_modules.hpp"
#include "nodes/native_form.hpp"
#include "nodes/registry.hpp"
#include "plan/native_limits.hpp"
#include "polyrt/numeric_types.hpp"
#include "polyrt/polyrt.hpp"
#include "program/compile_program.hpp"
#include "program/compile_traversals.hpp"
#include "program/cursor_bounds.hpp"
#include "program/name_list.hpp"
#include "program/program_internals.hpp"
#include "program/top_level_cursors.hpp"
#include "program/traversal_def.hpp"
#include "slots/slot_program.hpp"
#include "syntax/ast.hpp"
#include "syntax/lexer.hpp"
#include "syntax/sources.hpp"
#include "syntax/tree_text.hpp"

namespace polyrt {

Program::Program(std::shared_ptr<const ir::Graph> graph, CompileOptions options,
                 ProgramSource source, slots::NativeBuilder native)
    : graph_(std::move(graph)), options_(std::move(options)), source_(std::move(source)) {
  for (uint32_t c : graph_->coordinates) input_names_.push_back(graph_->nodes[c].name);
  for (const ir::Extern& e : graph_->externs)
    externs_.push_back(ExternInfo{e.name, e.type, e.default_value});
  const std::vector<std::optional<uint64_t>> dims = ir::vector_dimensions(*graph_);
  for (const ir::Output& o : graph_->outputs) {
    if (o.hidden) break;  // presence outputs, after every other
    output_by_name_.emplace(o.name, output_names_.size());
    output_names_.push_back(o.name);
    output_dimensions_.push_back(o.wire.port == 0 ? dims[o.wire.node] : std::nullopt);
  }
  warnings_ = graph_->warnings;
  const size_t native_nodes = plan::native_node_count(*graph_);
  const bool too_big_for_native = native_nodes > plan::kMaxNativeNodes;
  if (too_big_for_native) {
    warnings_.push_back(graph_->file() + ": warning: " + std::to_string(native_nodes) +
                        " native-capable nodes, more than " +
                        std::to_string(plan::kMaxNativeNodes) +
                        " (native code would take minutes to compile): the native engine runs "
                        "this program on closures, the batch tier as host steps");
  }
  const Provenance mode = options_.provenance;
  switch (options_.engine) {
    case Engine::Interpreter:
      break;
    case Engine::Closures:
      slot_program_ = slots::build_slot_program(*graph_, false, mode, "closures");
      break;
    case Engine::Native:
      if (!native) {
        throw RefusedError(
            "the native engine needs the CPU back end, which this build of polyrt does not "
            "link (valid here: the interpreter and closures engines)");
      }
      slot_program_ = too_big_for_native
                          ? slots::build_slot_program(*graph_, false, mode, "closures")
                          : native(*graph_, mode);
      break;
  }
}

std::string Program::engine_name() const {
  return slot_program_ ? slot_program_->engine_name : "interpreter";
}

Program::~Program() = default;

State Program::new_state() const {
  if (!slot_program_) return State(interp::make_interpreter(shared_from_this(), *graph_));
  return State(slots::make_slot_engine(shared_from_this(), *graph_, slot_program_));
}

const std::vector<std::string>& Program::input_names() const {
  return input_names_;
}
const std::vector<ExternInfo>& Program::externs() const {
  return externs_;
}
const std::vector<std::string>& Program::output_names() const {
  return output_names_;
}
const std::vector<std::string>& Program::warnings() const {
  return warnings_;
}

std::optional<size_t> Program::output_index(std::string_view name) const {
  if (auto it = output_by_name_.find(std::string(name)); it != output_by_name_.end())
    return it->second;
  return std::nullopt;
}

const std::vector<std::string>& Program::private_bindings() const {
  return graph_->private_bindings;
}

size_t Program::require_output(std::string_view name) const {
  if (auto i = output_index(name)) return *i;
  const auto& helpers = private_bindings();
  if (std::find(helpers.begin(), helpers.end(), name) != helpers.end()) {
    throw WriteError("'" + std::string(name) +
                     "' is a private binding (a helper, not an output); drop 'private' to "
                     "output it; outputs: " +
                     name_list(output_names_));
  }
  throw WriteError("no output named '" + std::string(name) +
                   "'; outputs: " + name_list(output_names_));
}

std::pair<size_t, Value> Program::resolve_extern_write(std::string_view name,
                                                       const Value& value) const {
  for (size_t i = 0; i < externs_.size(); ++i) {
    if (externs_[i].name != name) continue;
    if (!value.is_none() && value.type() != externs_[i].type) {
      throw WriteError("extern '" + std::string(name) + "' is " +
                       std::string(type_name(externs_[i].type)) + ", cannot write a " +
                       std::string(type_name(value.type())) + " value");
    }
    if (!value.is_none() && is_float(value.type()) && value.as_f64() != value.as_f64()) {
      return {i, Value::of_word(value.type(), nodes::kCanonicalNanBits)};  // one NaN
    }
    return {i, value};
  }
  for (const std::string& c : input_names_) {
    if (c == name) {
      throw WriteError("'" + std::string(name) +
                       "' is a coordinate input; write it with set_inputs");
    }
  }
  std::vector<std::string> declared;
  for (const ExternInfo& e : externs_) declared.push_back(e.name);
  throw WriteError(
      "no extern named '" + std::string(name) + "'" +
      (declared.empty() ? " (the program declares none)" : "; externs: " + name_list(declared)));
}

Type Program::output_type(size_t index) const {
  return graph_->outputs.at(index).type;
}

void ProgramInternals::add_traversal(Program& program,
                                     std::shared_ptr<const TraversalDef> traversal) {
  program.warnings_.insert(program.warnings_.end(), traversal->warnings.begin(),
                           traversal->warnings.end());
  program.traversals_.push_back(std::move(traversal));
}

std::optional<size_t> ProgramInternals::presence_output(const Program& program, size_t index) {
  const std::optional<uint32_t> presence = program.graph_->outputs.at(index).presence;
  return presence ? std::optional<size_t>(*presence) : std::nullopt;
}

bool Program::output_nullable(size_t index) const {
  return graph_->outputs.at(index).presence.has_value();
}

LogicalType Program::output_logical_type(size_t index) const {
  return graph_->outputs.at(index).logical;
}

std::optional<uint64_t> Program::output_dimension(size_t index) const {
  return output_dimensions_.at(index);
}

std::optional<uint64_t> integer_literal(std::string_view text) {
  return syntax::integer_literal(text);
}

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  return syntax::closest_name(name, candidates);
}

std::optional<Engine> engine_named(std::string_view name) {
  if (name == "interpreter") return Engine::Interpreter;
  if (name == "closures") return Engine::Closures;
  if (name == "native") return Engine::Native;
  return std::nullopt;
}

std::optional<Provenance> provenance_named(std::string_view name) {
  if (name == "auto") return Provenance::Auto;
  if (name == "raw") return Provenance::Raw;
  if (name == "pull") return Provenance::Pull;
  if (name == "pushpull") return Provenance::PushPull;
  return std::nullopt;
}

namespace {

// Where modules are looked up, in order (CompileOptions::library_paths).
std::vector<modules::LibraryDirectory> module_path(const CompileOptions& options,
                                                   const std::string& program_path) {
  std::vector<modules::LibraryDirectory> path;
  if (!program_path.empty()) {
    const std::filesystem::path dir = std::filesystem::path(program_path).parent_path();
    path.push_back({dir.empty() ? "." : dir.string(), "the program's directory"});
  }
  for (const std::string& dir : options.library_paths) path.push_back({dir, "the library paths"});
  if (const char* env = std::getenv(kLibraryPathVariable)) {
    std::string_view rest = env;
    while (!rest.empty()) {
      const size_t colon = rest.find(':');
      const std::string_view dir = rest.substr(0, colon);
      if (!dir.empty()) path.push_back({std::string(dir), kLibraryPathVariable, true});
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  return path;
}

// The checked graph of a parsed program whose traversals are taken: its
// top-level cursors lowered (into `cursors`), the program expansions run,
// the passes run.
std::shared_ptr<ir::Graph> lower_program(syntax::Ast ast, const CompileOptions& options,
                                         expand::Context& context,
                                         std::vector<CursorInfo>& cursors) {
  cursors = take_top_level_cursors(ast, options.cursor_partitions, context.sources);
  expand::expand_program(ast, context);
  auto graph = std::make_shared<ir::Graph>(ir::lower(context.sources, ast, options));
  ir::run_passes(*graph, context.sources, options.required_outputs);
  return graph;
}

std::shared_ptr<const Program> compile_source(std::string_view source,
                                              const CompileOptions& options,
                                              const std::string& program_path,
                                              slots::NativeBuilder native) {
  if (source.size() > syntax::kMaxSourceBytes) {
    throw CompileError(options.file_name + ": the program is " + std::to_string(source.size()) +
                           " bytes; programs are limited to " +
                           std::to_string(syntax::kMaxSourceBytes >> 20) + " MiB",
                       options.file_name, 0, 0);
  }
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (source.substr(0, kByteOrderMark.size()) == kByteOrderMark)
    source.remove_prefix(kByteOrderMark.size());
  syntax::SourceText text(options.file_name, std::string(source));
  syntax::Sources sources(text);
  // Data files (csv_field, ...) are read as the nodes are prepared.
  const io::DataFileScope data_files(
      program_path.empty() ? options.program_directory
                           : std::filesystem::path(program_path).parent_path().string());
  std::optional<io::ConfinementScope> confined;
  if (options.untrusted) confined.emplace(options.data_roots, options.allowed_env);
  modules::ModuleLibrary library(sources, module_path(options, program_path), program_path);
  expand::Context context{.text = text,
                          .sources = sources,
                          .library = library,
                          .dump_after = options.dump_after,
                          .dump = options.dump_sink ? &options.dump_sink : nullptr};
  syntax::Ast parsed = syntax::parse(text, nodes::comprehension_call_element);
  expand::expand_file(parsed, context);
  std::vector<syntax::Stmt> traversals = take_traversals(parsed);
  // Traversal bodies compile from copies of what they share with the
  // program, taken before its compile consumes the tree.
  const syntax::Ast frame = traversals.empty() ? syntax::Ast{} : traversal_frame(parsed);
  const auto compile_probe = [&](syntax::Ast probe, const ProbeRequest& request) {
    syntax::Sources probe_sources(text);
    modules::ModuleLibrary probe_library(probe_sources, module_path(options, program_path),
                                         program_path);
    expand::Context probe_context{.text = text, .sources = probe_sources, .library = probe_library};
    CompileOptions probe_options = options;
    probe_options.engine = Engine::Interpreter;
    probe_options.required_outputs = request.outputs;
    for (const std::string& name : request.stand_ins) probe_options.cursor_partitions.erase(name);
    std::vector<CursorInfo> unused;
    auto graph = lower_program(std::move(probe), probe_options, probe_context, unused);
    return std::shared_ptr<const Program>(
        ProgramInternals::make(std::move(graph), probe_options, {}, native));
  };
  resolve_cursor_bounds(parsed, traversals, compile_probe, sources);
  std::vector<CursorInfo> cursors;
  auto graph = lower_program(std::move(parsed), options, context, cursors);
  // The program, the modules and the data files read so far.
  const auto origin = [&] {
    ProgramSource read{std::string(source), library.files_read()};
    if (!program_path.empty()) read.files.insert(read.files.begin(), program_path);
    for (const std::string& file : data_files.files()) read.files.push_back(file);
    return read;
  };
  std::shared_ptr<Program> program =
      ProgramInternals::make(std::move(graph), options, origin(), native);
  ProgramInternals::set_cursors(*program, std::move(cursors));
  for (size_t t = 0; t < traversals.size(); ++t) {
    ProgramInternals::add_traversal(
        *program, compile_traversal(frame, context, *program, std::move(traversals[t]), native));
  }
  // What the bodies read too: output must never replace one of them.
  if (!traversals.empty()) ProgramInternals::set_source(*program, origin());
  return program;
}

[[noreturn]] void refuse_file(const std::string& path, const std::string& why) {
  throw CompileError("cannot read program file '" + path + "': " + why, path, 0, 0);
}

std::string read_program_file(const std::string& path) {
  using Outcome = io::RegularFile::Outcome;
  io::RegularFile file = io::read_regular_file(path, syntax::kMaxSourceBytes, true);
  const std::string limit = std::to_string(syntax::kMaxSourceBytes >> 20) + " MiB";
  switch (file.outcome) {
    case Outcome::Read:
      return std::move(file.bytes);
    case Outcome::Unreadable:
      refuse_file(path, file.why);
    case Outcome::NotRegular:
      if (file.why == "a directory") refuse_file(path, "it is a directory, not a program file");
      refuse_file(path, "it is " + file.why + "; programs are read from regular files");
    case Outcome::TooBig:
      refuse_file(path, "it is " + file.why + "; programs are limited to " + limit);
  }
  internal_error("unknown outcome of reading a program file");
}

}  // namespace

std::vector<std::string> expansion_names() {
  std::vector<std::string> names;
  for (const expand::Expansion& e : expand::expansions()) {
    names.push_back(std::string(e.name) + ": " + std::string(e.does));
  }
  return names;
}

std::shared_ptr<const Program> compile_program(std::string_view source,
                                               const CompileOptions& options,
                                               slots::NativeBuilder native) {
  return compile_source(source, options, "", native);
}

std::shared_ptr<const Program> compile_program_file(const std::string& path, CompileOptions options,
                                                    slots::NativeBuilder native) {
  const std::string text = read_program_file(path);
  options.file_name = path;
  return compile_source(text, options, path, native);
}

// ---- State ------------------------------------------------------------------

namespace {

[[noreturn]] void refuse_moved_from() {
  throw WriteError("this State was moved from and owns nothing; use the State it was moved into");
}

// The lane of every moved-from state: no output is current, no coordinate
// count matches, so each pull and write reaches a refusal.
detail::PullLane* moved_from_lane() {
  static detail::PullLane lane = [] {
    detail::PullLane l;
    l.coordinates = ~size_t{0};
    l.pull_miss = [](StateEngine*, size_t) -> uint64_t { refuse_moved_from(); };
    return l;
  }();
  return &lane;
}

}  // namespace

State::State(std::unique_ptr<StateEngine> engine)
    : impl_(std::move(engine)), lane_(&impl_->pull_lane()) {}
State::State(const State& other) : impl_(other.engine_ref().clone()), lane_(&impl_->pull_lane()) {}
State& State::operator=(const State& other) {
  if (this != &other) {
    impl_ = other.engine_ref().clone();
    lane_ = &impl_->pull_lane();
  }
  return *this;
}
State::State(State&& other) noexcept : impl_(std::move(other.impl_)), lane_(other.lane_) {
  other.lane_ = moved_from_lane();
}
State& State::operator=(State&& other) noexcept {
  if (this != &other) {
    impl_ = std::move(other.impl_);
    lane_ = other.lane_;
    other.lane_ = moved_from_lane();
  }
  return *this;
}
State::~State() = default;

StateEngine& State::engine_ref() const {
  if (!impl_) refuse_moved_from();
  return *impl_;
}

void State::refuse_coordinates(size_t count, const char* call) const {
  const auto& names = engine_ref().program().input_names();
  throw WriteError(std::string(call) + " got " + std::to_string(count) +
                   " value(s) but the program has " + std::to_string(names.size()) +
                   " coordinate(s)" + (names.empty() ? "" : ": " + name_list(names)));
}

void State::write_coordinates(std::span<const uint64_t> coordinates) {
  engine_ref().set_inputs(coordinates);
}

void State::refuse_words(size_t outputs, size_t words) {
  throw WriteError("request got " + std::to_string(outputs) + " output(s) but room for " +
                   std::to_string(words) + " word(s)");
}

void State::set_input(std::string_view name, const Value& value) {
  const auto [index, stored] =
      ProgramInternals::resolve_extern_write(engine_ref().program(), name, value);
  engine_ref().set_extern(index, stored);
}

size_t State::output_index(std::string_view name) const {
  return engine_ref().program().require_output(name);
}

Value State::pull(std::string_view name) {
  return pull_ref(output_index(name));
}

Value State::pull_at(size_t index) {
  return pull_ref(index);
}

const Value& State::pull_ref(size_t index) {
  const Program& program = engine_ref().program();
  if (index >= program.output_names().size()) {
    throw WriteError("output index " + std::to_string(index) +
                     " is out of range (the program has " +
                     std::to_string(program.output_names().size()) + " outputs)");
  }
  const Value& value = engine_ref().pull_ref(index);
  if (const std::optional<size_t> presence = ProgramInternals::presence_output(program, index)) {
    // The value first: a row whose value fails fails, null or not, as in
    // the batch tier, which computes every column.
    static const Value kNull;
    const Value& present = engine_ref().pull_ref(*presence);
    if (!present.is_none() && present.as_u64() == 0) return kNull;
    return engine_ref().pull_ref(index);  // the presence pull may have moved it
  }
  return value;
}

void State::eval() {
  engine_ref().eval();
}
void State::invalidate_all() {
  engine_ref().invalidate_all();
}
void State::set_log_sink(LogSink sink) {
  engine_ref().set_log_sink(std::move(sink));
}
std::string State::engine() const {
  return engine_ref().engine_name();
}
const Program& State::program() const {
  return engine_ref().program();
}

}  // namespace polyrt

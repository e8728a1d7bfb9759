// The public embedding API: compile a program once, evaluate it from many states.
//
//   auto program = polyrt::compile(source);          // immutable, share across threads
//   polyrt::State state = program->new_state();      // one per thread
//   state.set_inputs({42});
//   uint64_t id = state.pull("user_id").as_u64();
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "polyrt/error.hpp"
#include "polyrt/logical_type.hpp"
#include "polyrt/provenance.hpp"
#include "polyrt/value.hpp"

namespace polyrt {

namespace ir {
struct Graph;
}
struct TraversalDef;
namespace slots {
struct SlotProgram;
// Builds the native engine's code for a graph: the CPU back end's, which
// compile() passes in (core itself holds no code generator).
using NativeBuilder = std::shared_ptr<SlotProgram> (*)(const ir::Graph&, Provenance);
}  // namespace slots

// Which engine a state runs. All give identical values, Nones and failures.
enum class Engine {
  Interpreter,  // P1: typed values node by node; the semantic oracle
  Closures,     // P2: every node a host step over a flat slot buffer
  Native,       // P3: native-capable nodes fused and JIT-compiled, host steps for the rest
};

// The names the command line and the bindings give engines and provenance
// modes ("native", "pushpull"), and nullopt for any other text.
inline constexpr const char* kEngineNames = "interpreter, closures, native";
inline constexpr const char* kProvenanceNames = "auto, raw, pull, pushpull";
std::optional<Engine> engine_named(std::string_view name);
std::optional<Provenance> provenance_named(std::string_view name);

// A count as a program writes it: `text` as one integer literal of the
// language (1000, 10M, 1Gi, 0x10), nullopt for anything else or a value past
// u64 (command-line counts read so).
std::optional<uint64_t> integer_literal(std::string_view text);
// The name of `candidates` that `name` most likely misspells, as the
// compiler's "did you mean" picks it; "" when none is close.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

struct CompileOptions {
  // Shown in diagnostics as the file of every position.
  std::string file_name = "<source>";
  // When non-empty, only these named bindings stay outputs; dead-code
  // elimination drops every node none of them needs (side channels stay).
  std::vector<std::string> required_outputs;
  Engine engine = Engine::Native;
  Provenance provenance = Provenance::Auto;
  // Directories searched for the modules a program calls but neither defines
  // nor finds among the nodes, in this order: the program file's directory
  // (compile_file), these, the directories of the environment variable
  // POLYRT_LIB_PATH (':'-separated), then the embedded standard library.
  std::vector<std::string> library_paths;
  // The partition a top-level cursor takes when its `over "SPEC"` resolves
  // to several (`cursor q = range(0, 1000000) over "*/4"`): cursor name to
  // partition index; the key "" applies to every cursor not named. A run
  // takes one partition, as one fiber of polydat's does.
  std::map<std::string, uint64_t> cursor_partitions;
  // A program from someone the caller does not trust (docs/security.md):
  // data files are read only inside `data_roots` (symbolic links resolved;
  // never /proc, /sys or /dev), env() and env_or() only for the names in
  // `allowed_env`, and no diagnostic quotes what a file or the environment
  // holds. The roots and names are ignored when `untrusted` is false.
  bool untrusted = false;
  std::vector<std::string> data_roots;
  std::vector<std::string> allowed_env;
  // compile() of source text: the directory a relative data file is found
  // in when the working directory has none, as compile_file finds one beside
  // the program (a copy compiled elsewhere from a file's text finds what the
  // file found). compile_file uses the file's own directory.
  std::string program_directory;
  // Re-keys every hashed value (the first input of hash, hash_range,
  // hash_interval, the coins, n_of, hash_vec, xxhash3_vec, bytes_from_hash
  // is XORed with splitmix64(seed)): another data set, as reproducible, the
  // same on every engine, tier and device. None: the program's own values.
  std::optional<uint64_t> seed;
  // Refuse polydat's inferred inputs: a name the program reads but neither
  // declares nor binds is an error (declare coordinates with `input`),
  // never a new coordinate (`polyrt ... --strict`).
  bool strict_inputs = false;
  // Values by name, as a workload hands its params to a program (nmbrs's
  // `params:`, `polyrt --set NAME=VALUE`). A declared extern takes the text,
  // read as its type, as its default. A name the program reads but neither
  // declares nor binds becomes an extern with the text as its default instead
  // of an inferred input, typed as nmbrs types a param: an integer literal
  // (1000, 10M) is a u64, another number an f64, true or false a bool,
  // anything else a str. Names declared as inputs or bound are left to the
  // host. A top-level cursor's bounds see these values (docs/language.md).
  std::map<std::string, std::string> params;
  // Debugging the front end (polyrt check --dump-after): after the expansion
  // of this name (one of expansion_names()), the syntax tree as text goes to
  // `dump_sink`, once for the program and, for an expansion of every
  // program, once for each traversal body. An unknown name is a
  // RefusedError listing the names.
  std::string dump_after;
  std::function<void(std::string_view tree)> dump_sink;
};

// The front end's expansions (its desugarings of the syntax tree), in the
// order they run, each "NAME: what it does" (docs/architecture.md).
std::vector<std::string> expansion_names();

// A top-level cursor and the partition of it the program runs over.
struct CursorInfo {
  std::string name;
  uint64_t partition = 0;   // its index
  uint64_t partitions = 1;  // how many its spec resolves to (1 over a partition wire)
  // No partition was chosen of several that tile their span: coordinates
  // 0 .. size-1 walk every partition in turn (`partition` is 0).
  bool every_partition = false;
  // The slice's ordinals [first, first + size), resolved at compile time
  // (none over a partition wire); coordinates 0 .. size-1 walk it.
  std::optional<uint64_t> first, size;
  // A range(START, END) cursor's ordinals before any narrowing, [START,
  // END): what `for r in all(q)` enumerates (none for an extending cursor).
  std::optional<std::pair<uint64_t, uint64_t>> range;
  // nmbrs's extending cursors whose length is a wall-clock rule
  // (until_elapsed, until_elapsed_and_passes, until_elapsed_or_passes): from
  // ordinal 0, `base` rows, then `delta` more at a time while fewer than
  // min_ms milliseconds have passed (or, for _or_passes, fewer than
  // min_rows rows are done), never past max_rows. `size` is none: such a
  // run's values are reproducible, its length is not. until_passes and
  // until_count have none of this: their size is known.
  struct WallClock {
    uint64_t base = 0, delta = 0, min_ms = 0, min_rows = 0, max_rows = 0;
  };
  std::optional<WallClock> wall_clock;
};

// The environment variable of module directories searched after
// CompileOptions::library_paths.
inline constexpr const char* kLibraryPathVariable = "POLYRT_LIB_PATH";

struct ExternInfo {
  std::string name;
  Type type;
  Value default_value;  // None when the extern has no default
};

class State;
struct ProgramInternals;

// What a program was compiled from (Program::source_text, source_files).
struct ProgramSource {
  std::string text;
  std::vector<std::string> files;
};

// A compiled program: immutable and safe to share between threads.
class Program : public std::enable_shared_from_this<Program> {
 public:
  ~Program();

  // A fresh state: every extern at its default, nothing evaluated yet except
  // `const` bindings, which are evaluated here (a failure throws EvalError).
  State new_state() const;

  // Coordinate inputs in declaration order (what set_inputs writes).
  const std::vector<std::string>& input_names() const;
  const std::vector<ExternInfo>& externs() const;
  // Named bindings in source order, but `private` ones.
  const std::vector<std::string>& output_names() const;
  // The bindings declared `private`: helpers of the others, never outputs.
  const std::vector<std::string>& private_bindings() const;
  std::optional<size_t> output_index(std::string_view name) const;
  // The index of output `name`; WriteError listing the outputs when unknown.
  size_t require_output(std::string_view name) const;
  Type output_type(size_t index) const;
  // What output `index`'s words mean to a writer (`x as timestamp`, `as
  // date`, `as decimal(12, 2)`; polyrt/logical_type.hpp): none for a plain
  // value. output_type is then its physical type, i64 or i32.
  LogicalType output_logical_type(size_t index) const;
  // Whether output `index` may be null on some rows (`null_if`, an `if` with
  // a None branch): State::pull gives None there, and the batch tier's
  // columns say which rows (ColumnView::present).
  bool output_nullable(size_t index) const;
  // How many elements every value of a vector output has, when the program
  // fixes it (hash_vec(seed, 768), a constant vector, vec_add of such a
  // vector, ...); none when it may vary from row to row, or the output is not
  // a vector. Writers lay such an output out as a fixed-size list.
  std::optional<uint64_t> output_dimension(size_t index) const;
  // Compiler warnings (unknown pragmas, ...), each a full diagnostic, and the
  // engine's (a program too big for native code runs on closures).
  const std::vector<std::string>& warnings() const;
  const CompileOptions& options() const { return options_; }
  // The source text it was compiled from (without a byte-order mark).
  const std::string& source_text() const { return source_.text; }
  // The files it was compiled from: the program file (compile_file) and
  // every module file read while resolving its calls. Output never replaces
  // one of them.
  const std::vector<std::string>& source_files() const { return source_.files; }
  // What states of this program run, e.g. "interpreter" or "native (PushPull)".
  std::string engine_name() const;
  // Its top-level traversals (`for ... { body }`), in source order: open one
  // with open_traversal (polyrt/traversal.hpp).
  size_t traversal_count() const { return traversals_.size(); }
  // Its top-level cursors, in source order.
  const std::vector<CursorInfo>& cursors() const { return cursors_; }

 private:
  // polyrt's own layers reach the graph, the slot program and extern writes
  // through ProgramInternals (program/program_internals.hpp), not the API.
  friend struct ProgramInternals;
  Program(std::shared_ptr<const ir::Graph> graph, CompileOptions options, ProgramSource source,
          slots::NativeBuilder native);
  std::pair<size_t, Value> resolve_extern_write(std::string_view name, const Value& value) const;

  std::shared_ptr<const ir::Graph> graph_;
  CompileOptions options_;
  ProgramSource source_;
  std::shared_ptr<const slots::SlotProgram> slot_program_;
  std::vector<std::string> input_names_;
  std::vector<ExternInfo> externs_;
  std::vector<std::string> output_names_;
  std::unordered_map<std::string, size_t> output_by_name_;
  std::vector<std::optional<uint64_t>> output_dimensions_;
  std::vector<std::string> warnings_;  // the compiler's, the engine's, the traversals'

  std::vector<std::shared_ptr<const TraversalDef>> traversals_;
  std::vector<CursorInfo> cursors_;
};

// Compiles DSL source (at most 64 MiB; a leading UTF-8 byte-order mark is
// skipped). Throws CompileError (with file:line:col) or ConstantFoldError (a
// compile-constant node failed).
std::shared_ptr<const Program> compile(std::string_view source, const CompileOptions& options = {});
// Reads and compiles a regular file of at most 64 MiB (a leading UTF-8
// byte-order mark is skipped); the file name appears in every diagnostic, and
// its directory is searched first for modules. A directory, device, FIFO,
// missing or oversized file is a CompileError saying why.
std::shared_ptr<const Program> compile_file(const std::string& path, CompileOptions options = {});

// Receives the text of every side-channel node that fires (log_info, ...).
using LogSink = std::function<void(std::string_view line)>;

class StateEngine;

namespace detail {
// Where output o's word lives and which stamp says that it is current.
struct OutputWord {
  uint32_t slot;
  uint32_t stamp;
};

// A request State::request serves inline, without a call into the engine:
// armed by an engine after it served a request through its fused entry, for
// the same list of outputs, while its generation is the lane's and the
// engine has seen nothing since (its writes disarm it). Running `entry` then
// leaves the engine exactly as its own request would (every step current),
// and the words are at slots[output_slots[i]].
struct ArmedRequest {
  int32_t (*entry)(uint64_t* slots, const uint64_t* coordinates) = nullptr;
  uint64_t* slots = nullptr;
  const size_t* outputs = nullptr;
  const uint32_t* output_slots = nullptr;
  size_t count = 0;
  uint64_t generation = 0;  // 0: disarmed (lane generations start at 1)
};

// What State::pull_word reads inline, without a call: the engine keeps it
// pointing at its own buffers. stamps[output_words[o].stamp] == generation:
// output o is current and not None, and its word is words[output_words[o].slot];
// anything else sends the pull to the engine, which evaluates, raises or
// refreshes the lane.
struct PullLane {
  const uint64_t* words = nullptr;
  const OutputWord* output_words = nullptr;
  const uint64_t* stamps = nullptr;
  uint64_t generation = 1;  // never 0, so a zeroed stamp is never current
  size_t outputs = 0;       // 0: every pull goes to the engine
  size_t coordinates = 0;   // what set_inputs must get
  // Non-null for states whose write is a plain copy of the coordinates here
  // plus a new generation (pure native programs in Raw mode).
  uint64_t* express_coordinates = nullptr;
  // What a pull that misses calls: the engine's own pull_word, without a
  // virtual dispatch (null engine: a moved-from state, which refuses).
  uint64_t (*pull_miss)(StateEngine* engine, size_t output) = nullptr;
  // When set, State::request first offers the request here (sizes
  // checked): true when it served it whole, false to take set_inputs and
  // pull_word (which also raise what the request would).
  bool (*request)(StateEngine* engine, const uint64_t* coordinates, const size_t* outputs,
                  size_t count, uint64_t* words) = nullptr;
  ArmedRequest armed;
};
}  // namespace detail

// Per-thread evaluation state of a program. Copying a state clones it: the
// copy owns all of its buffers and shares nothing mutable with the original.
// A moved-from state owns nothing: every operation on it throws WriteError
// (assigning a state to it makes it usable again).
class State {
 public:
  explicit State(std::unique_ptr<StateEngine> engine);
  State(const State& other);
  State& operator=(const State& other);
  State(State&&) noexcept;
  State& operator=(State&&) noexcept;
  ~State();

  // Writes the coordinate inputs in declaration order; runs nothing. The
  // span must have exactly one value per coordinate (else WriteError).
  void set_inputs(std::span<const uint64_t> coordinates) {
    detail::PullLane& lane = *lane_;
    if (coordinates.size() != lane.coordinates) refuse_coordinates(coordinates.size());
    if (lane.express_coordinates) {
      // One 8-byte store per word: a vectorized copy would make the native
      // code's 8-byte loads miss store-to-load forwarding.
      for (size_t c = 0; c < coordinates.size(); ++c) {
        std::atomic_ref<uint64_t>(lane.express_coordinates[c])
            .store(coordinates[c], std::memory_order_relaxed);
      }
      ++lane.generation;
      return;
    }
    write_coordinates(coordinates);
  }
  void set_inputs(std::initializer_list<uint64_t> coordinates) {
    set_inputs(std::span<const uint64_t>(coordinates.begin(), coordinates.size()));
  }
  // Writes one extern; Value::none() unsets it. A value of another type than
  // the declared one is refused with WriteError, never converted.
  void set_input(std::string_view name, const Value& value);

  // Evaluates (lazily, memoized) and returns a named output; None when it
  // depends on an unset extern, or on a row where a nullable output is null
  // (Program::output_nullable). Throws EvalError when a node of its cone
  // fails.
  Value pull(std::string_view name);
  size_t output_index(std::string_view name) const;  // WriteError when unknown
  Value pull_at(size_t index);
  // Like pull_at, without copying: the reference stays valid until the next
  // call on this State (a write, a pull, eval, a clone). For reading a str
  // output in place: state.pull_ref(i).as_str() copies nothing.
  const Value& pull_ref(size_t index);
  // The raw 64-bit word of a scalar output (u64 as is, f64 bit pattern, bool
  // 0/1), without building a Value: the fast path for hot loops. Refused with
  // WriteError for str outputs and when the output is None. A nullable
  // output's word is its value's on every row, null or not: pull() says
  // which rows are null. A pull whose
  // output is already current costs a few loads (no call).
  uint64_t pull_word(size_t index) {
    if (const std::optional<uint64_t> word = current_word(index)) return *word;
    return lane_->pull_miss(impl_.get(), index);
  }
  // The word of scalar output `index` when it is current and not None (a
  // pull would run nothing), else nullopt: for callers that prepare only for
  // pulls that run (a binding that then releases its interpreter lock).
  std::optional<uint64_t> current_word(size_t index) const {
    const detail::PullLane& lane = *lane_;
    if (index < lane.outputs) {
      const detail::OutputWord at = lane.output_words[index];
      if (lane.stamps[at.stamp] == lane.generation) return lane.words[at.slot];
    }
    return std::nullopt;
  }
  // Serves one request: set_inputs(coordinates), then words[i] =
  // pull_word(outputs[i]) for each output in order, with the same
  // refusals and errors, in one call. The fastest way to pull a few values
  // per request: a native state runs them in one compiled call when the
  // outputs' cones take every step, and a loop's later requests for the same
  // outputs call it from here, without entering the engine. outputs and words must be as
  // long (else WriteError).
  void request(std::span<const uint64_t> coordinates, std::span<const size_t> outputs,
               std::span<uint64_t> words) {
    detail::PullLane& lane = *lane_;
    if (coordinates.size() != lane.coordinates) refuse_coordinates(coordinates.size(), "request");
    if (outputs.size() != words.size()) refuse_words(outputs.size(), words.size());
    if (lane.armed.generation == lane.generation && serves_armed(lane.armed, outputs)) {
      if (lane.armed.entry(lane.armed.slots, coordinates.data()) == 0) [[likely]] {
        for (size_t i = 0; i < outputs.size(); ++i) {
          words[i] = lane.armed.slots[lane.armed.output_slots[i]];
        }
        return;
      }
      invalidate_all();  // a member failed: the usual way raises it
    }
    if (lane.request && lane.request(impl_.get(), coordinates.data(), outputs.data(),
                                     outputs.size(), words.data())) {
      return;
    }
    set_inputs(coordinates);
    for (size_t i = 0; i < outputs.size(); ++i) words[i] = pull_word(outputs[i]);
  }
  // Brings every step up to date.
  void eval();
  // Marks every step not current; inputs are kept.
  void invalidate_all();

  void set_log_sink(LogSink sink);
  // What this state really runs, e.g. "interpreter".
  std::string engine() const;
  const Program& program() const;

 private:
  [[noreturn]] void refuse_coordinates(size_t count, const char* call = "set_inputs") const;
  [[noreturn]] static void refuse_words(size_t outputs, size_t words);
  // Whether the armed request is for `outputs` (a loop, not std::equal: a
  // call of memcmp would cost a tenth of the request).
  static bool serves_armed(const detail::ArmedRequest& armed, std::span<const size_t> outputs) {
    if (outputs.size() != armed.count) return false;
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (outputs[i] != armed.outputs[i]) return false;
    }
    return true;
  }
  StateEngine& engine_ref() const;  // WriteError for a moved-from state
  void write_coordinates(std::span<const uint64_t> coordinates);

  std::unique_ptr<StateEngine> impl_;
  // Owned by *impl_, so it survives moves of the State; a moved-from state
  // points at a lane that sends every pull and write to a refusal.
  detail::PullLane* lane_;
};

}  // namespace polyrt

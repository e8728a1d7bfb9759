// The node registry: every node of the language is declared exactly once here
// (name, signature, purity, None handling, failure) with its implementation,
// which calls the rtlib function of the same meaning.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nodes/column_call.hpp"
#include "nodes/device_text_form.hpp"
#include "nodes/native_form.hpp"
#include "polyrt/value.hpp"

namespace polyrt::nodes {

enum class Purity : uint8_t { Pure, Nondeterministic, SideChannel };

enum class ArgKind : uint8_t {
  Wire,   // a per-evaluation value
  Const,  // a literal fixed at compile time
};

// What a wire port accepts: a type, or any type (printf, str_concat, ...).
// U64 takes every unsigned integer and bool (their words are their u64
// values), I64 every signed integer and what widens to i64 (u8..u32, bool),
// F64 f64 and f32 (an f32's word is its f64).
// Vector: a vector of any element type. Bool: true or false only.
enum class PortType : uint8_t {
  U64,
  F64,
  Str,
  Any,
  I64,
  Bytes,
  Json,
  Partition,
  PartitionList,
  VecF32,
  VecI32,
  VecI64,
  Vector,
  Bool
};

struct ArgSpec {
  std::string_view name;
  ArgKind kind;
  PortType type;
  Value default_value = {};  // const args only; None when there is no default
  bool variadic = false;     // last argument only
  // Another name a named argument may use: polydat's, where one node stands
  // for two of its signatures (combinations' seed/charset).
  std::string_view other_name = {};
};

// Data a node derives from its constant arguments once, at compile time
// (distribution tables, alias tables, parsed formats, ...).
struct Prepared {
  std::vector<double> f64s;
  std::vector<uint64_t> u64s;
  std::vector<std::string> strs;
  std::shared_ptr<const void> extra;  // node-specific parsed structure
};

// What `prepared` points at, or an empty Prepared for a node without one.
inline const Prepared& prepared_or_nothing(const std::shared_ptr<const Prepared>& prepared) {
  static const Prepared kNothing;
  return prepared ? *prepared : kNothing;
}

// One evaluation of a node: typed access to its inputs, constants and outputs.
class Call {
 public:
  Call(const Value* const* inputs, size_t input_count, const std::vector<Value>& params,
       const Prepared* prepared, Value* outputs, size_t output_count)
      : inputs_(inputs),
        input_count_(input_count),
        params_(params),
        prepared_(prepared),
        outputs_(outputs),
        output_count_(output_count) {}

  size_t input_count() const { return input_count_; }
  const Value& input(size_t i) const { return *inputs_[i]; }
  uint64_t u64(size_t i) const;  // bools read as 0/1
  // The word of a scalar input of any type (signed integers sign-extended).
  uint64_t word(size_t i) const;
  double f64(size_t i) const { return inputs_[i]->as_f64(); }
  const std::string& str(size_t i) const { return inputs_[i]->as_str(); }
  uint64_t param_u64(size_t i) const { return params_[i].as_u64(); }
  double param_f64(size_t i) const { return params_[i].as_f64(); }
  const std::string& param_str(size_t i) const { return params_[i].as_str(); }
  const std::vector<Value>& params() const { return params_; }
  const Prepared& prepared() const { return *prepared_; }
  size_t output_count() const { return output_count_; }
  void set(Value v, size_t port = 0) { outputs_[port] = std::move(v); }
  void set_u64(uint64_t v, size_t port = 0) { outputs_[port] = Value::u64(v); }
  // Every f64 a node produces carries one NaN (kCanonicalNanBits).
  void set_f64(double v) {
    outputs_[0] = Value::f64(v != v ? std::bit_cast<double>(kCanonicalNanBits) : v);
  }
  void set_str(std::string v) { outputs_[0] = Value::str(std::move(v)); }

 private:
  const Value* const* inputs_;
  size_t input_count_;
  const std::vector<Value>& params_;
  const Prepared* prepared_;
  Value* outputs_;
  size_t output_count_;
};

// Thrown by a node body when it fails at evaluation; the engine wraps it into
// an EvalError with the node's position, inputs and coordinates.
struct NodeFailure {
  std::string message;
};

// Thrown by a prepare function for a bad constant argument; the checker turns
// it into a CompileError pointing at that argument.
struct ParamError {
  size_t param_index;  // index into the node's constant arguments
  std::string message;
};

// Where a node sends side-channel text (log_info, ...).
using SideChannelSink = std::function<void(std::string_view)>;

// A node that picks an entry of a table (one_of, one_of_weighted). Lowering
// turns each call into two nodes: `index`, a native node computing which
// entry from the call's inputs (batch kernels compute it with the rest of
// their work, on a GPU too), and pick_str_node() taking that entry of
// `entries`. The two together are the node's meaning; it has no body.
struct NodeDef;
struct TablePick {
  const NodeDef& (*index)();
  // The index node's constant arguments, from the call's and what its
  // prepare made.
  std::vector<Value> (*index_params)(const std::vector<Value>& params, const Prepared* prepared);
  // The table, from the call's constant arguments and what its prepare made.
  std::vector<Value> (*entries)(const std::vector<Value>& params,
                                const Prepared* prepared) = nullptr;
  // Instead of `entries`, for a table too big for a Value per entry (a data
  // file's rows): the node that picks from the call's own prepared table
  // (Prepared::extra, a columns::StringColumn), which it takes over with
  // the call's constant arguments (what the table was read from).
  const NodeDef& (*row_pick)() = nullptr;
};

// A node whose meaning is plain arithmetic once one wire input is known:
// when that input is a compile-time constant (a partition resolved from a
// literal spec), a pass after constant folding turns the call into `node`,
// a native node taking the other inputs and, as constant arguments,
// params(the constant). Batch kernels and the GPU then compute it inline.
struct ConstantInputForm {
  uint8_t input;
  const NodeDef& (*node)();
  std::vector<Value> (*params)(const Value& constant);
};

// What fixes how many elements a vector node's result has, for the static
// dimension of a vector output (Program::output_dimension): nothing known,
// its first input's dimension, the value of its second input when that is
// a constant (hash_vec(seed, 768)), or its first constant argument's.
enum class VectorDimension : uint8_t { Varies, OfFirstInput, SecondInputValue, FirstParamValue };

struct NodeDef {
  std::string_view name;
  std::string_view family;
  // Its first input is hashed (hash, hash_range, hash_vec, ...): a program
  // compiled with a seed (CompileOptions::seed) re-keys that input.
  bool keyed_by_seed = false;
  // Its first input picks by its value without hashing it (an alias
  // table's index, a weight's bucket): fed a coordinate, rows step through
  // the table instead of following its weights, so the compiler warns
  // (graph/hash_provenance.hpp).
  bool wants_hashed_input = false;
  std::vector<ArgSpec> args;
  // Output types; empty when result_types decides them.
  std::vector<Type> results;
  // For nodes whose outputs depend on the argument types or constants.
  std::vector<Type> (*result_types)(const std::vector<Type>& inputs,
                                    const std::vector<Value>& params) = nullptr;
  // Describes the outputs in docs when result_types decides them.
  std::string_view result_doc;
  Purity purity = Purity::Pure;
  bool accepts_none = false;
  bool can_fail = false;
  std::string_view summary;
  std::string_view failure;  // when it fails (empty: never)
  std::shared_ptr<const Prepared> (*prepare)(const std::vector<Value>& params) = nullptr;
  void (*eval)(Call& call) = nullptr;
  // Side-channel nodes also get the sink.
  void (*emit)(Call& call, const SideChannelSink& sink) = nullptr;
  // Why the batch tier does not run it (empty: it does), for the refusal
  // that sends the program to a per-state engine.
  std::string_view batch_refusal;
  // How the closure and native tiers call the same rtlib function on slot
  // words; absent for host-only nodes (strings, variadic, None-aware, ...).
  std::optional<NativeForm> native = std::nullopt;
  // The batch tier's form of a host-only node over a whole chunk (see
  // column_call.hpp): the same rtlib writers as eval, with no Value per row.
  void (*columnar)(const ColumnCall& call) = nullptr;
  // A fallible node's columnar form that throws ColumnarFallback, having
  // written nothing a row form would not, when a row of the chunk fails:
  // the chunk then runs row by row, which finds the failing row (host nodes).
  bool columnar_falls_back = false;
  // The prepared data of every call, for a node with no prepare (a host
  // node's callbacks).
  std::shared_ptr<const Prepared> shared_prepared;
  // How a GPU kernel writes the text of a string node (device_text_form.hpp);
  // absent: a host step on the GPU too.
  std::optional<DeviceTextForm> device_text = std::nullopt;
  std::optional<TablePick> table_pick = std::nullopt;
  std::optional<ConstantInputForm> constant_input_form = std::nullopt;
  VectorDimension vector_dimension = VectorDimension::Varies;
};

// Thrown by a columnar form that falls back to rows (NodeDef::columnar_falls_back).
struct ColumnarFallback {};

// Looks a node up by name (the language's, then the host's); nullptr when
// unknown.
const NodeDef* find_node(std::string_view name);
// The language's node of this name (not the host's), or nullptr.
const NodeDef* find_language_node(std::string_view name);
// Every node in documentation order (by family, then registration order).
const std::vector<const NodeDef*>& all_nodes();

// A comprehension's node-call sources (comprehension::CallSources): the
// nodes that give partition lists (partitions, subdivide), peeled into
// partitions, and the language's nodes that give a vector, peeled into its
// elements. The type of the elements, or nullopt for another name.
std::optional<Type> comprehension_call_element(std::string_view node);

// A table pick's entries that are its prepare's strs (TablePick::entries).
std::vector<Value> prepared_str_entries(const std::vector<Value>& params, const Prepared* prepared);

// Compiler-internal nodes that the checker inserts (conversions, passthrough).
const NodeDef& to_str_node();
const NodeDef& passthrough_node();
const NodeDef& str_to_u64_node();
// A range-checked integer conversion (`as` narrowing) and a widening that
// keeps the word (see nodes_numeric_types.cpp).
const NodeDef& int_convert_node();
const NodeDef& retag_node();
// The logical types' conversions that `as` inserts (nodes_logical.cpp).
const NodeDef& decimal_from_f64_node();
const NodeDef& decimal_rescale_node();
const NodeDef& decimal_to_f64_node();
const NodeDef& time_rescale_node();
const NodeDef& logical_text_node();
const NodeDef& parse_time_node();
// `as bytes` and `as json` (see nodes_bytes.cpp, nodes_json.cpp).
const NodeDef& to_bytes_node();
const NodeDef& parse_json_node();
// A value's bytes (what `as bytes` gives) and its JSON text (to_json's).
std::string bytes_of(const Value& v);
std::string json_of(const Value& v);
// The entry of a table pick (see TablePick): entries[index].
const NodeDef& pick_str_node();
// An object of its inputs under its keys (the parameters), written directly
// (nodes_json.cpp); its prepared strs are the text before each value and the
// object's end.
const NodeDef& json_object_node();
// The row an emit_row renders, its binding's output NAME.row
// (expand/emitted_rows.hpp).
inline constexpr std::string_view kEmitTextName = "__emit_row_text";
const NodeDef& emit_text_node();

// The Display text of a value (u64 decimal, f64 shortest digits without an
// exponent, bool true/false): what str_concat and `as str` produce.
std::string display_text(const Value& v);

std::string_view port_type_name(PortType type);
bool port_accepts(PortType port, Type value_type);
// Renders the node's signature, e.g. "mod(x: u64, modulus: const u64) -> u64".
std::string signature(const NodeDef& def);

// Registration, one function per family (nodes_*.cpp).
class Registry;
void register_hash_nodes(Registry& r);
void register_integer_nodes(Registry& r);
void register_numeric_type_nodes(Registry& r);
void register_bytes_nodes(Registry& r);
void register_json_nodes(Registry& r);
void register_float_nodes(Registry& r);
void register_distribution_nodes(Registry& r);
void register_weighted_nodes(Registry& r);
void register_word_list_nodes(Registry& r);
void register_lorem_nodes(Registry& r);
void register_image_nodes(Registry& r);
void register_text_nodes(Registry& r);
void register_string_op_nodes(Registry& r);
void register_datetime_nodes(Registry& r);
void register_sampler_nodes(Registry& r);
void register_identifier_nodes(Registry& r);
void register_permutation_nodes(Registry& r);
void register_noise_nodes(Registry& r);
void register_predicate_nodes(Registry& r);
void register_context_nodes(Registry& r);
void register_emit_nodes(Registry& r);
void register_iteration_nodes(Registry& r);
void register_partition_nodes(Registry& r);
void register_vector_nodes(Registry& r);
void register_regex_nodes(Registry& r);
void register_json_body_nodes(Registry& r);
void register_data_file_nodes(Registry& r);
void register_fixed_nodes(Registry& r);
void register_diagnostic_nodes(Registry& r);
void register_random_nodes(Registry& r);
void register_spectrum_nodes(Registry& r);

class Registry {
 public:
  void add(NodeDef def);
  // `alias` is another name of the node `of` (polydat's names for nodes that
  // polyrt calls otherwise): the same definition, documented as the alias.
  void add_alias(std::string_view alias, std::string_view of);
  const NodeDef* find(std::string_view name) const;
  const std::vector<const NodeDef*>& ordered() const { return ordered_; }
  // A text the registry keeps, for a NodeDef's views of a name or summary
  // composed at registration (aliases, the per-type vector list nodes).
  std::string_view keep(std::string text);

 private:
  std::vector<std::unique_ptr<NodeDef>> defs_;
  std::vector<const NodeDef*> ordered_;
  std::vector<std::unique_ptr<std::string>> kept_texts_;
};

// Helpers for declaring arguments.
inline ArgSpec wire(std::string_view name, PortType type) {
  return ArgSpec{name, ArgKind::Wire, type};
}
inline ArgSpec wires(std::string_view name, PortType type) {
  return ArgSpec{name, ArgKind::Wire, type, Value(), true};
}
inline ArgSpec konst(std::string_view name, PortType type, Value default_value = {}) {
  return ArgSpec{name, ArgKind::Const, type, std::move(default_value)};
}
inline ArgSpec konsts(std::string_view name, PortType type) {
  return ArgSpec{name, ArgKind::Const, type, Value(), true};
}

}  // namespace polyrt::nodes

// Nodes the embedding program defines: a function of the host's (C++, or
// Python through polyrt.register_node) that programs call by name, like
// polydat's host-registered nodes.
//
//   polyrt::register_node({
//       .name = "host_tag",
//       .inputs = {polyrt::Type::Str, polyrt::Type::U64},
//       .result = polyrt::Type::Str,
//       .row = [](std::span<const polyrt::Value> in) {
//         return polyrt::Value::str(in[0].as_str() + "-" + std::to_string(in[1].as_u64()));
//       }});
//   auto program = polyrt::compile("input cycle\nt := host_tag(\"job\", cycle)\n");
//
// A registered node is known to every program compiled after it, in the
// whole process, and lives as long as the process. Pure nodes (the default)
// may be folded at compile time, called on any thread and in parallel, and
// must give the same value for the same inputs: polyrt's promise of
// bit-identical values holds only if the host keeps it. An impure node is
// re-evaluated once per write, like a volatile binding. A host node is a
// host step on every engine and device (never a GPU kernel); its callbacks
// never run inside JIT or GPU code. An exception a callback throws becomes
// an EvalError naming the function and the row.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "polyrt/error.hpp"
#include "polyrt/value.hpp"

namespace polyrt {

// A registration the registry refuses: a name taken or not a name, a type
// a host node cannot take, no row callback.
class RegistrationError : public Error {
 public:
  using Error::Error;
};

// One input column of a chunk, as the batch tier holds it: numbers and
// bools as 64-bit words (an f64's bits), str as Arrow LargeString offsets
// into bytes. Row r of a column of stride 1 is at r; a stride 0 column is
// one value for every row.
struct HostColumn {
  Type type = Type::U64;
  const uint64_t* words = nullptr;
  const int64_t* offsets = nullptr;
  const char* bytes = nullptr;
  size_t stride = 1;
  uint64_t word(uint64_t row) const { return words[row * stride]; }
  std::string_view text(uint64_t row) const {
    const int64_t* o = offsets + row * stride;
    return {bytes + o[0], (size_t)(o[1] - o[0])};
  }
};

// A chunk of rows for a columnar callback, which fills `words` (a number or
// bool result: `rows` words, an f64's bits) or `texts` (a str result: one
// per row, appended).
struct HostChunk {
  uint64_t rows = 0;
  std::span<const HostColumn> inputs;
  uint64_t* words = nullptr;
  std::vector<std::string>* texts = nullptr;
};

struct HostNode {
  std::string name;          // an identifier, not a node polyrt has, not starting with "__"
  std::vector<Type> inputs;  // the types of its arguments (u64, i64, f64, bool, str)
  Type result = Type::U64;   // the type of its value (the same choice)
  bool pure = true;
  // One row: the inputs (never None) to the value, which must have `result`'s type.
  std::function<Value(std::span<const Value> inputs)> row;
  // Optional: a whole chunk at once (the batch tier's form). On an exception
  // the chunk is evaluated again row by row, so that the failing row is the
  // one reported.
  std::function<void(const HostChunk& chunk)> columns;
  // Shown by `polyrt nodes` and in messages.
  std::string summary;
};

// Registers `node` for every program compiled afterwards. Throws
// RegistrationError.
void register_node(HostNode node);

// Whether a node of this name is registered by the host.
bool is_host_node(std::string_view name);

// What a plugin library gets (`polyrt check/run/eval/plan --plugin lib.so`):
// the library exports
//
//   extern "C" void polyrt_plugin_register(polyrt::HostRegistry& registry);
//
// and calls registry.add(...) for each node. add is virtual, so the library
// registers into the polyrt that loaded it (build it with the same compiler
// and standard library as polyrt).
class HostRegistry {
 public:
  virtual ~HostRegistry() = default;
  virtual void add(HostNode node) = 0;
};

// Loads a plugin library and calls its polyrt_plugin_register. Throws
// RegistrationError for a library that cannot be loaded or has no such
// function, and what its registrations throw.
void load_plugin(const std::string& path);

}  // namespace polyrt

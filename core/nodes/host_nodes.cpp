// The host's nodes (polyrt/host_nodes.hpp): each registration becomes a
// NodeDef whose shared prepared data holds the host's callbacks, found by
// find_node after the language's own nodes. Host-only, fallible, never a
// kernel: a host step on every engine and device. The public registration,
// which also keeps the standard library's module names, is
// modules/host_node_registration.cpp.
#include "nodes/host_nodes.hpp"

#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "nodes/registry.hpp"
#include "polyrt/host_nodes.hpp"
#include "polyrt/numeric_types.hpp"
#include "syntax/reserved_words.hpp"

namespace polyrt::nodes {

namespace {

// One registration: the host's node, and the NodeDef over it (whose views
// point into it; both live as long as the process).
struct HostEntry {
  HostNode node;
  std::vector<std::string> arg_names;
  NodeDef def;
};

struct HostTable {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<HostEntry>, std::less<>> entries;
};

HostTable& table() {
  static HostTable t;
  return t;
}

const HostNode& host_of(const Prepared& prepared) {
  return *static_cast<const HostNode*>(prepared.extra.get());
}

PortType port_of(Type t) {
  switch (t) {
    case Type::I64:
      return PortType::I64;
    case Type::F64:
      return PortType::F64;
    case Type::Str:
      return PortType::Str;
    default:  // u64, and bool (a u64 port takes both; host_eval gives the bool)
      return PortType::U64;
  }
}

bool host_type(Type t) {
  return t == Type::U64 || t == Type::I64 || t == Type::F64 || t == Type::Bool || t == Type::Str;
}

// An input as the signature types it: a bool parameter reads a u64's truth.
Value as_parameter(const Value& v, Type declared) {
  if (declared == Type::Bool && v.type() != Type::Bool) return Value::boolean(v.as_u64() != 0);
  if (declared == Type::I64 && v.type() != Type::I64) return Value::i64(v.as_i64());
  if (declared == Type::F64 && v.type() != Type::F64) return Value::f64(v.as_f64());
  if (declared == Type::U64 && v.type() != Type::U64) return Value::u64(v.as_u64());
  return v;
}

[[noreturn]] void host_failed(const HostNode& h, const std::string& what) {
  throw NodeFailure{"host function '" + h.name + "' " + what};
}

void host_eval(Call& c) {
  const HostNode& h = host_of(c.prepared());
  std::vector<Value> in;
  in.reserve(c.input_count());
  for (size_t k = 0; k < c.input_count(); ++k) in.push_back(as_parameter(c.input(k), h.inputs[k]));
  Value out;
  try {
    out = h.row(in);
  } catch (const std::exception& e) {
    host_failed(h, std::string("threw: ") + e.what());
  } catch (...) {
    host_failed(h, "threw an exception that is not a std::exception");
  }
  if (out.is_none() || out.type() != h.result) {
    host_failed(h, "returned " +
                       (out.is_none() ? std::string("None") : std::string(type_name(out.type()))) +
                       ", not the " + std::string(type_name(h.result)) + " it was registered with");
  }
  c.set(std::move(out));
}

void host_columnar(const ColumnCall& c) {
  const HostNode& h = host_of(c.prepared);
  std::vector<HostColumn> inputs(c.inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    const ColumnInput& in = c.inputs[k];
    inputs[k] = HostColumn{in.type, in.words, in.offsets, in.bytes, in.stride};
  }
  std::vector<std::string> texts;
  const bool text = h.result == Type::Str;
  if (text) texts.reserve(c.rows);
  try {
    h.columns(HostChunk{.rows = c.rows,
                        .inputs = inputs,
                        .words = text ? nullptr : c.outputs[0].words,
                        .texts = text ? &texts : nullptr});
  } catch (...) {
    throw ColumnarFallback{};
  }
  if (!text) return;
  if (texts.size() != c.rows) throw ColumnarFallback{};
  for (const std::string& t : texts) c.outputs[0].text->append(t);
}

}  // namespace

void check_host_node_name(const std::string& n) {
  bool valid = !n.empty() && (std::isalpha((unsigned char)n[0]) || n[0] == '_');
  for (char ch : n) valid = valid && (std::isalnum((unsigned char)ch) || ch == '_');
  if (!valid) {
    throw RegistrationError(
        "a host node's name must be an identifier ([A-Za-z_][A-Za-z0-9_]*), "
        "got '" +
        n + "'");
  }
  if (n.rfind("__", 0) == 0) {
    throw RegistrationError("host node '" + n + "': names starting with '__' are reserved");
  }
  if (syntax::is_reserved_word(n)) {
    throw RegistrationError("host node '" + n + "': '" + n +
                            "' is a word of the language, which no node may take");
  }
}

void add_host_node(HostNode node) {
  const std::string name = node.name;
  if (!node.row) throw RegistrationError("host node '" + name + "' has no row callback");
  for (const Type t : node.inputs) {
    if (!host_type(t)) {
      throw RegistrationError("host node '" + name + "': an input cannot be " +
                              std::string(type_name(t)) + " (valid: u64, i64, f64, bool, str)");
    }
  }
  if (!host_type(node.result)) {
    throw RegistrationError("host node '" + name + "': the result cannot be " +
                            std::string(type_name(node.result)) +
                            " (valid: u64, i64, f64, bool, str)");
  }
  HostTable& t = table();
  std::lock_guard lock(t.mutex);
  if (t.entries.count(name) || find_language_node(name)) {
    throw RegistrationError("a node named '" + name + "' is already " +
                            (t.entries.count(name) ? "registered by the host" : "polyrt's") +
                            "; register each host node once, under a name of its own");
  }
  auto entry = std::make_unique<HostEntry>();
  entry->node = std::move(node);
  const HostNode& h = entry->node;
  for (size_t k = 0; k < h.inputs.size(); ++k)
    entry->arg_names.push_back("arg" + std::to_string(k + 1));
  NodeDef& def = entry->def;
  def.name = h.name;
  def.family = "host";
  for (size_t k = 0; k < h.inputs.size(); ++k) {
    def.args.push_back(wire(entry->arg_names[k], port_of(h.inputs[k])));
  }
  def.results = {h.result};
  def.purity = h.pure ? Purity::Pure : Purity::Nondeterministic;
  def.can_fail = true;
  def.summary = h.summary.empty() ? std::string_view("Registered by the host.") : h.summary;
  def.failure = "when the host's callback throws or returns a value of another type";
  def.eval = host_eval;
  if (h.columns) {
    def.columnar = host_columnar;
    def.columnar_falls_back = true;
  }
  auto prepared = std::make_shared<Prepared>();
  prepared->extra = std::shared_ptr<const void>(std::shared_ptr<const void>(), &h);
  def.shared_prepared = std::move(prepared);
  t.entries.emplace(name, std::move(entry));
}

const NodeDef* find_host_node(std::string_view name) {
  HostTable& t = table();
  std::lock_guard lock(t.mutex);
  const auto it = t.entries.find(name);
  return it == t.entries.end() ? nullptr : &it->second->def;
}

}  // namespace polyrt::nodes

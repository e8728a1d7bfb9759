#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <optional>

#include "io/confinement.hpp"
#include "nodes/registry.hpp"

namespace polyrt::nodes {

namespace {

// A counter node's next value, shared by every state and thread of its
// program (the Prepared is made once per compiled node).
struct CounterCell {
  mutable std::atomic<uint64_t> next;
};

uint64_t epoch_millis() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return (uint64_t)std::chrono::duration_cast<std::chrono::milliseconds>(now).count();
}

// The moment a program is compiled (the prepare of a node that reads it).
std::shared_ptr<const Prepared> capture_compile_time(const std::vector<Value>&) {
  auto prepared = std::make_shared<Prepared>();
  prepared->u64s.push_back(epoch_millis());
  return prepared;
}

// An environment variable's value at compile time: `fallback` when it is
// unset, or a ParamError without one.
std::shared_ptr<const Prepared> read_environment(const std::string& name,
                                                 const std::optional<std::string>& fallback) {
  if (const io::Confinement* c = io::confinement();
      c && std::find(c->allowed_env.begin(), c->allowed_env.end(), name) == c->allowed_env.end()) {
    throw ParamError{0,
                     "an untrusted program reads no environment variable it was not allowed: "
                     "allow " +
                         name + " with --allow-env " + name +
                         " (CompileOptions::allowed_env, Python allow_env=)"};
  }
  const char* value = std::getenv(name.c_str());
  if (!value && !fallback) {
    throw ParamError{0, "environment variable " + name + " is not set (env_or gives a default)"};
  }
  auto prepared = std::make_shared<Prepared>();
  prepared->strs.push_back(value ? std::string(value) : *fallback);
  return prepared;
}

// A small number per thread, handed out in the order threads first ask.
uint64_t this_thread_number() {
  static std::atomic<uint64_t> next{0};
  thread_local const uint64_t mine = next.fetch_add(1, std::memory_order_relaxed);
  return mine;
}

// polydat's log nodes, one per level.
constexpr std::string_view kLogNodes[] = {"log_debug", "log_info", "log_warn", "log_error"};
constexpr std::string_view kLogSummaries[] = {
    "Passes value through and sends \"log_debug: <value>\" to the state's log sink each time "
    "the step runs (never while it is current).",
    "Passes value through and sends \"log_info: <value>\" to the state's log sink each time "
    "the step runs (never while it is current).",
    "Passes value through and sends \"log_warn: <value>\" to the state's log sink each time "
    "the step runs (never while it is current).",
    "Passes value through and sends \"log_error: <value>\" to the state's log sink each time "
    "the step runs (never while it is current)."};

template <size_t Level>
void emit_log(Call& c, const SideChannelSink& sink) {
  c.set(c.input(0));
  if (sink) sink(std::string(kLogNodes[Level]) + ": " + c.input(0).to_string());
}

template <size_t Level>
void add_log(Registry& r) {
  r.add({.name = kLogNodes[Level],
         .family = "context and side channels",
         .args = {wire("value", PortType::Any)},
         .result_types = [](const std::vector<Type>& in, const std::vector<Value>&) { return in; },
         .result_doc = "same type as value",
         .purity = Purity::SideChannel,
         .summary = kLogSummaries[Level],
         .eval = [](Call& c) { c.set(c.input(0)); },
         .emit = emit_log<Level>});
}

}  // namespace

void register_context_nodes(Registry& r) {
  r.add({.name = "current_epoch_millis",
         .family = "context and side channels",
         .args = {},
         .results = {Type::U64},
         .purity = Purity::Nondeterministic,
         .summary = "Wall-clock milliseconds since the Unix epoch; read once per write of the "
                    "state (volatile), never folded.",
         .eval = [](Call& c) { c.set_u64(epoch_millis()); }});
  r.add({.name = "counter",
         .family = "context and side channels",
         .args = {konst("start", PortType::U64, Value::u64(0))},
         .results = {Type::U64},
         .purity = Purity::Nondeterministic,
         .summary = "start, start + 1, ...: one count per evaluation, shared by every state and "
                    "thread of the program (which thread gets which count is not determined).",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           auto prepared = std::make_shared<Prepared>();
           auto cell = std::make_shared<CounterCell>();
           cell->next.store(p[0].as_u64());
           prepared->extra = cell;
           return prepared;
         },
         .eval =
             [](Call& c) {
               const auto& cell = *static_cast<const CounterCell*>(c.prepared().extra.get());
               c.set_u64(cell.next.fetch_add(1, std::memory_order_relaxed));
             }});
  r.add({.name = "thread_id",
         .family = "context and side channels",
         .args = {},
         .results = {Type::U64},
         .purity = Purity::Nondeterministic,
         .summary = "A number of the thread evaluating it: 0 for the first thread of the process "
                    "that asks, 1 for the next, ...",
         .eval = [](Call& c) { c.set_u64(this_thread_number()); }});
  r.add({.name = "session_start_millis",
         .family = "context and side channels",
         .args = {},
         .results = {Type::U64},
         .purity = Purity::Nondeterministic,
         .summary = "Wall-clock milliseconds since the Unix epoch when the program was compiled: "
                    "the same for every evaluation of the program.",
         .prepare = capture_compile_time,
         .eval = [](Call& c) { c.set_u64(c.prepared().u64s[0]); }});
  r.add({.name = "elapsed_millis",
         .family = "context and side channels",
         .args = {},
         .results = {Type::U64},
         .purity = Purity::Nondeterministic,
         .summary = "Milliseconds since the program was compiled (session_start_millis), read at "
                    "each evaluation.",
         .prepare = capture_compile_time,
         .eval = [](Call& c) {
           const uint64_t start = c.prepared().u64s[0], now = epoch_millis();
           c.set_u64(now > start ? now - start : 0);
         }});
  r.add({.name = "env",
         .family = "context and side channels",
         .args = {konst("name", PortType::Str)},
         .results = {Type::Str},
         .summary = "The environment variable name's value when the program is compiled (a "
                    "constant); compiling fails when it is not set.",
         .prepare =
             [](const std::vector<Value>& p) {
               return read_environment(p[0].as_str(), std::nullopt);
             },
         .eval = [](Call& c) { c.set_str(c.prepared().strs[0]); }});
  r.add({.name = "env_or",
         .family = "context and side channels",
         .args = {konst("name", PortType::Str), konst("default", PortType::Str)},
         .results = {Type::Str},
         .summary = "The environment variable name's value when the program is compiled, or "
                    "default when it is not set (a constant).",
         .prepare =
             [](const std::vector<Value>& p) {
               return read_environment(p[0].as_str(), p[1].as_str());
             },
         .eval = [](Call& c) { c.set_str(c.prepared().strs[0]); }});
  r.add({.name = "tmp_dir",
         .family = "context and side channels",
         .args = {},
         .results = {Type::Str},
         .summary = "The system's directory for temporary files when the program is compiled: "
                    "TMPDIR, or /tmp when it is not set (a constant, as polydat's); an untrusted "
                    "program needs TMPDIR allowed, as env does.",
         .prepare = [](const std::vector<Value>&) { return read_environment("TMPDIR", "/tmp"); },
         .eval = [](Call& c) { c.set_str(c.prepared().strs[0]); }});
  r.add({.name = "limit",
         .family = "context and side channels",
         .args = {wire("input", PortType::U64), konst("max_items", PortType::U64)},
         .results = {Type::U64},
         .summary = "input, unchanged: polydat's compiler puts it on a cursor's ordinal to show "
                    "the cursor's max_items in the graph; the clamp is the cursor's.",
         .eval = [](Call& c) { c.set_u64(c.u64(0)); }});
  r.add({.name = "identity",
         .family = "context and side channels",
         .args = {wire("input", PortType::Any)},
         .result_types = [](const std::vector<Type>& in, const std::vector<Value>&) { return in; },
         .result_doc = "same type as input",
         .summary = "input, unchanged (a named pass-through, as polydat has it).",
         .eval = [](Call& c) { c.set(c.input(0)); }});
  add_log<0>(r);
  add_log<1>(r);
  add_log<2>(r);
  add_log<3>(r);
}

}  // namespace polyrt::nodes

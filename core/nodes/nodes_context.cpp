#include <chrono>

#include "nodes/registry.hpp"

namespace polyrt::nodes {

void register_context_nodes(Registry& r) {
  r.add({.name = "current_epoch_millis",
         .family = "context and side channels",
         .args = {},
         .results = {Type::U64},
         .purity = Purity::Nondeterministic,
         .summary = "Wall-clock milliseconds since the Unix epoch; read once per write of the "
                    "state (volatile), never folded.",
         .eval = [](Call& c) {
           const auto now = std::chrono::system_clock::now().time_since_epoch();
           c.set_u64((uint64_t)std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
         }});
  r.add({.name = "log_info",
         .family = "context and side channels",
         .args = {wire("value", PortType::Any)},
         .result_types = [](const std::vector<Type>& in, const std::vector<Value>&) { return in; },
         .result_doc = "same type as value",
         .purity = Purity::SideChannel,
         .summary = "Passes value through and sends \"log_info: <value>\" to the state's log "
                    "sink each time the step runs (never while it is current).",
         .eval = [](Call& c) { c.set(c.input(0)); },
         .emit =
             [](Call& c, const SideChannelSink& sink) {
               c.set(c.input(0));
               if (sink) sink("log_info: " + c.input(0).to_string());
             }});
}

}  // namespace polyrt::nodes

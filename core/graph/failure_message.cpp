#include "graph/failure_message.hpp"

#include <algorithm>

#include "value/message_text.hpp"

namespace polyrt::ir {

namespace {

// Long values are cut (text_for_message): the message stays readable.
std::string show(const Value* v) {
  if (v->is_none()) return "None";
  if (v->type() == Type::Str) return "\"" + text_for_message(v->as_str()) + "\"";
  return text_for_message(v->to_string());
}

// Named outputs whose value depends on `node` (including its own), sorted.
std::vector<std::string> fed_outputs(const Graph& g, uint32_t node) {
  std::vector<uint8_t> reached(g.nodes.size(), 0);
  reached[node] = 1;
  for (uint32_t i = node + 1; i < g.nodes.size(); ++i) {
    for (const Wire& w : g.nodes[i].inputs) {
      if (reached[w.node]) {
        reached[i] = 1;
        break;
      }
    }
  }
  std::vector<std::string> names;
  for (const Output& o : g.outputs) {
    if (!reached[o.wire.node]) continue;
    // A presence output feeds the nullable output it is named after.
    names.push_back(o.hidden ? o.name.substr(0, o.name.size() - kPresenceSuffix.size()) : o.name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

std::string failure_message(const Graph& g, uint32_t node, const std::string& reason,
                            const std::vector<const Value*>& inputs,
                            const std::vector<uint64_t>* coordinates) {
  const Node& n = g.nodes[node];
  std::string out = "node '" + n.label + "' in binding '" + n.binding + "' at " + g.location_of(n) +
                    " failed: " + text_for_message(reason, 1024) + g.call_chain_of(n);
  const auto fed = fed_outputs(g, node);
  out += "\n  feeds outputs: ";
  for (size_t i = 0; i < fed.size(); ++i) out += (i ? ", " : "") + fed[i];
  if (fed.empty()) out += "(none)";
  out += "\n  inputs: ";
  for (size_t i = 0; i < inputs.size(); ++i) out += (i ? ", " : "") + show(inputs[i]);
  if (inputs.empty()) out += "(none)";
  if (coordinates) {
    out += "\n  coordinates: ";
    for (size_t c = 0; c < g.coordinates.size(); ++c) {
      out += (c ? ", " : "") + g.nodes[g.coordinates[c]].name + "=" +
             std::to_string((*coordinates)[c]);
    }
    if (g.coordinates.empty()) out += "(none)";
  }
  return out;
}

}  // namespace polyrt::ir

#include "nodes/node_docs.hpp"

#include "nodes/registry.hpp"

namespace polyrt::nodes {

namespace {
std::string purity_text(const NodeDef& d) {
  switch (d.purity) {
    case Purity::Pure: return "pure";
    case Purity::Nondeterministic: return "nondeterministic (volatile)";
    case Purity::SideChannel: return "side channel";
  }
  return "?";
}
}  // namespace

std::string node_reference_markdown() {
  std::string out;
  std::string_view family;
  for (const NodeDef* d : all_nodes()) {
    if (d->family != family) {
      family = d->family;
      out += "\n### " + std::string(family) + "\n\n";
    }
    out += "#### `" + std::string(d->name) + "`\n\n";
    out += "`" + signature(*d) + "`\n\n";
    out += std::string(d->summary) + "\n\n";
    out += "- purity: " + purity_text(*d) + "\n";
    out += std::string("- None: ") +
           (d->accepts_none ? "accepted (None-aware)" : "any None input makes the outputs None") + "\n";
    out += "- fails: " + (d->can_fail ? std::string(d->failure) : std::string("never")) + "\n\n";
  }
  return out;
}

}  // namespace polyrt::nodes

#include "nodes/node_docs.hpp"

#include "nodes/registry.hpp"

namespace polyrt::nodes {

namespace {
std::string purity_text(const NodeDef& d) {
  switch (d.purity) {
    case Purity::Pure:
      return "pure";
    case Purity::Nondeterministic:
      return "nondeterministic (volatile)";
    case Purity::SideChannel:
      return "side channel";
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
      out.append("\n### ").append(family).append("\n\n");
    }
    out.append("#### `").append(d->name).append("`\n\n");
    out.append("`").append(signature(*d)).append("`\n\n");
    out.append(d->summary).append("\n\n");
    out.append("- purity: ").append(purity_text(*d)).append("\n");
    out.append("- None: ")
        .append(d->accepts_none ? "accepted (None-aware)" : "any None input makes the outputs None")
        .append("\n");
    out.append("- fails: ").append(d->can_fail ? d->failure : "never").append("\n\n");
  }
  return out;
}

}  // namespace polyrt::nodes

#include "graph/lower.hpp"

#include "graph/lowerer.hpp"

namespace polyrt::ir {

Graph lower(const dsl::Sources& sources, const dsl::Ast& ast, const CompileOptions& options) {
  return lowering::Lowerer(sources, ast, options).run();
}

}  // namespace polyrt::ir

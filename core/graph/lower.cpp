#include "graph/lower.hpp"

#include "graph/lowerer.hpp"

namespace polyrt::ir {

Graph lower(const syntax::Sources& sources, const syntax::Ast& ast, const CompileOptions& options) {
  return lowering::Lowerer(sources, ast, options).run();
}

}  // namespace polyrt::ir

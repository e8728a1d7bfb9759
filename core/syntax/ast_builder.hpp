// Expressions and statements the compiler writes itself (a traversal's
// lattice body, a body's cursor declarations), all at one source position,
// with the depth the parser would have given them.
#pragma once

#include <string>
#include <vector>

#include "polyrt/value.hpp"
#include "syntax/ast.hpp"

namespace polyrt::syntax {

class AstBuilder {
 public:
  explicit AstBuilder(SourcePos at) : at_(at) {}

  ExprPtr literal(const Value& v) const;  // a u64, f64 or str
  ExprPtr name(std::string n) const;
  ExprPtr binary(const char* op, ExprPtr a, ExprPtr b) const;
  ExprPtr call(const char* callee, std::vector<ExprPtr> args) const;
  // `kind NAME` with no value (an input, an extern: set its type).
  Stmt statement(StmtKind kind, std::string n) const;
  Stmt binding(std::string n, ExprPtr value, bool hidden) const;

 private:
  ExprPtr node(ExprKind kind, std::vector<ExprPtr> args = {}) const;
  SourcePos at_;
};

}  // namespace polyrt::syntax

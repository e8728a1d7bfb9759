// Module calls are a compile-time graph operation (polydat's module system):
// every call of a module is replaced by a copy of its body whose names are
// private to that call, before the program is lowered. No module boundary
// remains at run time: a literal argument lands in the body as that literal
// (so it may fill a node's constant argument), an expression argument becomes
// a hidden binding the body reads.
#pragma once

#include "modules/module_library.hpp"
#include "syntax/ast.hpp"
#include "syntax/sources.hpp"

namespace polyrt::modules {

// Limits a program's inlining (a module called in many places, modules whose
// bodies call modules several times over): past it, a CompileError.
inline constexpr size_t kMaxInlinedStatements = size_t{1} << 18;
// How deep module calls may nest (a module calling a module calling ...);
// deeper is a CompileError, never a stack overflow.
inline constexpr size_t kMaxModuleDepth = 256;

// `program` with every module call inlined: the module's hidden bindings
// (Stmt::hidden) join its statements and `modules` is empty. Modules the
// program defines shadow nodes of the same name; other names that are not
// nodes are looked up in `library`. Throws CompileError.
syntax::Ast inline_modules(syntax::Ast program, Sources& sources, ModuleLibrary& library);

}  // namespace polyrt::modules

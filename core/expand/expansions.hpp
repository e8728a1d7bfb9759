// Every desugaring of the syntax tree, one named Expansion each, in the one
// order they run. The parser only parses (syntax::parse); the driver
// (program/program.cpp) runs the file's expansions once on the parsed file,
// takes its traversals and cursors apart (program/compile_traversals.hpp,
// program/top_level_cursors.hpp), then runs the program expansions on every
// program it compiles from the tree: the top level, each traversal body and
// its batch form, a cursor bound's probe. A new construct of the language is
// its grammar, one expansion here (or none, when the checker lowers it
// directly) and the checker's rule (docs/architecture.md).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "modules/module_library.hpp"
#include "syntax/ast.hpp"
#include "syntax/sources.hpp"

namespace polyrt::expand {

// What an expansion rewrites: the whole parsed file once, or each program
// compiled from it.
enum class Scope { File, Program };

struct Context {
  const syntax::SourceText& text;  // the file (a tile's body is read from it raw)
  syntax::Sources& sources;        // where diagnostics point
  modules::ModuleLibrary& library;
  // Debugging (CompileOptions::dump_after): after the expansion of this
  // name, the tree as text (syntax::tree_text) goes to *dump. Null: no dump.
  std::string_view dump_after;
  const std::function<void(std::string_view)>* dump = nullptr;
  // What the dump calls the program ("the program", "the body of 'for ...'").
  std::string program_name = "the program";
};

struct Expansion {
  std::string_view name;
  Scope scope;
  std::string_view does;  // one line, for --dump-after's list
  void (*run)(syntax::Ast& ast, Context& context);
};

// In the order they run.
std::span<const Expansion> expansions();

// Runs the file's expansions in order. Throws CompileError, or RefusedError
// when the context asks for a dump after an expansion that does not exist.
void expand_file(syntax::Ast& ast, Context& context);
// Runs the program expansions in order. Throws CompileError.
void expand_program(syntax::Ast& ast, Context& context);

}  // namespace polyrt::expand

// The front end's expansions (expand/expansions.hpp): the parser leaves the
// tree as written, the expansions run in their one order, and a program's
// tree can be seen after any of them (CompileOptions::dump_after).
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "nodes/registry.hpp"
#include "polyrt/error.hpp"
#include "polyrt/polyrt.hpp"
#include "syntax/ast.hpp"
#include "syntax/tree_text.hpp"

namespace polyrt {
namespace {

CompileOptions interpreted() {
  CompileOptions options;
  options.engine = Engine::Interpreter;
  return options;
}

// The dumps a compile of `text` sends after expansion `name`.
std::vector<std::string> dumps_after(const std::string& text, const std::string& name) {
  CompileOptions options = interpreted();
  std::vector<std::string> dumps;
  options.dump_after = name;
  options.dump_sink = [&](std::string_view tree) { dumps.emplace_back(tree); };
  compile(text, options);
  return dumps;
}

TEST(Expansions, RunInTheirOneOrder) {
  std::vector<std::string> names;
  for (const std::string& line : expansion_names()) names.push_back(line.substr(0, line.find(':')));
  EXPECT_EQ(names, (std::vector<std::string>{"producers", "tiles", "emitted_rows", "modules",
                                             "table_values"}));
}

TEST(Expansions, TheParserLeavesTheTreeAsWritten) {
  const syntax::SourceText text("t.polydat",
                                "input cycle\ntile t : text := \"id=${cycle}\"\n"
                                "e := emit_row(\"csv\", \"a\", cycle)\n");
  const syntax::Ast ast = syntax::parse(text, nodes::comprehension_call_element);
  ASSERT_EQ(ast.statements.size(), 3u);  // no e.row yet
  EXPECT_TRUE(ast.statements[1].tile.has_value());
  EXPECT_EQ(ast.statements[1].expr, nullptr);  // the tile is not compiled yet
}

TEST(Expansions, WhatAnExpansionRefusesIsACompileError) {
  for (const char* text : {"v := for nothing_bound", "tile t : json := { \"a\" }"}) {
    EXPECT_THROW(compile(text, interpreted()), CompileError) << text;
  }
}

TEST(Expansions, TheTreeAfterAnExpansionIsDumped) {
  const std::vector<std::string> tiles =
      dumps_after("input cycle\ntile t : text := \"id=${cycle}\"\n", "tiles");
  ASSERT_EQ(tiles.size(), 1u);
  EXPECT_NE(tiles[0].find("// the program after 'tiles'\n"), std::string::npos) << tiles[0];
  EXPECT_NE(tiles[0].find("t := "), std::string::npos) << tiles[0];
  EXPECT_NE(tiles[0].find("cycle"), std::string::npos) << tiles[0];

  // A program expansion: the program, then each traversal body (and the
  // batch form of a body over a literal lattice).
  const std::vector<std::string> modules = dumps_after(
      "input cycle\nm(x: u64) -> (v: u64) := { v := hash(x) + 1 }\ny := m(cycle)\n"
      "for k in 0..2 { z := m(k) }\n",
      "modules");
  ASSERT_EQ(modules.size(), 3u);
  EXPECT_NE(modules[0].find("// the program after 'modules'"), std::string::npos);
  EXPECT_EQ(modules[0].find("m(x: u64)"), std::string::npos) << modules[0];  // inlined
  EXPECT_NE(modules[0].find("(hash("), std::string::npos) << modules[0];
  EXPECT_NE(modules[1].find("// the body of 'for k in 0..2' after 'modules'"), std::string::npos)
      << modules[1];
  EXPECT_NE(modules[2].find("// the batch form of 'for k in 0..2' after 'modules'"),
            std::string::npos)
      << modules[2];
}

// Floats print as they read back: shortest digits, a float even when
// integral, NaN and infinities as they are.
TEST(Expansions, TheTreeTextOfFloats) {
  for (const auto& [value, text] : std::vector<std::pair<double, std::string>>{
           {0.15, "0.15"}, {2.0, "2.0"}, {1e300, "1e300"}}) {
    syntax::Expr e;
    e.kind = syntax::ExprKind::Float;
    e.f = value;
    EXPECT_EQ(syntax::tree_text(e), text) << value;
  }
  syntax::Expr nan;
  nan.kind = syntax::ExprKind::Float;
  nan.f = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(syntax::tree_text(nan), "NaN");
  nan.f = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(syntax::tree_text(nan), "-inf");
}

TEST(Expansions, AnUnknownExpansionIsRefusedWithTheNames) {
  try {
    dumps_after("input cycle\nx := cycle\n", "tile");
    FAIL() << "no error";
  } catch (const RefusedError& e) {
    EXPECT_NE(std::string(e.what()).find("'tile'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("producers, tiles, emitted_rows, modules, table_values"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace polyrt

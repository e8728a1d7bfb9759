// docs/nodes.md embeds the registry's generated reference: it must match;
// the programs docs/language.md shows must compile.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "nodes/node_docs.hpp"
#include "polyrt/polyrt.hpp"

namespace {

std::string read_doc(const std::string& name) {
  std::ifstream in(std::string(POLYRT_SOURCE_DIR) + "/docs/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every untagged fenced block (its fence indented or not) is a program; a
// tagged one (```json) shows output.
TEST(Docs, LanguageExamplesCompile) {
  std::istringstream doc(read_doc("language.md"));
  size_t blocks = 0;
  bool inside = false, program = false;
  std::string text, line;
  while (std::getline(doc, line)) {
    const size_t indent = line.find_first_not_of(' ');
    const bool fence = indent != std::string::npos && line.compare(indent, 3, "```") == 0;
    if (!inside) {
      inside = fence;
      program = fence && line.size() == indent + 3;
      text.clear();
    } else if (fence) {
      inside = false;
      if (program) {
        EXPECT_NO_THROW(polyrt::compile(text)) << text;
        ++blocks;
      }
    } else {
      text += line + "\n";
    }
  }
  EXPECT_FALSE(inside);
  EXPECT_GE(blocks, 2u);
}

TEST(Docs, NodeReferenceIsUpToDate) {
  const std::string doc = read_doc("nodes.md");
  const std::string begin = "<!-- BEGIN GENERATED: polyrt nodes -->\n";
  const std::string end = "<!-- END GENERATED -->";
  const size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()),
            polyrt::nodes::node_reference_markdown())
      << "regenerate with: tools/update_node_docs.sh";
}

}  // namespace

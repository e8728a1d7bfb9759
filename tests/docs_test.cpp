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

TEST(Docs, LanguageExamplesCompile) {
  const std::string doc = read_doc("language.md");
  const std::string fence = "```\n";
  size_t blocks = 0;
  for (size_t at = doc.find(fence); at != std::string::npos;) {
    const size_t end = doc.find(fence, at + fence.size());
    ASSERT_NE(end, std::string::npos);
    const std::string program = doc.substr(at + fence.size(), end - at - fence.size());
    EXPECT_NO_THROW(polyrt::compile(program)) << program;
    ++blocks;
    at = doc.find(fence, end + fence.size());
  }
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

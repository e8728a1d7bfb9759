// docs/nodes.md embeds the registry's generated reference: it must match.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "nodes/node_docs.hpp"

namespace {

TEST(Docs, NodeReferenceIsUpToDate) {
  std::ifstream in(std::string(POLYRT_SOURCE_DIR) + "/docs/nodes.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
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

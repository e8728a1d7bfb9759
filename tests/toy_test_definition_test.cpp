// polydat's flagship example, tests/data/polydat/toy_test_definition.polydat
// (a producer over phases, intervals and partitions of {rows_total}, a body
// cursor whose bound is the program's extern, a module, tiles), against the
// rows its tutorial documents.
#include <gtest/gtest.h>

#include "polyrt/traversal.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const std::string kToy =
    std::string(POLYRT_SOURCE_DIR) + "/tests/data/polydat/toy_test_definition.polydat";

// Activation `a` at its cycle `cycle`: row, tenant, device, reading, ts
// and status as the tutorial lists them.
std::string row_of(const Traversal& t, size_t a, uint64_t cycle) {
  State s = t.activation(a, cycle);
  std::string out;
  for (const char* name : {"row", "tenant", "device", "reading", "ts", "status"}) {
    out += (out.empty() ? "" : " ") + std::string(name) + "=" + s.pull(name).to_string();
  }
  return out;
}

TEST(ToyTestDefinition, TheTutorialsRows) {
  const auto program = compile_file(kToy);
  State parent = program->new_state();
  const uint64_t root[] = {0};
  parent.set_inputs(root);
  const Traversal t = open_traversal(parent, root, 0);
  ASSERT_EQ(t.tuples().size(), 16u) << "2 phases x 2 intervals x 4 quarters";
  for (size_t a = 0; a < 16; ++a) EXPECT_EQ(t.cycles(a), 250000u) << a;
  const char* expected[][2] = {
      {"row=0 tenant=0 device=0 reading=0 ts=1700000000000 status=ok",
       "row=1 tenant=1 device=0 reading=0 ts=1700000000000 status=ok"},
      {"row=250000 tenant=0 device=0 reading=250 ts=1700000250000 status=ok",
       "row=250001 tenant=1 device=0 reading=250 ts=1700000250000 status=ok"},
      {"row=500000 tenant=0 device=0 reading=500 ts=1700000500000 status=ok",
       "row=500001 tenant=1 device=0 reading=500 ts=1700000500000 status=ok"}};
  for (size_t a = 0; a < 3; ++a) {
    EXPECT_EQ(row_of(t, a, 0), expected[a][0]);
    EXPECT_EQ(row_of(t, a, 1), expected[a][1]);
  }
  // The fifth: the first quarter again, readings a minute apart.
  EXPECT_EQ(t.activation(4, 1000).pull("ts").as_u64(), 1700000000000u + 60000u);
}

TEST(ToyTestDefinition, TheFirstDocument) {
  const auto program = compile_file(kToy);
  State parent = program->new_state();
  const uint64_t root[] = {0};
  parent.set_inputs(root);
  const std::string doc = open_traversal(parent, root, 0).activation(0).pull("doc").to_string();
  EXPECT_EQ(
      doc,
      "{\n"
      "    \"meta\": { \"schema\": 3, \"source\": \"polydat\", \"units\": { \"temp\": \"C\", "
      "\"rh\": \"%\" } },\n"
      "    \"tenant\": 607535,\n"
      "    \"device\": \"d9ac876f-bb3a-4bc7-b9f8-382893178079\",\n"
      "    \"kind\": \"sensor\",\n"
      "    \"ts\": 1700000000000,\n"
      "    \"reading\": { \"temp\": 22.28, \"rh\": 35.5, \"status\": \"ok\" },\n"
      "    \"samples\": [ { \"n\": 0, \"temp\": 22.28 },{ \"n\": 1, \"temp\": 23.28 },{ \"n\": "
      "2, \"temp\": 24.28 },{ \"n\": 3, \"temp\": 25.28 } ],\n"
      "    \"flagged\": false\n"
      "}");
}

// Externs reach the traversal: rows_total sizes the spec and the cursor.
TEST(ToyTestDefinition, AssignedExternsReshapeTheRun) {
  const CommandResult r = run_polyrt("run " + kToy +
                                     " --cycles 0..1 -q --format csv --outputs row,ts "
                                     "--set base_epoch_ms=5 --set rows_total=400");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1601);
  for (const char* row : {"0", "100", "200", "300"}) {
    EXPECT_NE(r.out.find("\"\"start_ord\"\":" + std::string(row) + ",\"\"start_pct\"\""),
              std::string::npos)
        << row;
  }
  EXPECT_NE(r.out.find("\"\"start_ord\"\":300,\"\"start_pct\"\":75.0}\",300,5\n"),
            std::string::npos);
}

}  // namespace
}  // namespace polyrt::test

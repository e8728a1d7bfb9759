// polydat's legacy `init` and table values (expand/table_values.hpp): a table
// sampled by lut_sample or alias_sample gives the values of polyrt's direct
// node on every engine and on the batch tier, through a module parameter
// typed alias_table too; a table misused, or something else sampled as one,
// is a CompileError that names the rule.
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kTables = R"(input cycle
init normal = dist_normal(100.0, 15.0)
init wait = dist_exponential(2.0)
init tail = dist_pareto(1.0, 3.0)
init pick = alias_table(0.5, 0.3, 0.2)
init listed = alias_table([0.5, 0.3, 0.2])
weights := [0.5, 0.3, 0.2]
init bound = alias_table(weights)
u := unit_interval(hash(cycle))
height := lut_sample(u, normal)
height_direct := dist_normal(u, 100.0, 15.0)
waited := lut_sample(u, wait)
waited_direct := dist_exponential(u, 2.0)
tailed := lut_sample(u, tail)
tailed_direct := dist_pareto(u, 1.0, 3.0)
kind := alias_sample(hash(cycle), pick)
kind_listed := alias_sample(hash(cycle), listed)
kind_bound := alias_sample(hash(cycle), bound)
kind_inline := alias_sample(hash(cycle), alias_table(0.5, 0.3, 0.2))
kind_direct := alias_sample(hash(cycle), 0.5, 0.3, 0.2)
)";

TEST(TableValues, SampledTablesEqualTheDirectNodesOnEveryEngine) {
  const std::vector<std::string> pairs[] = {
      {"height", "height_direct"},  {"waited", "waited_direct"},    {"tailed", "tailed_direct"},
      {"kind", "kind_direct"},      {"kind_listed", "kind_direct"}, {"kind_inline", "kind_direct"},
      {"kind_bound", "kind_direct"}};
  for (uint64_t x = 0; x < 16; ++x) {
    for (const std::vector<std::string>& pair : pairs) {
      const std::vector<std::string> got = values_everywhere(kTables, x, pair);
      EXPECT_EQ(got[0], got[1]) << pair[0] << " at " << x;
    }
  }
}

TEST(TableValues, TablesAreNoOutputsAndTheBatchTierSamplesThem) {
  const auto program = compile(kTables);
  for (const char* table : {"normal", "wait", "tail", "pick", "listed", "bound"}) {
    EXPECT_FALSE(program->output_index(table)) << table << " is a table, not an output";
  }
  BatchOptions options;
  options.outputs = {"height", "height_direct", "kind", "kind_direct"};
  const std::vector<Column> columns = BatchEvaluator(program, options).evaluate(0, 4096);
  EXPECT_EQ(columns[0].words, columns[1].words);
  EXPECT_EQ(columns[2].words, columns[3].words);
  // Legacy forms are read, with a warning that polydat no longer takes them.
  ASSERT_FALSE(program->warnings().empty());
  expect_contains(program->warnings()[0], {"init normal", "legacy", "const normal :="});
}

TEST(TableValues, AModuleParameterTypedAliasTableTakesATable) {
  const std::string source = R"(weighted(h: u64, t: alias_table) -> (k: u64) := {
  k := alias_sample(h, t)
}
input cycle
init pick = alias_table(0.5, 0.3, 0.2)
named := weighted(hash(cycle), pick)
inline := weighted(hash(cycle), alias_table(0.5, 0.3, 0.2))
direct := alias_sample(hash(cycle), 0.5, 0.3, 0.2)
)";
  for (uint64_t x = 0; x < 32; ++x) {
    const std::vector<std::string> got =
        values_everywhere(source, x, {"named", "inline", "direct"});
    EXPECT_EQ(got[0], got[2]);
    EXPECT_EQ(got[1], got[2]);
  }
  // Sampled through the parameter: no "nothing samples it" warning.
  const auto program = compile(source);
  for (const std::string& w : program->warnings()) {
    EXPECT_EQ(w.find("nothing samples it"), std::string::npos) << w;
  }
}

TEST(TableValues, MisusedTablesAreCompileErrorsThatNameTheRule) {
  expect_contains(compile_error("input cycle\ninit t = dist_normal(0.0, 1.0)\nx := t + 1.0\n"),
                  {"t.polydat:3:6", "'t' is a table value", "lut_sample(q, t)"});
  expect_contains(
      compile_error("input cycle\ninit t = alias_table(1.0, 2.0)\nx := lut_sample(0.5, t)\n"),
      {"this is an alias table", "alias_sample(h, T)"});
  expect_contains(compile_error("input cycle\ninit t = dist_normal(0.0, 1.0)\n"
                                "x := alias_sample(hash(cycle), t)\n"),
                  {"this is a distribution table", "lut_sample(q, T)"});
  expect_contains(compile_error("input cycle\nx := lut_sample(0.5, cycle)\n"),
                  {"lut_sample(q, T) samples a table T", "dist_exponential(rate)"});
  expect_contains(compile_error("input cycle\ninit t = dist_normal(cycle, 1.0)\n"
                                "x := lut_sample(0.5, t)\n"),
                  {"argument 'mean' of 'dist_normal' must be a literal constant"});
  expect_contains(compile_error("input cycle\ninit t = dist_normal(0.0, -1.0)\n"
                                "x := lut_sample(0.5, t)\n"),
                  {"stddev must be >= 0"});
  const auto unsampled = compile("input cycle\nt := dist_exponential(2.0)\nx := hash(cycle)\n");
  EXPECT_FALSE(unsampled->output_index("t"));
  ASSERT_EQ(unsampled->warnings().size(), 1u);
  expect_contains(unsampled->warnings()[0], {"'t' is a table value and no output"});
}

}  // namespace
}  // namespace polyrt::test

// nmbrs workload files as programs (cli/workload_file.hpp): nmbrs's CQL
// baselines (tests/data/nmbrs_workloads, from github.com/nosqlbench/nmbrs
// adapters/cql/workloads/baselinesv3 at 83a814f, Apache-2.0) run as they
// are, a block chosen with #BLOCK and the workload's params under the ones
// given; diagnostics point at the workload's lines.
#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const std::string kWorkloads = std::string(POLYRT_SOURCE_DIR) + "/tests/data/nmbrs_workloads/";

TEST(WorkloadFiles, TheBaselinesCompileBlockByBlock) {
  const CommandResult r = run_polyrt("check " + kWorkloads + " --json");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 6) << r.out;
  for (const char* block :
       {"keyvalue.yaml#phases.rampup.bindings", "tabular.yaml#phases.main.bindings",
        "timeseries.yaml#phases.rampup.bindings"}) {
    EXPECT_NE(r.out.find(block), std::string::npos) << block;
  }
  EXPECT_LT(r.out.find("keyvalue.yaml#phases.rampup.bindings"),
            r.out.find("keyvalue.yaml#phases.main.bindings"))
      << "a workload's blocks in its order";
  const CommandResult listed = run_polyrt("check " + kWorkloads + "keyvalue.yaml");
  expect_contains(listed.out, {"keyvalue.yaml#phases.rampup.bindings: ok", "2 of 2 compile"});
}

TEST(WorkloadFiles, ABlockRunsWithTheWorkloadsParamsUnderTheGivenOnes) {
  // keycount is 1000000 in the workload; the given 4 wins, cursor "0..100%" stays.
  const CommandResult rampup =
      run_polyrt("run " + kWorkloads + "keyvalue.yaml#rampup --param keycount=4");
  ASSERT_EQ(rampup.status, 0) << rampup.err;
  EXPECT_EQ(rampup.out.substr(0, rampup.out.find('\n')), "keys,seq_key,seq_value");
  EXPECT_EQ(std::count(rampup.out.begin(), rampup.out.end(), '\n'), 5);
  EXPECT_NE(rampup.out.find("\n4,3,"), std::string::npos) << rampup.out;
  // The time-boxed main phase runs its passes until its time is up.
  const CommandResult main = run_polyrt("run " + kWorkloads +
                                        "keyvalue.yaml#phases.main.bindings --param main_chunk=50 "
                                        "--param main_ms=20 --format jsonl -q");
  ASSERT_EQ(main.status, 0) << main.err;
  const size_t rows = std::count(main.out.begin(), main.out.end(), '\n');
  EXPECT_GE(rows, 50u);
  EXPECT_EQ(rows % 50, 0u) << "whole passes";
}

// nmbrs's scope chain: a phase's block reads what its workload's top-level
// `bindings:` block binds (tests/data/nmbrs_scopes, from nmbrs's
// examples/workloads/scope at 83a814f, Apache-2.0): the two compile as one
// program, on the workload's lines; a phase rebinding a top-level name is
// refused at its line.
TEST(WorkloadFiles, APhaseReadsItsWorkloadsTopLevelBindings) {
  const std::string workload =
      std::string(POLYRT_SOURCE_DIR) + "/tests/data/nmbrs_scopes/shared_pick_through_for_each.yaml";
  const CommandResult consume = run_polyrt("run " + workload + "#consume --rows 2");
  ASSERT_EQ(consume.status, 0) << consume.err;
  EXPECT_EQ(consume.out,
            "selector,combo_label,has_a,has_b,chosen\n"
            "0,example_datasetpx_ks1,true,false,alpha_table\n"
            "0,example_datasetpx_ks1,true,false,alpha_table\n");
  const std::string dir = temp_dir();
  std::string text = read_file(workload);
  text.replace(text.find("      chosen :="), 0, "      selector := 3\n");
  const CommandResult rebound =
      run_polyrt("check " + write_program(dir, "rebound.yaml", text) + "#consume");
  EXPECT_EQ(rebound.status, 1);
  expect_contains(rebound.err, {"rebound.yaml:45:1: error: 'selector' is already defined",
                                "first defined at", "rebound.yaml:19:1"});
}

// bench takes a workload's block as every command does, with its params.
TEST(WorkloadFiles, BenchMeasuresABlock) {
  const CommandResult bench = run_polyrt("bench " + kWorkloads +
                                         "keyvalue.yaml#rampup --param keycount=100 --seconds "
                                         "0.02 --json");
  ASSERT_EQ(bench.status, 0) << bench.err;
  expect_contains(bench.out,
                  {"\"program\":", "keyvalue.yaml#rampup", "\"compile\":", "\"batch\":"});
  expect_contains(run_polyrt("bench " + kWorkloads + "keyvalue.yaml --seconds 0.02").err,
                  {"has 2 bindings blocks; name one as"});
}

TEST(WorkloadFiles, BadChoicesAndFilesAreUsageErrors) {
  const std::string dir = temp_dir();
  const CommandResult several = run_polyrt("run " + kWorkloads + "keyvalue.yaml --rows 1");
  EXPECT_EQ(several.status, 2);
  expect_contains(several.err, {"has 2 bindings blocks; name one as",
                                "#BLOCK, BLOCK one of: "
                                "rampup, main"});
  const CommandResult none = run_polyrt("run " + kWorkloads + "keyvalue.yaml#load --rows 1");
  expect_contains(none.err, {"has no bindings block 'load'; its blocks: rampup, main"});
  const std::string broken = write_program(dir, "broken.yaml", "params: [1\n");
  expect_contains(run_polyrt("check " + broken).err, {"is not a YAML workload"});
  const std::string empty = write_program(dir, "empty.yaml", "params:\n  a: 1\n");
  expect_contains(run_polyrt("check " + empty).err, {"has no bindings block"});
  // A block's diagnostic is at the workload's line.
  const std::string bad =
      write_program(dir, "bad.yaml",
                    "params:\n  n: \"3\"\nphases:\n  load:\n    bindings: |\n"
                    "      a := hash(cycle)\n      b := format_u64(a, 10, 7)\n");
  const CommandResult located = run_polyrt("check " + bad + "#load");
  EXPECT_EQ(located.status, 1);
  expect_contains(located.err, {"bad.yaml:7:", "too many arguments to 'format_u64'"});
}

}  // namespace
}  // namespace polyrt::test

// `polyrt run --parts N [--part K]`: a job split into contiguous parts, one
// file each, whose rows concatenated are the single run's rows, in every
// format; all or nothing when a part fails; the range arithmetic at the ends
// of the u64 range.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <vector>

#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/job_parts.hpp"
#include "scheduler/jobs/part_manifest.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// The file's lines after its header (csv, tsv) or all of them (jsonl).
std::string rows_of(const std::string& text, bool header) {
  if (!header) return text;
  const size_t end = text.find('\n');
  return end == std::string::npos ? "" : text.substr(end + 1);
}

class CliParts : public ::testing::Test {
 protected:
  std::string dir = temp_dir();
  std::string program =
      write_program(dir, "events.polydat",
                    "input cycle\nid := hash(cycle)\nname := one_of(id, \"a\", \"b,c\")\n"
                    "score := unit_interval(id)\n");
};

TEST_F(CliParts, PartsConcatenatedAreTheSingleRunInEveryTextFormat) {
  for (const std::string format : {"csv", "tsv", "jsonl"}) {
    const std::string args = "run " + program + " --cycles 7..1007 --format " + format;
    const auto single = run_polyrt(args);
    ASSERT_EQ(single.status, 0) << single.err;
    const std::string out = dir + "/" + format;
    const auto all = run_polyrt(args + " --parts 3 --out " + out);
    ASSERT_EQ(all.status, 0) << all.err;
    const bool header = format != "jsonl";
    std::string joined = header ? single.out.substr(0, single.out.find('\n') + 1) : "";
    for (int k = 1; k <= 3; ++k) {
      const std::string part = out + "/events." + std::to_string(k) + "." + format;
      const std::string text = read_file(part);
      ASSERT_FALSE(text.empty()) << part;
      joined += rows_of(text, header);
      // One part alone, as one host of many writes it: the same bytes.
      const std::string alone = dir + "/alone-" + format + std::to_string(k);
      const auto one =
          run_polyrt(args + " --parts 3 --part " + std::to_string(k) + " --out " + alone);
      ASSERT_EQ(one.status, 0) << one.err;
      EXPECT_EQ(entries(alone), 1u);
      EXPECT_EQ(read_file(alone + "/events." + std::to_string(k) + "." + format), text);
    }
    EXPECT_EQ(joined, single.out) << format;
  }
}

TEST_F(CliParts, MorePartsThanRowsLeaveEmptyParts) {
  const auto r = run_polyrt("run " + program + " --cycles 0..2 --parts 5 --out " + dir + "/few");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(entries(dir + "/few"), 5u);
  size_t rows = 0;
  for (int k = 1; k <= 5; ++k) {
    const std::string text = read_file(dir + "/few/events." + std::to_string(k) + ".csv");
    EXPECT_EQ(text.substr(0, text.find('\n')), "id,name,score");
    rows += (size_t)std::count(text.begin(), text.end(), '\n') - 1;
  }
  EXPECT_EQ(rows, 2u);
}

TEST_F(CliParts, NpyPartsConcatenatedAreTheSingleRunsColumns) {
  const std::string args = "run " + program + " --cycles 100..1100 --outputs id,score --format npy";
  ASSERT_EQ(run_polyrt(args + " --out " + dir + "/whole").status, 0);
  const auto r = run_polyrt(args + " --parts 4 --out " + dir + "/parts");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const std::string column : {"id", "score"}) {
    std::string dict;
    const std::vector<uint8_t> whole = read_npy(dir + "/whole/" + column + ".npy", dict);
    std::vector<uint8_t> joined;
    for (int k = 1; k <= 4; ++k) {
      const auto part =
          read_npy(dir + "/parts/part-" + std::to_string(k) + "/" + column + ".npy", dict);
      EXPECT_NE(dict.find("'shape': (250,)"), std::string::npos) << dict;
      joined.insert(joined.end(), part.begin(), part.end());
    }
    EXPECT_EQ(joined, whole) << column;
  }
}

TEST_F(CliParts, AFailingPartLeavesNoPartFile) {
  const std::string failing =
      write_program(dir, "fail.polydat", "input cycle\nv := in_range(cycle, 0, 700)\n");
  const std::string out = dir + "/failed";
  const auto r = run_polyrt("run " + failing + " --cycles 0..1000 --parts 3 --out " + out);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("coordinates: cycle=701"), std::string::npos) << r.err;
  EXPECT_EQ(entries(out), 0u) << "part 1 was written, then removed: all parts or none";
}

// A rerun that fails leaves the previous run's parts exactly as they were
// (the new parts are staged and replace them only when all succeeded); a
// successful rerun with fewer parts removes the earlier run's extra parts.
TEST_F(CliParts, ARerunReplacesEveryPartOrNone) {
  const std::string out = dir + "/rerun";
  ASSERT_EQ(run_polyrt("run " + program + " --cycles 0..1000 --parts 4 --out " + out).status, 0);
  std::vector<std::string> before;
  for (int k = 1; k <= 4; ++k)
    before.push_back(read_file(out + "/events." + std::to_string(k) + ".csv"));
  const std::string failing = write_program(
      dir, "events2.polydat", "input cycle\nid := hash(cycle)\nv := in_range(cycle, 0, 700)\n");
  ASSERT_EQ(::rename(failing.c_str(), program.c_str()), 0);  // the same table name
  const auto r = run_polyrt("run " + program + " --cycles 0..1000 --parts 4 --out " + out);
  EXPECT_EQ(r.status, 1) << r.err;
  for (int k = 1; k <= 4; ++k) {
    EXPECT_EQ(read_file(out + "/events." + std::to_string(k) + ".csv"), before[k - 1]) << k;
  }
  EXPECT_EQ(entries(out), 4u) << "nothing staged is left behind";
  ASSERT_EQ(run_polyrt("run " + program + " --cycles 0..500 --parts 2 --out " + out).status, 0);
  EXPECT_EQ(entries(out), 2u) << "parts 3 and 4 of the earlier run are gone";
  EXPECT_FALSE(exists(out + "/events.3.csv"));
}

// Reading a committed part back for the manifest (gigabytes at scale) stops
// for a signal like the rest of the job, so the launch removes the parts
// instead of leaving them without a manifest.
TEST_F(CliParts, ReadingAPartBackStopsForASignal) {
  const std::string part = write_program(dir, "part.csv", std::string(1 << 20, 'x'));
  EXPECT_EQ(scheduler::summarize_files({part}).bytes, 1u << 20);
  const scheduler::Interruption::Guard guard;
  ASSERT_EQ(::raise(SIGINT), 0);  // only sets the flag while the guard lives
  EXPECT_THROW(scheduler::summarize_files({part}), scheduler::InterruptedError);
}

TEST_F(CliParts, RefusesWhatCannotBeSplit) {
  const std::string run = "run " + program + " --cycles 0..10";
  const auto without_parts = run_polyrt(run + " --part 1 --out " + dir + "/x");
  EXPECT_EQ(without_parts.status, 2);
  EXPECT_NE(without_parts.err.find("--part K needs --parts N"), std::string::npos);
  const auto outside = run_polyrt(run + " --parts 3 --part 4 --out " + dir + "/x");
  EXPECT_EQ(outside.status, 2);
  EXPECT_NE(outside.err.find("--part must be in 1..3"), std::string::npos) << outside.err;
  EXPECT_EQ(run_polyrt(run + " --parts 3 --part 0 --out " + dir + "/x").status, 2);
  EXPECT_EQ(run_polyrt(run + " --parts 0 --out " + dir + "/x").status, 2);
  const auto no_dir = run_polyrt(run + " --parts 2");
  EXPECT_EQ(no_dir.status, 2);
  EXPECT_NE(no_dir.err.find("needs --out DIR"), std::string::npos);
  const std::string file = write_program(dir, "plain", "not a directory");
  const auto not_dir = run_polyrt(run + " --parts 2 --out " + file);
  EXPECT_EQ(not_dir.status, 2);
  EXPECT_NE(not_dir.err.find("must be a directory"), std::string::npos) << not_dir.err;
}

TEST(JobParts, PartsCoverTheRangeContiguouslyUpTo2To64) {
  for (const auto& [first, count, parts] : std::vector<std::tuple<uint64_t, uint64_t, uint64_t>>{
           {0, 10, 3}, {5, 0, 4}, {1, ~0ULL, 3}, {0, ~0ULL, 1000000}, {~0ULL - 7, 7, 7}}) {
    uint64_t next = first, total = 0;
    for (uint64_t k = 1; k <= parts; k += parts > 100 ? parts / 97 : 1) {
      const scheduler::PartRange r = scheduler::part_range(first, count, parts, k);
      if (parts <= 100) {
        EXPECT_EQ(r.first, next) << "part " << k;
        next = r.first + r.count;
        total += r.count;
      }
      EXPECT_LE(r.count, count / parts + 1);
      EXPECT_GE(r.count, count / parts);
    }
    if (parts <= 100) {
      EXPECT_EQ(total, count);
    }
    const scheduler::PartRange last = scheduler::part_range(first, count, parts, parts);
    EXPECT_EQ(last.first + last.count, first + count) << "the last part ends the range";
  }
}

}  // namespace
}  // namespace polyrt::test

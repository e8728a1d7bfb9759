// The output-format table and the jobs that write through it: every format
// is found by its name, says what it writes, and a job in each format leaves
// its target only when it succeeds; a format the per-state tier cannot
// write, and a directory format sent to standard output, are refused.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>

#include "polyrt/polyrt.hpp"
#include "scheduler/jobs/batch_job.hpp"
#include "scheduler/jobs/range_job.hpp"
#include "scheduler/output/output_format.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

scheduler::RangeJob small_job(const char* format) {
  scheduler::RangeJob job;
  job.program = compile("input cycle\nid := hash(cycle)\nodd := id % 2 == 1\n");
  job.count = 100;
  job.coordinates = {0};
  job.outputs = {"id", "odd"};
  job.format = scheduler::find_output_format(format);
  return job;
}

TEST(OutputFormats, EveryRegisteredFormatIsFoundByItsName) {
  EXPECT_EQ(scheduler::output_format_names(), "csv, tsv, jsonl, text, npy, parquet, arrow, arrows");
  for (const char* name : {"csv", "tsv", "jsonl", "npy"}) {
    const scheduler::OutputFormat* format = scheduler::find_output_format(name);
    ASSERT_NE(format, nullptr) << name;
    EXPECT_EQ(format->name(), name);
    const bool npy = std::string(name) == "npy";
    EXPECT_EQ(format->writes_directory(), npy) << name;
    EXPECT_EQ(format->text_rows().has_value(), !npy) << name;
    const std::vector<std::string> files =
        npy ? std::vector<std::string>{"d/a.npy", "d/b.npy"} : std::vector<std::string>{"d"};
    EXPECT_EQ(format->files_of("d", {"a", "b"}), files);
  }
  for (const char* name : {"parquet", "arrow", "arrows"}) {  // the Arrow module's
    const scheduler::OutputFormat* format = scheduler::find_output_format(name);
    ASSERT_NE(format, nullptr) << name;
    EXPECT_FALSE(format->text_rows()) << name;  // the batch tier writes them
    EXPECT_FALSE(format->writes_directory()) << name;
    EXPECT_FALSE(format->compressed_as_a_whole()) << name;
    EXPECT_EQ(format->codecs().front(),
              std::string(name) == "parquet" ? scheduler::Codec::Zstd : scheduler::Codec::None);
  }
  EXPECT_EQ(scheduler::find_output_format("CSV"), nullptr);
}

// Binary formats never go to a terminal: refused before the module loads
// (script(1) gives the command one).
TEST(OutputFormats, ColumnarFormatsAreNotWrittenToATerminal) {
  const std::string dir = temp_dir();
  const std::string typescript = dir + "/typescript";
  const std::string command =
      "script -qec '" + std::string(POLYRT_BINARY) + " run " + std::string(POLYRT_SOURCE_DIR) +
      "/examples/users.polydat --rows 10 --format arrows' " + typescript + " >/dev/null";
  EXPECT_NE(std::system(command.c_str()), 0);
  std::ifstream in(typescript);
  const std::string said((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(said.find("--format arrows is binary and is not written to a terminal; pass --out "
                      "FILE or redirect standard output (to a reader such as `| duckdb`)"),
            std::string::npos)
      << said;
}

TEST(OutputFormats, EachFormatsTargetAppearsOnlyWhenTheJobSucceeds) {
  const std::string dir = temp_dir();
  size_t written = 0;  // the targets of the formats before this one
  for (const char* name : {"csv", "tsv", "jsonl", "npy"}) {
    const scheduler::RangeJob job = small_job(name);
    const std::string target = dir + "/out." + name;
    const scheduler::OutputFormat& format = *job.format;
    {
      const auto writer =
          format.open(scheduler::OutputPlace{.path = target}, scheduler::output_columns(job));
      EXPECT_FALSE(exists(target)) << name << ": visible before commit";
    }
    EXPECT_FALSE(exists(target)) << name << ": left behind without commit";
    EXPECT_EQ(entries(dir), written) << name << ": a temporary was left behind";
    scheduler::run_batch_job(job, target);
    EXPECT_EQ(entries(dir), ++written) << name;
    for (const std::string& file : format.files_of(target, job.outputs)) {
      EXPECT_TRUE(exists(file)) << file;
    }
  }
}

TEST(OutputFormats, TheRowByRowTierWritesTextAndTheBatchTierEveryFormat) {
  const std::string dir = temp_dir();
  scheduler::RangeJob job = small_job("csv");
  scheduler::run_range_job(job, dir + "/rows.csv");
  scheduler::run_batch_job(job, dir + "/batch.csv");
  EXPECT_EQ(read_file(dir + "/rows.csv"), read_file(dir + "/batch.csv"));

  job.format = scheduler::find_output_format("npy");
  EXPECT_THROW(scheduler::run_range_job(job, dir + "/rows.npy"), RefusedError);
  EXPECT_FALSE(exists(dir + "/rows.npy"));
  const std::string to_stdout =
      thrown_message<OutputError>([&] { scheduler::run_batch_job(job, ""); });
  EXPECT_NE(to_stdout.find("not standard output"), std::string::npos) << to_stdout;
}

}  // namespace
}  // namespace polyrt::test

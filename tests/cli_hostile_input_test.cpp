// The polyrt command under hostile but realistic use: inputs that are not
// programs, output that cannot be written, malformed and repeated options,
// odd values. Each case is a clear message and exit 1 (the program) or 2
// (usage, I/O), never a signal, a hang or a silent success.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

class CliHostile : public ::testing::Test {
 protected:
  std::string dir = temp_dir();
  std::string program = write_program(dir, "p.polydat",
                                      "input cycle\nextern rate: f64 = 1.5\n"
                                      "a := hash(cycle) % 100\nb := to_f64(a) * rate\n");

  static void expect_error(const CommandResult& r, int status, const std::string& text) {
    EXPECT_EQ(r.status, status) << r.err;
    EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
  }
};

TEST_F(CliHostile, InputsThatAreNotProgramFilesAreRefused) {
  expect_error(run_polyrt("check /dev/zero"), 1, "it is a character device");
  expect_error(run_polyrt("check /dev/urandom"), 1, "it is a character device");
  expect_error(run_polyrt("check " + dir), 1, "it is a directory");
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_error(run_polyrt("check " + fifo), 1, "it is a FIFO");
  const std::string big = dir + "/big.polydat";
  ASSERT_EQ(::truncate(write_program(dir, "big.polydat", "").c_str(), (65 << 20)), 0);
  expect_error(run_polyrt("check " + big), 1, "programs are limited to 64 MiB");
  EXPECT_THROW(compile_file(dir), CompileError);
}

TEST_F(CliHostile, ByteOrderMarkIsSkipped) {
  const std::string bom = write_program(dir, "bom.polydat", "\xEF\xBB\xBFinput x\nv := x\n");
  EXPECT_EQ(run_polyrt("check " + bom).status, 0);
}

TEST_F(CliHostile, DiagnosticsQuoteLongLinesAroundTheColumnWithoutControlBytes) {
  std::string line = "v := ";
  for (int i = 0; i < 500; ++i) line += "1 + ";
  const std::string f = write_program(dir, "long.polydat", "input x\n" + line + "hsh(x)\n");
  const auto r = run_polyrt("check " + f);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown function 'hsh'"), std::string::npos) << r.err;
  EXPECT_LT(r.err.size(), 600u) << r.err;
  EXPECT_NE(r.err.find("...1 + "), std::string::npos) << r.err;
  const std::string ctl =
      write_program(dir, "ctl.polydat", "input x\nw := \"\x1b[31m\" + \x07 x\n");
  const auto c = run_polyrt("check " + ctl);
  EXPECT_EQ(c.status, 1);
  EXPECT_EQ(c.err.find('\x1b'), std::string::npos) << c.err;
  EXPECT_EQ(c.err.find('\x07'), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("\\x07"), std::string::npos) << c.err;
}

TEST_F(CliHostile, EveryCommandFailsWhenItsOutputCannotBeWritten) {
  for (const std::string& args :
       {"check " + program, "eval " + program + " 3", "plan " + program, std::string("nodes"),
        std::string("--help"), std::string("run --help"), "run " + program + " --cycles 0..10"}) {
    const auto r = run_polyrt(args, "/dev/full");
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_FALSE(r.err.empty()) << args;
  }
}

TEST_F(CliHostile, SetValuesNameTheExternAndAreUsageErrors) {
  expect_error(run_polyrt("run " + program + " --cycles 0..2 --set rate=abc"), 2,
               "cannot read \"abc\" as f64 for extern rate");
  expect_error(run_polyrt("eval " + program + " --set rate=abc 1"), 2,
               "cannot read \"abc\" as f64 for extern rate");
  expect_error(run_polyrt("eval " + program + " x1"), 2,
               "cannot read \"x1\" as u64 for input cycle");
  const auto inf = run_polyrt("run " + program + " --cycles 0..2 --set rate=inf");
  const auto huge = run_polyrt("run " + program + " --cycles 0..2 --set rate=1e400");
  EXPECT_EQ(inf.status, 0) << inf.err;
  EXPECT_EQ(inf.out, huge.out);
}

TEST_F(CliHostile, OptionsAreCheckedAndMayComeBeforeTheFile) {
  const auto before = run_polyrt("run --cycles 0..3 --outputs a " + program);
  EXPECT_EQ(before.status, 0) << before.err;
  EXPECT_EQ(before.out, run_polyrt("run " + program + " --cycles 0..3 --outputs a").out);
  expect_error(run_polyrt("run " + program + " --cycles 0..3 --cycles 0..4"), 2, "given twice");
  expect_error(run_polyrt("run " + program + " --cycles 0..3 --out \"\""), 2, "non-empty");
  expect_error(run_polyrt("run " + program + " --cycles 0..3 --outputs a,a"), 2, "'a' twice");
  expect_error(run_polyrt("run " + program + " --cycles 0..3 --format xml"), 2,
               "valid: csv, tsv, jsonl, npy");
  expect_error(run_polyrt("run " + program + " --cycles 3"), 2, "A..=B");
  expect_error(run_polyrt("run " + program + " --cycles 0..99999999999999999999"), 2, "below 2^64");
  expect_error(run_polyrt("check " + program + " extra"), 2, "unexpected argument 'extra'");
}

TEST_F(CliHostile, CyclesRangesReachTheEndOfU64) {
  const auto open = run_polyrt("run " + program + " --cycles 18446744073709551613.. --outputs a");
  EXPECT_EQ(open.status, 0) << open.err;
  EXPECT_EQ(std::count(open.out.begin(), open.out.end(), '\n'), 4);  // header + 3 rows
  const auto inclusive = run_polyrt(
      "run " + program + " --cycles 18446744073709551613..=18446744073709551615 --outputs a");
  EXPECT_EQ(inclusive.out, open.out);
  const auto per_state =
      run_polyrt("run " + program + " --cycles 18446744073709551613.. --outputs a --engine native");
  EXPECT_EQ(per_state.out, open.out);
  EXPECT_EQ(run_polyrt("run " + program + " --cycles 5..=5 --outputs a").out,
            run_polyrt("run " + program + " --cycles 5..6 --outputs a").out);
  expect_error(run_polyrt("run " + program + " --cycles 0.."), 2, "2^64 rows");
}

TEST_F(CliHostile, ThreadsPastTheCoresAreCappedQuietly) {
  const auto r = run_polyrt("run " + program + " --cycles 0..50000 --threads 4000");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, run_polyrt("run " + program + " --cycles 0..50000 --threads 1").out);
}

TEST_F(CliHostile, EvalPrintsStringsWithNulBytesWhole) {
  static const char kSource[] = "input cycle\ns := \"a\0b\" + \"c\"\n";
  const std::string f = write_program(dir, "nul.polydat", std::string(kSource, sizeof kSource - 1));
  const auto r = run_polyrt("eval " + f + " 1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, std::string("s = a\0bc\n", 9));
}

}  // namespace
}  // namespace polyrt::test

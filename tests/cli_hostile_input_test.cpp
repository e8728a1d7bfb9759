// The polyrt command under hostile but realistic use: inputs that are not
// programs, output that cannot be written, malformed and repeated options,
// odd values. Each case is a clear message and exit 1 (the program) or 2
// (usage, I/O), never a signal, a hang or a silent success.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>

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

// An I/O error (exit 2): the file is not a program to read.
TEST_F(CliHostile, InputsThatAreNotProgramFilesAreRefused) {
  expect_error(run_polyrt("check /dev/zero"), 2, "it is a character device");
  expect_error(run_polyrt("check /dev/urandom"), 2, "it is a character device");
  expect_error(run_polyrt("run " + dir + " --rows 1"), 2, "it is a directory");
  // check takes a directory as a list of programs, and one with none is an error.
  const std::string empty = dir + "/empty";
  ASSERT_EQ(::mkdir(empty.c_str(), 0700), 0);
  expect_error(run_polyrt("check " + empty), 2, "holds no .polydat file");
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_error(run_polyrt("check " + fifo), 2, "it is a FIFO");
  const std::string big = dir + "/big.polydat";
  ASSERT_EQ(::truncate(write_program(dir, "big.polydat", "").c_str(), (65 << 20)), 0);
  expect_error(run_polyrt("check " + big), 2, "programs are limited to 64 MiB");
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
               "valid: csv, tsv, jsonl, text, npy");
  expect_error(run_polyrt("run " + program + " --cycles 3"), 2, "A..=B");
  expect_error(run_polyrt("run " + program + " --cycles 0..99999999999999999999"), 2, "below 2^64");
  expect_error(run_polyrt("preview " + program + " extra"), 2, "unexpected argument 'extra'");
  // check lists several programs: one it cannot read is refused, exit 1.
  const CommandResult listed = run_polyrt("check " + program + " extra");
  EXPECT_EQ(listed.status, 1);
  EXPECT_NE(listed.out.find("extra: refused: cannot read program file 'extra'"), std::string::npos)
      << listed.out;
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
  expect_error(run_polyrt("run " + program + " --cycles 0..=18446744073709551615"), 2, "2^64 rows");
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

TEST_F(CliHostile, OutputNeverReplacesTheProgramALinkOrAReadOnlyFile) {
  const std::string run = "run " + program + " --cycles 0..3 --out ";
  expect_error(run_polyrt(run + program), 2, "a source file of the program");
  const std::string hard = dir + "/hard.polydat";
  ASSERT_EQ(::link(program.c_str(), hard.c_str()), 0);
  expect_error(run_polyrt(run + hard), 2, "a source file of the program");
  const std::string target = write_program(dir, "target.csv", "keep");
  const std::string link = dir + "/link.csv";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  expect_error(run_polyrt(run + link), 2, "is a symbolic link");
  const std::string readonly = write_program(dir, "ro.csv", "keep");
  ASSERT_EQ(::chmod(readonly.c_str(), 0444), 0);
  expect_error(run_polyrt(run + readonly), 2, "is read-only");
  std::ifstream in(target);
  std::string kept((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(kept, "keep");
  EXPECT_EQ(run_polyrt("check " + program).status, 0);  // the program is intact
  // Nor a data file read only by a traversal's body (those were collected
  // before the bodies compiled), nor a module called only there.
  const std::string people = write_program(dir, "people.csv", "name\nada\n");
  write_program(dir, "bounded.polydat", "bounded(x: u64) -> (y: u64) := {\n  y := x % 10\n}\n");
  const std::string body =
      write_program(dir, "body.polydat",
                    "input cycle\nfor a in 0..2 {\n  n := csv_field(a, \"people.csv\", \"name\")\n"
                    "  b := bounded(a)\n}\n");
  const std::string run_body = "run " + body + " --cycles 0..1 --out ";
  expect_error(run_polyrt(run_body + people), 2, "a source file of the program");
  expect_error(run_polyrt(run_body + dir + "/bounded.polydat"), 2, "a source file of the program");
  EXPECT_EQ(read_file(people), "name\nada\n");
}

// SIGINT, SIGTERM and SIGHUP in the middle of a run: exit 128 + signal, one
// line saying so, no temporary file or directory left.
TEST_F(CliHostile, SignalsStopARunCleanly) {
  const std::string out = dir + "/signals";
  ::mkdir(out.c_str(), 0755);
  const std::pair<const char*, int> signals[] = {{"INT", 130}, {"TERM", 143}, {"HUP", 129}};
  for (const auto& [name, status] : signals) {
    const std::string cmd = std::string(POLYRT_BINARY) + " run " + program +
                            " --cycles 0..100000000000 --outputs a --out " + out + "/rows.csv 2>" +
                            dir + "/err & pid=$!; sleep 1; kill -" + name +
                            " $pid; wait $pid; exit $?";
    const int raw = std::system(cmd.c_str());
    EXPECT_EQ(WEXITSTATUS(raw), status) << name;
    std::ifstream err(dir + "/err");
    std::string text((std::istreambuf_iterator<char>(err)), {});
    EXPECT_NE(text.find(std::string("interrupted by SIG") + name + " after "), std::string::npos)
        << text;
    EXPECT_EQ(entries(out), 0u) << name;
  }
  // An npy run that fits, interrupted: its temporary directory goes too.
  const std::string cmd = std::string(POLYRT_BINARY) + " run " + program +
                          " --cycles 0..2000000000 --outputs a --format npy --out " + out +
                          "/cols 2>/dev/null & pid=$!; sleep 1; kill -INT $pid; wait $pid; exit $?";
  const int raw = std::system(cmd.c_str());
  EXPECT_TRUE(WEXITSTATUS(raw) == 130 || WEXITSTATUS(raw) == 2) << WEXITSTATUS(raw);
  EXPECT_EQ(entries(out), 0u);
}

// A traversal stops as promptly, on the per-state path (a `where` over the
// parent: no lattice) while its rows are written, and while an opening of a
// partition list materializes (once polled only between parent coordinates,
// so a run went on to a complete file, or for minutes).
TEST_F(CliHostile, SignalsStopATraversalCleanly) {
  const std::string out = dir + "/traversal";
  ::mkdir(out.c_str(), 0755);
  const std::string rows =
      write_program(dir, "rows.polydat",
                    "input cycle\nfor a in 0..2500, b in 0..1000 where {a} != 1 { x := a * b }\n");
  const std::string peel = write_program(
      dir, "peel.polydat",
      "input cycle\nfor p in partitions(\"*/1048576\", 1048576) { x := start_of(p) }\n");
  for (const std::string& file : {rows, peel}) {
    const std::string cmd = "s=$(date +%s%N); " + std::string(POLYRT_BINARY) + " run " + file +
                            " --cycles 0..1 --out " + out + "/s.csv 2>" + dir +
                            "/err & pid=$!; sleep 1; kill -INT $pid; wait $pid; st=$?; "
                            "e=$(date +%s%N); echo $(( (e - s) / 1000000 )) > " +
                            dir + "/ms; exit $st";
    const int raw = std::system(cmd.c_str());
    EXPECT_EQ(WEXITSTATUS(raw), 130) << file << ": " << read_file(dir + "/err");
    EXPECT_LT(std::stol(read_file(dir + "/ms")), 4000) << file;
    EXPECT_EQ(entries(out), 0u) << file;  // no file, no temporary
  }
}

// A str peeled into more tokens than an opening materializes is refused
// after counting them, before a Value is made for any.
TEST_F(CliHostile, AStrOfTooManyTokensIsRefusedBeforeItIsPeeled) {
  std::string tokens;
  for (int k = 0; k < (1 << 24) + 1; ++k) tokens += "a,";
  const std::string file = write_program(
      dir, "tokens.polydat",
      "input cycle\nextern names: str = \"" + tokens + "\"\nfor t in {names} { v := t }\n");
  const CommandResult run = run_polyrt("run " + file + " --rows 1 --out " + dir + "/t.csv");
  EXPECT_EQ(run.status, 1);
  expect_contains(run.err, {"a str source of 16777217 tokens is more than the 16777216 tuples"});
  EXPECT_FALSE(exists(dir + "/t.csv"));
}

// A sampled space reads its points' values from a range without listing
// it: five draws beside 0..16000000 took 2.2 GB (the range's 16 million
// rows) and now run in 600 MB of address space (not under ASan, whose
// shadow memory needs more: SANITIZE_SKIP).
TEST_F(CliHostile, ASampledRangeIsNeverListed) {
  const std::string file = write_program(
      dir, "sampled.polydat",
      "input cycle\nfor k in 0..16000000, x in 0.0..1.0 order shuffle/5 { v := k }\n");
  const CommandResult run =
      run_polyrt_with("ulimit -v 600000;", "run " + file + " --rows 1 --outputs v -q");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1 + 5);
}

TEST_F(CliHostile, LeftoversOfDeadRunsAreRemoved) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::string out = dir + "/left";
  ::mkdir(out.c_str(), 0755);
  // pid 2^22 + 1 is above Linux's pid_max default: no such process.
  const std::string dead = out + "/.rows.csv.polyrt-tmp-4194305-" + host + "-abcdef";
  const std::string dead_dir = out + "/.cols.polyrt-tmp-4194305-" + host;
  const std::string alive = out + "/.rows.csv.polyrt-tmp-1-" + host + "-abcdef";  // init lives
  write_program(out, dead.substr(out.size() + 1), "x");
  write_program(out, alive.substr(out.size() + 1), "x");
  ::mkdir(dead_dir.c_str(), 0755);
  EXPECT_EQ(run_polyrt("run " + program + " --cycles 0..3 --out " + out + "/rows.csv").status, 0);
  EXPECT_EQ(run_polyrt("run " + program + " --cycles 0..3 --outputs a --format npy --out " + out +
                       "/cols")
                .status,
            0);
  EXPECT_FALSE(exists(dead));
  EXPECT_FALSE(exists(dead_dir));
  EXPECT_TRUE(exists(alive));
}

TEST_F(CliHostile, NpyRefusesWhatCannotFit) {
  expect_error(
      run_polyrt("run " + program + " --cycles 0..100000000000 --format npy --out " + dir + "/n"),
      2, "bytes are free on its file system");
  EXPECT_FALSE(exists(dir + "/n"));
}

TEST_F(CliHostile, AnInterruptedStreamSaysWhatWasWritten) {
  // Paced to stdout: rows reach the pipe before the signal, and they stay.
  const std::string cmd = std::string(POLYRT_BINARY) + " run " + program +
                          " --cycles 0..1000000 --rate 20 >" + dir + "/out 2>" + dir +
                          "/err & pid=$!; sleep 1.5; kill -INT $pid; wait $pid; exit $?";
  EXPECT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 130);
  const std::string err = read_file(dir + "/err");
  const std::string out = read_file(dir + "/out");
  const size_t rows = (size_t)std::count(out.begin(), out.end(), '\n') - 1;  // less the header
  EXPECT_GE(rows, 10u) << out;
  EXPECT_NE(err.find("after " + std::to_string(rows) + " row(s) were written to the output"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("no partial output"), std::string::npos) << err;
}

// A write blocked on a pipe nobody reads returns on the signal (EINTR) and
// the run stops there (the output sink polls the job's stop token), where
// it would otherwise wait on the reader forever.
TEST_F(CliHostile, AWriteBlockedOnAPipeStopsOnASignal) {
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string cmd = "(exec 3<" + fifo + "; sleep 8) & reader=$!; s=$(date +%s%N); " +
                          std::string(POLYRT_BINARY) + " run " + program +
                          " --cycles 0..100000000 >" + fifo + " 2>" + dir +
                          "/err & pid=$!; sleep 1; kill -INT $pid; wait $pid; st=$?; "
                          "e=$(date +%s%N); kill $reader; echo $(( (e - s) / 1000000 )) > " +
                          dir + "/ms; exit $st";
  EXPECT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 130) << read_file(dir + "/err");
  EXPECT_LT(std::stol(read_file(dir + "/ms")), 4000);
  EXPECT_NE(read_file(dir + "/err").find("were written to the output"), std::string::npos)
      << read_file(dir + "/err");
}

TEST_F(CliHostile, ARateBelowOneRowPerSecondWritesRows) {
  const auto r = run_polyrt_with("timeout 5", "run " + program + " --cycles 0..3 --rate 0.9");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4) << r.out;
  EXPECT_EQ(r.err.find("cannot keep up"), std::string::npos) << r.err;
}

TEST_F(CliHostile, AnNpyWriteErrorIsAnIoErrorExit2) {
  // A file size limit (SIGXFSZ ignored) makes the column writes fail.
  const std::string cmd = "trap '' XFSZ; ulimit -f 64; exec " + std::string(POLYRT_BINARY) +
                          " run " + program + " --cycles 0..1000000 --outputs a --format npy " +
                          "--out " + dir + "/cols 2>" + dir + "/err";
  const int raw = std::system(("sh -c \"" + cmd + "\"").c_str());
  EXPECT_EQ(WEXITSTATUS(raw), 2) << read_file(dir + "/err");
  EXPECT_NE(read_file(dir + "/err").find("cannot write"), std::string::npos);
  EXPECT_FALSE(exists(dir + "/cols"));
}

TEST_F(CliHostile, AFailingExternOnlyValueIsTheNodesErrorOnEveryTier) {
  const std::string f =
      write_program(dir, "scalar.polydat", "input c\nextern s: str = \"abc\"\nx := s as u64\n");
  for (const char* engine : {"batch", "interpreter", "native"}) {
    const auto r = run_polyrt("run " + f + " --cycles 4..6 --engine " + engine);
    expect_error(r, 1, "cannot parse \"abc\" as u64");
    EXPECT_NE(r.err.find("coordinates: c=4"), std::string::npos) << engine << r.err;
    EXPECT_EQ(r.err.find("unset extern"), std::string::npos) << engine << r.err;
  }
}

TEST_F(CliHostile, UsageGapsAreUsageErrors) {
  expect_error(run_polyrt("run " + program + " --cycles 0..3 --engine interpreter --device all"), 2,
               "runs the batch tier");
  expect_error(run_polyrt("run " + program + " --cycles 0..3 --engine native --device auto"), 2,
               "runs the batch tier");
  EXPECT_EQ(run_polyrt("run " + program + " --cycles 0..3 --engine native --device cpu").status, 0);
  expect_error(run_polyrt("eval " + program), 2, "declares 1 input(s) (cycle) but got 0");
  expect_error(run_polyrt("eval " + program + " 1 2"), 2, "but got 2 coordinate(s)");
  expect_error(run_polyrt("version --junk"), 2, "takes no arguments");
  expect_error(run_polyrt("--version --junk"), 2, "takes no arguments");
}

TEST_F(CliHostile, OutputNeverReplacesAModuleOfTheProgram) {
  const std::string kTwice = "twice(x: u64) -> (y: u64) := {\n  y := x * 2\n}\n";
  const std::string lib = dir + "/lib";
  ::mkdir(lib.c_str(), 0755);
  const std::string module = write_program(lib, "twice.polydat", kTwice);
  const std::string beside =
      write_program(dir, "plus1.polydat", "plus1(x: u64) -> (y: u64) := {\n  y := x + 1\n}\n");
  const std::string f =
      write_program(dir, "uses.polydat", "input c\nv := twice(c)\nw := plus1(c)\n");
  ASSERT_EQ(run_polyrt("run " + f + " --cycles 0..2 --lib " + lib).status, 0);
  expect_error(run_polyrt("run " + f + " --cycles 0..2 --lib " + lib + " --out " + module), 2,
               "a source file of the program");
  expect_error(run_polyrt("run " + f + " --cycles 0..2 --lib " + lib + " --out " + beside), 2,
               "a source file of the program");
  expect_error(
      run_polyrt_with("POLYRT_LIB_PATH=" + lib, "run " + f + " --cycles 0..2 --out " + module), 2,
      "a source file of the program");
  EXPECT_EQ(read_file(module), kTwice);
}

TEST_F(CliHostile, AMissingLibraryPathDirectoryIsSkipped) {
  // hashed_id is a module of the standard library, searched after the
  // environment's directories: each is listed on the way there.
  const std::string f = write_program(dir, "std.polydat", "input c\nu := hashed_id(c, 1000)\n");
  const auto r = run_polyrt_with("POLYRT_LIB_PATH=" + dir + "/nowhere:" + dir + "/neither",
                                 "run " + f + " --cycles 0..2");
  EXPECT_EQ(r.status, 0) << r.err;
  // One named explicitly must exist.
  expect_error(run_polyrt("run " + f + " --cycles 0..2 --lib " + dir + "/nowhere"), 1,
               "cannot read the module directory");
}

TEST_F(CliHostile, HugeValuesAreCutInMessages) {
  const std::string f =
      write_program(dir, "huge.polydat", "input c\nextern s: str\nx := (s + \"{c}\") as u64\n");
  const auto r = run_polyrt("eval " + f + " --set s=" + std::string(100000, 'a') + " 3");
  EXPECT_EQ(r.status, 1) << r.err.substr(0, 300);
  EXPECT_LT(r.err.size(), 3000u);
  EXPECT_NE(r.err.find("bytes omitted"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("aa3\""), std::string::npos) << "the end is kept";
}

TEST_F(CliHostile, AMissingHomeIsNeverCreated) {
  const std::string home = dir + "/no-such-home";
  const auto r = run_polyrt_with("HOME=" + home + " XDG_CACHE_HOME= POLYRT_CACHE_DIR=",
                                 "run " + program + " --cycles 0..3");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(exists(home));
}

TEST_F(CliHostile, OutputFilesGetANewFilesMode) {
  const std::string out = dir + "/mode.csv";
  const auto r = run_polyrt_with("umask 027;", "run " + program + " --cycles 0..3 --out " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

}  // namespace
}  // namespace polyrt::test

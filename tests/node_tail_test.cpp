// polydat nodes polyrt adds for nmbrs's workloads, with the values polydat's
// node reference states: checked arithmetic (0 on overflow, subtraction
// saturating at 0), to_i64 (fails above i64's range), blend (an f64 lerp of bit patterns: nmbrs's
// examples/workloads/expressions/stdlib_coverage.yaml documents
// blend(10, 20, 0.5) = 15), matches (a regex pass-through that fails), and
// the image extracts (polydat's bytebuf nodes: the image of hash(seed + k),
// the slice from input % (last offset + 1)), const_bool, nationalities, the
// nondeterministic random_* nodes and fft_analyze (polydat's diagnostic
// writing a window's transform per JSON line).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "rtlib/rtlib.h"
#include "rtlib/string_ops.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

TEST(NodeTail, CheckedArithmeticOnEveryEngine) {
  const char* source =
      "input x\n"
      "add := checked_add(x, 18446744073709551614)\n"
      "sub := checked_sub(x, 2)\n"
      "mul := checked_mul(x, 9223372036854775808)\n";
  EXPECT_EQ(
      values_everywhere(source, 1, {"add", "sub", "mul"}),
      (std::vector<std::string>{"u64 18446744073709551615", "u64 0", "u64 9223372036854775808"}));
  EXPECT_EQ(values_everywhere(source, 2, {"add", "sub", "mul"}),
            (std::vector<std::string>{"u64 0", "u64 0", "u64 0"}));
  EXPECT_EQ(values_everywhere(source, 7, {"sub"}), (std::vector<std::string>{"u64 5"}));
}

TEST(NodeTail, ToI64IsTheCheckedConversion) {
  EXPECT_EQ(values_everywhere("input x\nv := to_i64(x) - 5\n", 3, {"v"}),
            (std::vector<std::string>{"i64 -2"}));
  State s = compile("input x\nv := to_i64(x)\n")->new_state();
  s.set_inputs({9223372036854775808ull});
  expect_contains(thrown_message<EvalError>([&] { s.pull("v"); }),
                  {"value 9223372036854775808 does not fit i64"});
}

// polydat's lfsr_step (crates/polydat-nodes/src/sampling/metashift.rs there):
// with the maximal 8-bit polynomial 0xB8, 255 steps from any nonzero value
// visit every nonzero byte once and come back.
TEST(NodeTail, LfsrStepWalksAMaximalPeriod) {
  EXPECT_EQ(values_everywhere("input x\nv := lfsr_step(x, 184)\n", 1, {"v"}),
            (std::vector<std::string>{"u64 184"}));
  EXPECT_EQ(values_everywhere("input x\nv := lfsr_step(x, 184)\n", 6, {"v"}),
            (std::vector<std::string>{"u64 3"}));
  State s = compile("input x\nv := lfsr_step(x, 184)\n")->new_state();
  std::vector<bool> seen(256, false);
  uint64_t reg = 42;
  for (int i = 0; i < 255; ++i) {
    s.set_inputs({reg});
    reg = s.pull("v").as_u64();
    ASSERT_TRUE(reg > 0 && reg < 256 && !seen[reg]) << "step " << i << ": " << reg;
    seen[reg] = true;
  }
  EXPECT_EQ(reg, 42u);
}

TEST(NodeTail, BlendLerpsBitPatterns) {
  const char* source =
      "input x\n"
      "small := blend(x, 20, 0.5)\n"
      "unit := blend(4607182418800017408, 4611686018427387904, 0.25)\n";
  EXPECT_EQ(values_everywhere(source, 10, {"small", "unit"}),
            (std::vector<std::string>{"u64 15", "u64 4608308318706860032"}))
      << "1.0 to 2.0 at 0.25 is 1.25";
  expect_contains(compile_error("input x\nv := blend(x, 2, 1.5)\n"), {"mix must be in [0, 1]"});
}

TEST(NodeTail, MatchesPassesWhatMatchesAndFailsTheRest) {
  const auto program = compile("input x\nid := matches(\"id-{x}\", \"^id-[0-9]$\")\n");
  State s = program->new_state();
  s.set_inputs({7});
  EXPECT_EQ(s.pull("id").as_str(), "id-7");
  s.set_inputs({42});
  expect_contains(thrown_message<EvalError>([&] { s.pull("id"); }),
                  {"\"id-42\" does not match /^id-[0-9]$/"});
  expect_contains(compile_error("input x\nv := matches(\"a\", \"(\")\n"), {"does not compile"});
}

// polydat's dynamic_weighted_select is weighted_strings with its spec a
// wire: the same alias table picks the same entries; an empty spec picks ""
// and a malformed one fails the row (polydat panics on it).
TEST(NodeTail, DynamicWeightedSelectPicksAsWeightedStrings) {
  const char* source =
      "input x\nspec := \"alpha:0.3;beta:0.5;gamma:0.2\"\nh := hash(x)\n"
      "dynamic := dynamic_weighted_select(h, spec)\n"
      "fixed := weighted_strings(h, \"alpha:0.3;beta:0.5;gamma:0.2\")\n"
      "empty := dynamic_weighted_select(h, \"\")\n";
  for (uint64_t x = 0; x < 40; ++x) {
    const std::vector<std::string> got =
        values_everywhere(source, x, {"dynamic", "fixed", "empty"});
    EXPECT_EQ(got[0], got[1]) << x;
    EXPECT_EQ(got[2], "str ") << x;
  }
  State s = compile("input x\nv := dynamic_weighted_select(x, \"a;b\")\n")->new_state();
  s.set_inputs({1});
  expect_contains(thrown_message<EvalError>([&] { s.pull("v"); }),
                  {"weights_spec \"a;b\"", "entry \"a\" is not value:weight"});
}

// polydat's context nodes limit (a cursor's pass-through) and tmp_dir (the
// temporary directory when the program compiles: TMPDIR, else /tmp).
TEST(NodeTail, LimitPassesThroughAndTmpDirIsTheTemporaryDirectory) {
  EXPECT_EQ(values_everywhere("input x\nv := limit(x, 10)\n", 42, {"v"}),
            (std::vector<std::string>{"u64 42"}));
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string expected = tmpdir ? tmpdir : "/tmp";
  EXPECT_EQ(values_everywhere("input x\nv := \"{tmp_dir()}/data\"\n", 0, {"v"}),
            (std::vector<std::string>{"str " + expected + "/data"}));
}

// The image restated here: byte k of the byte image is byte k % 8 of
// hash(seed + k / 8); character k of the text image is the charset's
// hash(seed + k) % size-th.
TEST(NodeTail, ImageExtractsCutPolydatsSlices) {
  const auto pulled = [](const std::string& source, uint64_t x, Engine engine) {
    State s = compile(source, CompileOptions{.engine = engine})->new_state();
    s.set_inputs({x});
    const Value v = s.pull("v");
    return v.type() == Type::Bytes ? v.as_bytes() : v.as_str();
  };
  std::string image;
  for (uint64_t k = 0; k < 10000; ++k) image += (char)(pd_hash(7 + k / 8) >> (8 * (k % 8)) & 0xff);
  std::string letters;
  for (uint64_t k = 0; k < 1000; ++k) letters += (char)('A' + pd_hash(k) % 26);
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    for (uint64_t x : {0ull, 42ull, 123456789ull}) {
      EXPECT_EQ(pulled("input x\nv := byte_image_extract(x, 10000, 100, 7)\n", x, engine),
                image.substr(x % 9901, 100));
      EXPECT_EQ(pulled("input x\nv := char_image_extract(x, \"A-Z\", 1000, 20)\n", x, engine),
                letters.substr(x % 981, 20));
    }
    // A slice longer than the image is the whole image.
    EXPECT_EQ(pulled("input x\nv := char_image_extract(x, \"A-Z\", 10, 20)\n", 5, engine),
              letters.substr(0, 10));
  }
  // Characters of two bytes are counted as characters, never split.
  const std::string greek =
      pulled("input x\nv := char_image_extract(x, \"α-γ\", 50, 4, 3)\n", 9, Engine::Interpreter);
  EXPECT_EQ(greek.size(), 8u);
  std::string want;
  for (uint64_t k = 9 % 47; k < 9 % 47 + 4; ++k)
    want += std::string("αβγ").substr(2 * (pd_hash(3 + k) % 3), 2);
  EXPECT_EQ(greek, want);
  expect_contains(compile_error("input x\nv := char_image_extract(x, \"\", 10, 2)\n"),
                  {"charset is empty"});
  expect_contains(compile_error("input x\nv := byte_image_extract(x, 1000000000, 2, 0)\n"),
                  {"image_size 1000000000 is above the largest"});
}

TEST(NodeTail, ConstBoolAndNationalities) {
  EXPECT_EQ(values_everywhere("input x\nt := const_bool(true)\nf := const_bool()\n", 0, {"t", "f"}),
            (std::vector<std::string>{"bool true", "bool false"}));
  expect_contains(compile_error("v := const_bool(1)\n"),
                  {"argument 'value' of 'const_bool' must be true or false"});
  // Mimesis's list in its order, input mod 50.
  EXPECT_EQ(values_everywhere("input x\nv := nationalities(x)\n", 0, {"v"}),
            (std::vector<std::string>{"str Afghan"}));
  EXPECT_EQ(values_everywhere("input x\nv := nationalities(x)\n", 62, {"v"}),
            (std::vector<std::string>{"str Costa Rican"}));
  const std::string dir = temp_dir();
  const std::string path = write_program(dir, "n.polydat", "input x\nv := nationalities(x)\n");
  const CommandResult batch = run_polyrt("run " + path + " --rows 51 --engine batch -q");
  ASSERT_EQ(batch.status, 0) << batch.err;
  std::set<std::string> seen;
  std::istringstream lines(batch.out);
  for (std::string line; std::getline(lines, line);) seen.insert(line);
  EXPECT_EQ(seen.size(), 51u);  // the header and 50 nationalities, the 51st row the first again
}

TEST(NodeTail, RandomNodesDrawAtEachEvaluationAndTheBatchTierRefusesThem) {
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    State s = compile(
                  "input x\n"
                  "r := random_range(10, 13)\n"
                  "f := random_f64(2.0, 3.0)\n"
                  "b := random_bytes(5)\n"
                  "s := random_string(\"α-γx\", 4)\n"
                  "never := random_bool(0.0)\n"
                  "always := random_bool(1.0)\n"
                  "wide := random_range(0, 18446744073709551615)\n",
                  CompileOptions{.engine = engine})
                  ->new_state();
    std::set<uint64_t> wide;
    for (uint64_t x = 0; x < 64; ++x) {
      s.set_inputs({x});
      const uint64_t r = s.pull("r").as_u64();
      EXPECT_TRUE(r >= 10 && r < 13) << r;
      const double f = s.pull("f").as_f64();
      EXPECT_TRUE(f >= 2.0 && f <= 3.0) << f;
      EXPECT_EQ(s.pull("b").as_bytes().size(), 5u);
      const std::string text = s.pull("s").as_str();
      EXPECT_EQ(rt::char_count(text), 4u) << text;
      EXPECT_FALSE(s.pull("never").as_bool());
      EXPECT_TRUE(s.pull("always").as_bool());
      wide.insert(s.pull("wide").as_u64());
    }
    EXPECT_GT(wide.size(), 60u) << "engine " << (int)engine;  // drawn again at each evaluation
  }
  EXPECT_EQ(values_everywhere("input x\nv := random_string(\"\", 3)\n", 0, {"v"}),
            (std::vector<std::string>{"str "}));
  expect_contains(compile_error("v := random_bytes(2000000)\n"),
                  {"a draw of 2000000 is above 1048576"});
  const std::string path =
      write_program(temp_dir(), "r.polydat", "input x\nv := random_range(0, 10)\n");
  const CommandResult batch = run_polyrt("run " + path + " --rows 3 --engine batch -q");
  EXPECT_NE(batch.status, 0);
  expect_contains(batch.err, {"the batch tier does not run 'random_range'", "--engine native"});
  EXPECT_EQ(run_polyrt("run " + path + " --rows 3 --engine native -q").status, 0);
}

// A window of n samples gives |X_k| / n and atan2(im, re) for k in 0..n/2:
// a constant 1 has dc 1; cos(2 pi 2 i / 8) puts 0.5 in bin 2.
TEST(NodeTail, FftAnalyzeWritesAWindowsTransformPerLine) {
  const std::string dir = temp_dir();
  const std::string out = dir + "/spectrum.jsonl";
  const std::string source = "input x\nsignal := cos(to_f64(x) * 3.141592653589793 / 2.0)\n" +
                             std::string("pos := fft_analyze(signal, \"") + out + "\", 8)\n";
  const std::string path = write_program(dir, "f.polydat", source);
  for (const char* engine : {"interpreter", "closures", "native"}) {
    const CommandResult run = run_polyrt(
        std::string("run ") + path + " --rows 20 --threads 1 --outputs pos -q --engine " + engine);
    ASSERT_EQ(run.status, 0) << run.err;
    std::string want = "pos\n";
    for (int row = 0; row < 20; ++row) want += std::to_string(row % 8) + "\n";
    EXPECT_EQ(run.out, want) << engine;
    const std::string lines = read_file(out);
    ASSERT_EQ(std::count(lines.begin(), lines.end(), '\n'), 2) << lines;  // 20 rows: 2 windows
    expect_contains(lines, {"{\"dc\":", ",\"fundamental\":", ",\"magnitudes\":[", ",\"phases\":[",
                            ",\"window_size\":8}\n"});
    // The magnitudes of bins 0..4: the cosine's energy is bin 2's.
    const char* bins = lines.c_str() + lines.find("\"magnitudes\":[") + 14;
    for (int k = 0; k <= 4; ++k) {
      char* end = nullptr;
      EXPECT_NEAR(std::strtod(bins, &end), k == 2 ? 0.5 : 0.0, 1e-12) << "bin " << k;
      bins = end + 1;
    }
  }
  State s = compile("input x\nv := fft_analyze(1.0, \"" + out + "\", 4)\n")->new_state();
  for (uint64_t x = 0; x < 4; ++x) {
    s.set_inputs({x});
    EXPECT_EQ(s.pull("v").as_u64(), x);
  }
  expect_contains(read_file(out), {"{\"dc\":1.0,\"fundamental\":", "\"window_size\":4}"});
  const CommandResult batch = run_polyrt("run " + path + " --rows 3 --engine batch -q");
  expect_contains(batch.err, {"the batch tier does not run 'fft_analyze'"});
  State unwritable =
      compile("input x\nv := fft_analyze(1.0, \"/nonexistent/dir/s.jsonl\", 4)\n")->new_state();
  unwritable.set_inputs({0});
  expect_contains(thrown_message<EvalError>([&] { unwritable.pull("v"); }),
                  {"cannot create /nonexistent/dir/s.jsonl"});
  // A pipe without a reader would block the open for ever: it fails the row.
  const std::string fifo = dir + "/spectrum.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  State piped = compile("input x\nv := fft_analyze(1.0, \"" + fifo + "\", 4)\n")->new_state();
  piped.set_inputs({0});
  expect_contains(thrown_message<EvalError>([&] { piped.pull("v"); }), {"cannot create"});
  expect_contains(compile_error("input x\nv := fft_analyze(1.0, \"s.jsonl\", 70000)\n"),
                  {"window_size 70000 is above 65536"});
  CompileOptions untrusted{.untrusted = true};
  expect_contains(thrown_message<CompileError>(
                      [&] { compile("input x\nv := fft_analyze(1.0, \"s.jsonl\")\n", untrusted); }),
                  {"an untrusted program writes no file"});
}

}  // namespace
}  // namespace polyrt::test

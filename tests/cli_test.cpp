// The polyrt command, run as a subprocess.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const std::string kExample = std::string(POLYRT_SOURCE_DIR) + "/examples/users.polydat";

class Cli : public ::testing::Test {
 protected:
  std::string dir = temp_dir();
  std::string ladder = write_program(dir, "l.polydat",
                                     "input cycle\nextern k: u64 = 3\nextern tag: str\n"
                                     "a := mod(hash(cycle + k), 100)\nb := unit_interval(hash(a))\n"
                                     "c := \"{tag},x\\\"y\"\n");
};

TEST_F(Cli, Help) {
  auto r = run_polyrt("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: polyrt COMMAND"), std::string::npos);
  EXPECT_EQ(run_polyrt("").status, 2);
  EXPECT_EQ(run_polyrt("run --help").status, 0);
  EXPECT_NE(run_polyrt("run --help").out.find("--cycles A..B"), std::string::npos);
  EXPECT_EQ(run_polyrt("bogus").status, 2);
}

// One command table: every command `help --commands` lists (what the bash
// completion offers) is in the usage, runs its --help, and the usage lists
// no other.
TEST_F(Cli, OneCommandTableDrivesUsageDispatchAndCompletion) {
  const std::string help = run_polyrt("--help").out;
  const std::string usage = help.substr(0, help.find("\nexamples"));
  const CommandResult names = run_polyrt("help --commands");
  ASSERT_EQ(names.status, 0);
  std::istringstream lines(names.out);
  size_t commands = 0;
  for (std::string name; std::getline(lines, name); ++commands) {
    EXPECT_NE(usage.find("\n  " + name + " "), std::string::npos) << name;
    EXPECT_EQ(run_polyrt(name + " --help").status, name == "version" ? 2 : 0) << name;
  }
  EXPECT_EQ(commands, 10u);
  size_t listed = 0;
  for (size_t at = usage.find("\n  "); at != std::string::npos; at = usage.find("\n  ", at + 1)) {
    ++listed;
  }
  EXPECT_EQ(listed, commands) << usage;
  std::ifstream completion(std::string(POLYRT_SOURCE_DIR) + "/scripts/polyrt-completion.bash");
  const std::string script((std::istreambuf_iterator<char>(completion)), {});
  EXPECT_NE(script.find("polyrt help --commands"), std::string::npos);
}

TEST_F(Cli, Check) {
  auto ok = run_polyrt("check " + kExample);
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("ok (1 inputs, 2 externs, 12 outputs)"), std::string::npos);
  const std::string bad = write_program(dir, "bad.polydat", "input x\nv := hsh(x)\n");
  auto r = run_polyrt("check " + bad);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("bad.polydat:2:6: error: unknown function 'hsh'"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("did you mean 'hash'?"), std::string::npos);
  // A program file that cannot be read is an I/O error (2), named by its command.
  const CommandResult missing = run_polyrt("check " + dir + "/missing.polydat");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err.rfind("polyrt check: cannot read program file", 0), 0u) << missing.err;
  const CommandResult directory = run_polyrt("run " + dir + " --rows 1");
  EXPECT_EQ(directory.status, 2);
  EXPECT_NE(directory.err.find("polyrt run: cannot read program file"), std::string::npos);
  // Every usage error names its command too.
  EXPECT_EQ(run_polyrt("run " + kExample + " --rows 1 --engine bogus").err.rfind("polyrt run: ", 0),
            0u);
}

// --dump-after shows the tree after one expansion; an unknown one is
// refused with the names.
TEST_F(Cli, CheckDumpsTheTreeAfterAnExpansion) {
  const std::string tile =
      write_program(dir, "tile.polydat", "input cycle\ntile t : text := \"id=${cycle}\"\n");
  const CommandResult r = run_polyrt("check " + tile + " --dump-after tiles");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("// the program after 'tiles'\ninput cycle\nt := ", 0), 0u) << r.out;
  const CommandResult unknown = run_polyrt("check " + tile + " --dump-after tile");
  EXPECT_NE(unknown.status, 0);
  EXPECT_NE(unknown.err.find("producers, tiles, emitted_rows, modules, table_values"),
            std::string::npos)
      << unknown.err;
  EXPECT_EQ(run_polyrt("check " + tile + " " + tile + " --dump-after tiles").status, 2);
}

// Several programs, or a directory of them: one line each, what compiles
// and why the rest do not, then the count; --json as JSON Lines; exit 1
// when any is refused.
TEST_F(Cli, CheckListsWhichProgramsCompile) {
  const std::string tree = dir + "/workloads";
  std::filesystem::create_directories(tree + "/nested");
  write_program(tree, "a.polydat", "input cycle\nv := hash(cycle)\n");
  write_program(tree + "/nested", "b.polydat", "input cycle\nv := hash(cycle\n");
  write_program(tree, "c.polydat", "x := nope(1)\n");
  write_program(tree, "notes.txt", "not a program\n");
  const CommandResult listed = run_polyrt("check " + tree);
  EXPECT_EQ(listed.status, 1) << listed.err;
  EXPECT_EQ(listed.out, tree + "/a.polydat: ok (1 inputs, 0 externs, 1 outputs)\n" + tree +
                            "/c.polydat:1:6: refused: unknown function 'nope'\n" + tree +
                            "/nested/b.polydat:3:1: refused: expected ')' to close the "
                            "arguments of 'hash', found end of input\n1 of 3 compile\n");
  const CommandResult json =
      run_polyrt("check " + tree + "/a.polydat " + tree + "/c.polydat --json");
  EXPECT_EQ(json.status, 1);
  EXPECT_EQ(json.out, "{\"file\":\"" + tree +
                          "/a.polydat\",\"ok\":true,\"inputs\":1,\"externs\":0,\"outputs\":1}\n"
                          "{\"file\":\"" +
                          tree +
                          "/c.polydat\",\"ok\":false,\"line\":1,\"column\":6,\"error\":"
                          "\"unknown function 'nope'\"}\n");
  EXPECT_EQ(run_polyrt("check " + tree + "/a.polydat --json").status, 0);
}

TEST_F(Cli, Eval) {
  auto r = run_polyrt("eval " + ladder + " --set tag=hi 4");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("a = "), std::string::npos);
  EXPECT_NE(r.out.find("c = hi,x\"y\n"), std::string::npos) << r.out;
  auto unset = run_polyrt("eval " + ladder + " 4");
  EXPECT_NE(unset.out.find("c = None"), std::string::npos) << unset.out;
  auto bad = run_polyrt("eval " + ladder + " --set k=notanumber 4");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("cannot read \"notanumber\" as u64 for extern k"), std::string::npos)
      << bad.err;
  EXPECT_EQ(run_polyrt("eval " + ladder + " 1 2").status, 2);  // one value per input
}

// Every worked example of `polyrt --help` runs as written, from a directory
// holding the examples (its outputs land there); a build without the Arrow
// module (the sanitizer's) refuses the Parquet one, saying so.
TEST_F(Cli, HelpExamplesRunAsWritten) {
  const std::string help = run_polyrt("--help").out;
  std::istringstream lines(help.substr(help.find("\nexamples")));
  std::filesystem::create_directory_symlink(std::string(POLYRT_SOURCE_DIR) + "/examples",
                                            dir + "/examples");
  size_t ran = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  polyrt ", 0) != 0) continue;
    const std::string command = "cd " + dir + " && " + std::string(POLYRT_BINARY) + line.substr(8) +
                                " >/dev/null 2>" + dir + "/err";
    const bool arrow = line.find("--format parquet") != std::string::npos;
    if (arrow && !POLYRT_WITH_ARROW) {
      EXPECT_EQ(WEXITSTATUS(std::system(command.c_str())), 2) << line;
      EXPECT_NE(read_file(dir + "/err").find("built without its Arrow module"), std::string::npos);
    } else {
      EXPECT_EQ(std::system(command.c_str()), 0) << line << "\n" << read_file(dir + "/err");
    }
    ++ran;
  }
  EXPECT_EQ(ran, 6u);
  for (const char* made : {"users.csv.zst", "users.parquet", "report.html"}) {
    if (std::string(made) == "users.parquet" && !POLYRT_WITH_ARROW) continue;
    EXPECT_TRUE(exists(dir + "/" + made)) << made;
  }
}

// Counts read as the language reads literals (10M, 1Ki, 0x10);
// --rows N takes the first N rows of --cycles (0.. by default); A.. runs to
// the end of the u64 range; a misspelt value gets a "did you mean".
TEST_F(Cli, EverydayRangesAndSuggestions) {
  const std::string tag = " --set tag=t --outputs a";
  const std::string plain = run_polyrt("run " + ladder + " --cycles 16..18" + tag).out;
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 0x10..=0x11" + tag).out, plain);
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 16.. --rows 2" + tag).out, plain);
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 16..1Ki --rows 2" + tag).out, plain);
  EXPECT_EQ(run_polyrt("run " + ladder + " --rows 3" + tag).out,
            run_polyrt("run " + ladder + " --cycles 0..3" + tag).out);
  const CommandResult thousand = run_polyrt("run " + ladder + " --cycles 0..1K" + tag);
  ASSERT_EQ(thousand.status, 0) << thousand.err;
  EXPECT_EQ(std::count(thousand.out.begin(), thousand.out.end(), '\n'), 1001);
  // 0.. is a stream to the end of the range (2^64 - 1 rows): a reader stops it.
  const CommandResult endless = run_polyrt("run " + ladder + " --cycles 0.." + tag + " | head -3");
  EXPECT_EQ(endless.out, run_polyrt("run " + ladder + " --cycles 0..2" + tag).out);
  const CommandResult last = run_polyrt("run " + ladder + " --cycles 18446744073709551614.." + tag);
  ASSERT_EQ(last.status, 0) << last.err;
  EXPECT_EQ(std::count(last.out.begin(), last.out.end(), '\n'), 3);

  const auto refused = [&](const std::string& args, std::initializer_list<const char*> fragments) {
    const CommandResult r = run_polyrt("run " + ladder + " " + args);
    EXPECT_EQ(r.status, 2) << args;
    expect_contains(r.err, fragments);
  };
  refused("--cycles 0..2x" + tag, {"the end of --cycles", "1M, 1Mi or 0x10", "'2x'"});
  refused("--cycles 0..99999999999999999999" + tag, {"below 2^64"});
  refused("--rows -1" + tag, {"--rows must be an unsigned integer"});
  refused("--cycles 0..3 --format csvv" + tag, {"unknown --format 'csvv'", "did you mean 'csv'?"});
  refused("--cycles 0..3 --engine batc" + tag, {"did you mean 'batch'?"});
  refused("--cycles 0..3 --device gpuu" + tag, {"got 'gpuu'", "did you mean 'gpu'?"});
  refused("--cycles 0..3 --set tag=t --outputs bb", {"'bb'", "did you mean 'b'?"});
  const CommandResult no_range = run_polyrt("run " + ladder + tag);
  EXPECT_EQ(no_range.status, 2);
  expect_contains(no_range.err, {"--cycles A..B or --rows N is required"});
}

// A run over a second on a terminal shows its progress on stderr (rows,
// percent, rows/s, time left) and clears it; -q never does (script(1) gives
// the command a terminal; --rate makes the run last two seconds).
TEST_F(Cli, ProgressOnATerminalUnlessQuiet) {
  const auto typescript = [&](const std::string& flags) {
    const std::string file = dir + "/typescript";
    const std::string command = "script -qec '" + std::string(POLYRT_BINARY) + " run " + kExample +
                                " --rows 400000 --rate 200000 --out /dev/null " + flags + "' " +
                                file + " >/dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0);
    std::ifstream in(file);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  expect_contains(typescript(""), {"/400000 rows", "M rows/s", "left"});
  EXPECT_EQ(typescript("-q").find("rows/s"), std::string::npos);
}

TEST_F(Cli, RunCsvTsvJsonl) {
  auto csv = run_polyrt("run " + ladder + " --cycles 0..3 --set tag=t");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, 6), "a,b,c\n");
  EXPECT_NE(csv.out.find(",\"t,x\"\"y\"\n"), std::string::npos) << csv.out;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 4);
  auto tsv = run_polyrt("run " + ladder + " --cycles 0..2 --set tag=t --format tsv --outputs c,a");
  EXPECT_EQ(tsv.out.substr(0, 4), "c\ta\n");
  auto jsonl =
      run_polyrt("run " + ladder + " --cycles 5..6 --set tag=t --format=jsonl --outputs a,c");
  EXPECT_EQ(jsonl.out.substr(0, 5), "{\"a\":");
  EXPECT_NE(jsonl.out.find("\"c\":\"t,x\\\"y\"}"), std::string::npos) << jsonl.out;
}

// A program with no outputs writes one empty row per coordinate: the row
// writer ends each row where its last field's separator would be.
TEST_F(Cli, RowsOfNoColumns) {
  const std::string none = write_program(dir, "none.polydat", "input x\n");
  for (const char* engine : {"batch", "closures"}) {
    auto csv = run_polyrt("run " + none + " --cycles 0..3 --engine " + engine);
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_EQ(csv.out, "\n\n\n\n") << engine;
    auto jsonl = run_polyrt("run " + none + " --cycles 0..2 --format jsonl --engine " + engine);
    EXPECT_EQ(jsonl.out, "{}\n{}\n") << engine;
  }
}

// A program of constants (no input) writes its values once per cycle on
// every engine, as polydat's run does (nmbrs's blocks of params alone);
// the per-state engines once wrote past an empty coordinate list here.
TEST_F(Cli, AProgramWithNoInputWritesItsConstantsEachRow) {
  const std::string constants = write_program(dir, "constants.polydat", "a := 5\nb := \"x\"\n");
  for (const char* engine : {"batch", "native", "closures", "interpreter"}) {
    auto csv = run_polyrt("run " + constants + " --cycles 0..3 --engine " + engine);
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_EQ(csv.out, "a,b\n5,x\n5,x\n5,x\n") << engine;
  }
  auto preview = run_polyrt("preview " + constants + " --rows 2");
  ASSERT_EQ(preview.status, 0) << preview.err;
  EXPECT_NE(preview.out.find("2 rows (no input: the same constants each row)"), std::string::npos)
      << preview.out;
  // A traversal's rows are numbered by the first input: none is refused.
  const std::string traversal =
      write_program(dir, "traversal.polydat", "a := 5\nfor i in 0..3 {\n  v := i\n}\n");
  for (const char* command : {"run", "preview"}) {
    auto refused = run_polyrt(std::string(command) + " " + traversal + " --cycles 0..2");
    EXPECT_EQ(refused.status, 2) << command;
    EXPECT_NE(refused.err.find("has a traversal but no input to number its rows; declare one "
                               "(input cycle)"),
              std::string::npos)
        << refused.err;
  }
}

TEST_F(Cli, StringEscapesInEveryFormatAndTier) {
  const std::string f =
      write_program(dir, "esc.polydat", "input cycle\ns := \"a\\tb\\nc\\\\d\\\"e,f\"\n");
  const std::pair<const char*, const char*> want[] = {
      {"csv", "s\n\"a\tb\nc\\d\"\"e,f\"\n"},
      {"tsv", "s\na\\tb\\nc\\\\d\"e,f\n"},
      {"jsonl", "{\"s\":\"a\\tb\\nc\\\\d\\\"e,f\"}\n"},
  };
  for (const auto& [format, text] : want) {
    const std::string args = "run " + f + " --cycles 0..1 --format " + format;
    EXPECT_EQ(run_polyrt(args).out, text) << format;
    EXPECT_EQ(run_polyrt(args + " --engine interpreter").out, text) << format;
  }
}

TEST_F(Cli, SpecialFloatsInEveryFormat) {
  const std::string f =
      write_program(dir, "nan.polydat",
                    "input cycle\nn := sqrt(-1.0 - to_f64(cycle))\n"
                    "i := exp(1000.0 + to_f64(cycle))\nz := to_f64(cycle) * -1.0\n");
  EXPECT_EQ(run_polyrt("run " + f + " --cycles 0..1").out, "n,i,z\nNaN,inf,-0\n");
  // JSON has no NaN or infinity: JSON Lines spells them as strings, on both tiers.
  for (const char* engine : {"batch", "interpreter"}) {
    EXPECT_EQ(run_polyrt("run " + f + " --cycles 0..1 --format jsonl --engine " + engine).out,
              "{\"n\":\"NaN\",\"i\":\"inf\",\"z\":-0}\n")
        << engine;
  }
}

TEST_F(Cli, RunIsDeterministicAcrossThreadCounts) {
  auto one = run_polyrt("run " + kExample + " --cycles 1000..70000 --threads 1");
  auto two = run_polyrt("run " + kExample + " --cycles 1000..70000 --threads 2");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 69001);
}

TEST_F(Cli, FloatsRoundTrip) {
  auto r = run_polyrt("run " + ladder + " --cycles 0..50 --set tag=t --outputs b");
  ASSERT_EQ(r.status, 0);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  for (uint64_t c = 0; std::getline(lines, line); ++c) {
    const Value want = eval_expr("unit_interval(hash(mod(hash(x + 3), 100)))", c);
    EXPECT_EQ(std::stod(line), want.as_f64()) << line;
  }
}

TEST_F(Cli, AtomicOutputFile) {
  const std::string out = dir + "/rows.csv";
  auto r = run_polyrt("run " + ladder + " --cycles 0..100 --set tag=t --out " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(exists(out));
  const std::string failing =
      write_program(dir, "fail.polydat", "input cycle\nv := in_range(cycle, 0, 50000)\n");
  const std::string out2 = dir + "/sub/fail.csv";
  ::mkdir((dir + "/sub").c_str(), 0755);
  auto f = run_polyrt("run " + failing + " --cycles 0..100000 --out " + out2);
  EXPECT_EQ(f.status, 1);
  EXPECT_NE(f.err.find("value 50001 is not in range [0, 50000]"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("coordinates: cycle=50001"), std::string::npos) << f.err;
  EXPECT_FALSE(exists(out2));
  EXPECT_EQ(entries(dir + "/sub"), 0u);  // no temporary file left behind
  auto devnull = run_polyrt("run " + ladder + " --cycles 0..100 --set tag=t --out /dev/null");
  EXPECT_EQ(devnull.status, 0) << devnull.err;
  EXPECT_TRUE(exists("/dev/null"));
}

TEST_F(Cli, PlanAndEmitLlvm) {
  const std::string ladder_file = std::string(POLYRT_SOURCE_DIR) + "/examples/ladder.polydat";
  auto plan = run_polyrt("plan " + ladder_file);
  ASSERT_EQ(plan.status, 0) << plan.err;
  EXPECT_NE(plan.out.find("engine: native (PushPull)"), std::string::npos) << plan.out;
  EXPECT_NE(
      plan.out.find("step 0: native segment [u64_add -> seeded_cycle, hash -> identity_entropy"),
      std::string::npos)
      << plan.out;
  auto ir = run_polyrt("plan " + ladder_file + " --emit-llvm");
  ASSERT_EQ(ir.status, 0) << ir.err;
  EXPECT_NE(ir.out.find("@polyrt_seg_0(ptr"), std::string::npos) << ir.out;
  EXPECT_EQ(ir.out.find("call i64 @pd_hash"), std::string::npos);  // the rtlib is inlined
  EXPECT_EQ(run_polyrt("plan " + ladder_file + " --engine interpreter").status, 2);
  auto closures = run_polyrt("plan " + ladder_file + " --engine closures --provenance raw");
  EXPECT_NE(closures.out.find("engine: closures (Raw)"), std::string::npos);
  EXPECT_EQ(run_polyrt("run " + ladder_file +
                       " --cycles 0..10 --set tenant_seed=1 --set operation_seed=2 --engine bogus")
                .status,
            2);
}

// POLYRT_JIT_CPU compiles for a named CPU (AVX2 code here, whatever the
// host has beyond it): the same rows, objects cached apart from the host's,
// and --emit-asm shows the machine code.
TEST_F(Cli, JitCpuChoiceAndEmitAsm) {
  const std::string ladder = std::string(POLYRT_SOURCE_DIR) + "/examples/ladder.polydat";
  const std::string avx2 = "POLYRT_JIT_CPU=x86-64-v3";
  const auto native_asm = run_polyrt("plan " + ladder + " --emit-asm");
  ASSERT_EQ(native_asm.status, 0) << native_asm.err;
  expect_contains(native_asm.out, {"polyrt_seg_0:", "ret"});
  const auto batch_asm = run_polyrt_with(avx2, "plan " + ladder + " --engine batch --emit-asm");
  ASSERT_EQ(batch_asm.status, 0) << batch_asm.err;
  expect_contains(batch_asm.out, {"polyrt_batch_kernel_0:", "ymm"});
  EXPECT_EQ(batch_asm.out.find("zmm"), std::string::npos);  // no AVX-512 in x86-64-v3 code

  const std::string cache = "POLYRT_CACHE_DIR=" + dir + "/jit_cache";
  const auto objects = [&] {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/jit_cache")) {
      n += e.path().extension() == ".o";
    }
    return n;
  };
  const std::string run = "run " + kExample + " --cycles 0..5000 --threads 2 --device cpu";
  const auto host = run_polyrt_with(cache, run);
  const size_t host_objects = objects();
  const auto chosen = run_polyrt_with(cache + " " + avx2, run);
  ASSERT_EQ(chosen.status, 0) << chosen.err;
  EXPECT_EQ(chosen.out, host.out);
  EXPECT_GT(host_objects, 0u);
  EXPECT_EQ(objects(), 2 * host_objects);  // none reused across CPUs

  const auto unknown = run_polyrt_with("POLYRT_JIT_CPU=cortex-a53", run);
  EXPECT_EQ(unknown.status, 1);
  expect_contains(unknown.err, {"POLYRT_JIT_CPU=cortex-a53 names no CPU LLVM knows"});
  EXPECT_EQ(run_polyrt("plan " + ladder + " --engine batch --target nvptx --emit-asm").status, 2);
  EXPECT_EQ(run_polyrt("plan " + ladder + " --emit-asm --emit-llvm").status, 2);
}

TEST_F(Cli, EnginesWriteTheSameRows) {
  auto batch = run_polyrt("run " + kExample + " --cycles 0..3000 --threads 2");
  auto native = run_polyrt("run " + kExample + " --cycles 0..3000 --engine native");
  auto closures =
      run_polyrt("run " + kExample + " --cycles 0..3000 --engine closures --provenance pull");
  auto interp = run_polyrt("run " + kExample + " --cycles 0..3000 --engine interpreter");
  ASSERT_EQ(native.status, 0) << native.err;
  EXPECT_EQ(native.out, interp.out);
  EXPECT_EQ(closures.out, interp.out);
  EXPECT_EQ(batch.out, interp.out);
  for (const char* format : {"tsv", "jsonl"}) {
    const std::string range = " --cycles 7..2000 --format " + std::string(format);
    EXPECT_EQ(run_polyrt("run " + kExample + range).out,
              run_polyrt("run " + kExample + range + " --engine interpreter").out);
  }
}

TEST_F(Cli, NpyColumnsEqualTheCsvRows) {
  const std::string program =
      write_program(dir, "n.polydat",
                    "input cycle\ninput seed\nextern flag: bool = true\nid := hash(cycle + seed)\n"
                    "ratio := unit_interval(id)\nodd := flag\n");
  const std::string out = dir + "/cols";
  const std::string args = " --cycles 4294967000..4294968000 --set seed=9";
  auto r = run_polyrt("run " + program + args + " --format npy --out " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  auto csv = run_polyrt("run " + program + args + " --engine interpreter");
  ASSERT_EQ(csv.status, 0) << csv.err;
  std::string dict;
  const auto ids = read_npy(out + "/id.npy", dict);
  EXPECT_NE(dict.find("'descr': '<u8'"), std::string::npos) << dict;
  EXPECT_NE(dict.find("'shape': (1000,)"), std::string::npos) << dict;
  const auto ratios = read_npy(out + "/ratio.npy", dict);
  EXPECT_NE(dict.find("'descr': '<f8'"), std::string::npos) << dict;
  const auto odd = read_npy(out + "/odd.npy", dict);
  EXPECT_NE(dict.find("'descr': '|u1'"), std::string::npos) << dict;
  ASSERT_EQ(ids.size(), 8000u);
  ASSERT_EQ(odd.size(), 1000u);
  std::istringstream lines(csv.out);
  std::string line;
  std::getline(lines, line);  // header
  for (size_t r = 0; r < 1000; ++r) {
    ASSERT_TRUE(std::getline(lines, line));
    uint64_t id;
    double ratio;
    std::memcpy(&id, &ids[r * 8], 8);
    std::memcpy(&ratio, &ratios[r * 8], 8);
    char buf[64];
    const std::string want = std::to_string(id) + "," +
                             std::string(buf, std::to_chars(buf, buf + 64, ratio).ptr) + "," +
                             (odd[r] ? "true" : "false");
    ASSERT_EQ(line, want) << "row " << r;
  }
  // numpy reads them back as the same values, where python3 and numpy exist.
  if (std::system("python3 -c 'import numpy' 2>/dev/null") == 0) {
    const std::string csv_path = write_program(dir, "rows.csv", csv.out);
    const std::string check =
        "python3 -c \"import numpy as np, sys; d = sys.argv[1]; "
        "rows = [l.split(',') for l in open(sys.argv[2]).read().split()[1:]]; "
        "assert np.load(d + '/id.npy').tolist() == [int(r[0]) for r in rows]; "
        "assert np.load(d + '/ratio.npy').tolist() == [float(r[1]) for r in rows]; "
        "assert np.load(d + '/odd.npy').tolist() == [int(r[2] == 'true') for r in rows]\" " +
        out + " " + csv_path;
    EXPECT_EQ(std::system(check.c_str()), 0);
  }
}

TEST_F(Cli, NpyRefusalsAndAtomicity) {
  const std::string out = dir + "/npy";
  auto str = run_polyrt("run " + ladder + " --cycles 0..10 --set tag=t --format npy --out " + out);
  EXPECT_EQ(str.status, 2);
  EXPECT_NE(str.err.find("output 'c' is a str"), std::string::npos) << str.err;
  EXPECT_EQ(
      run_polyrt("run " + ladder + " --cycles 0..10 --set tag=t --outputs a --format npy").status,
      2);
  EXPECT_EQ(run_polyrt(
                "run " + ladder +
                " --cycles 0..10 --set tag=t --outputs a --format npy --engine native --out " + out)
                .status,
            2);
  const std::string failing =
      write_program(dir, "fail.polydat", "input cycle\nv := in_range(cycle, 0, 50000)\n");
  auto f = run_polyrt("run " + failing + " --cycles 0..100000 --format npy --out " + out);
  EXPECT_EQ(f.status, 1);
  EXPECT_NE(f.err.find("coordinates: cycle=50001"), std::string::npos) << f.err;
  EXPECT_FALSE(exists(out));
  EXPECT_EQ(entries(dir), entries(dir));
  auto ok = run_polyrt("run " + ladder +
                       " --cycles 0..10 --set tag=t --outputs a,b --format npy --out " + out);
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(exists(out + "/a.npy"));
  auto again = run_polyrt("run " + ladder +
                          " --cycles 0..10 --set tag=t --outputs a --format npy --out " + out);
  EXPECT_EQ(again.status, 2) << "an existing non-empty directory is never overwritten";
}

TEST_F(Cli, RunErrors) {
  auto missing = run_polyrt("run " + ladder + " --cycles 0..3");
  // An unset extern without a default is None (docs/language.md): a
  // column that reads it fails its first row, naming the extern.
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("polyrt run: output 'c' is None at coordinate 0: it reads extern "
                             "'tag', which has no default and no value; set it (--set "
                             "tag=VALUE; BatchOptions::externs, Python externs=)"),
            std::string::npos)
      << missing.err;
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 0..3 --outputs a,b").status, 0)
      << "columns that do not read the unset extern are written";
  EXPECT_EQ(run_polyrt("run " + ladder + " --set tag=t").status, 2);
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 5..3 --set tag=t").status, 2);
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 0..3 --set tag=t --format xml").status, 2);
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 0..3 --set tag=t --outputs nope").status, 2);
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 0..3 --set tag=t --bogus").status, 2);
  EXPECT_EQ(run_polyrt("run " + ladder + " --cycles 0..3 --set tag=t --threads 0").status, 2);
  auto two = write_program(dir, "two.polydat", "input a\ninput b\nv := a + b\n");
  EXPECT_EQ(run_polyrt("run " + two + " --cycles 0..3").status, 2);
  auto ok = run_polyrt("run " + two + " --cycles 0..3 --set b=10");
  EXPECT_EQ(ok.out, "v\n10\n11\n12\n");
}

}  // namespace
}  // namespace polyrt::test

namespace polyrt {
namespace {

TEST(CliVersion, SaysWhatThisBuildIs) {
  for (const char* args : {"--version", "version"}) {
    const test::CommandResult r = test::run_polyrt(args);
    EXPECT_EQ(r.status, 0) << args;
    test::expect_contains(
        r.out, {"polyrt 0.", "LLVM 19.", "linked ", "build", "GPU: NVPTX", "loaded at run time"});
  }
}

}  // namespace
}  // namespace polyrt

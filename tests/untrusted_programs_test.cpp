// Programs compiled as untrusted (CompileOptions::untrusted, `--untrusted`,
// docs/security.md): data files only inside the data roots (no `..`, no
// symbolic link out, no /proc, /sys or /dev), the environment only for the
// names allowed, and no diagnostic that quotes what a file or the
// environment holds; on every command that compiles.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "polyrt/polyrt.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

class Untrusted : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = temp_dir();
    root = dir + "/root";
    ASSERT_EQ(::mkdir(root.c_str(), 0755), 0);
    write_program(root, "people.csv", "name,age\nada,36\nalan,41\n");
    write_program(dir, "secret.csv", "password\nhunter2\n");
    ASSERT_EQ(::symlink((dir + "/secret.csv").c_str(), (root + "/link.csv").c_str()), 0);
  }
  // `text` as a program file in the data root's parent; its path.
  std::string program(const std::string& text) {
    return write_program(dir, "p.polydat", "input cycle\n" + text + "\n");
  }
  CommandResult run(const std::string& args) { return run_polyrt_with("RT4_SECRET=hunter2", args); }
  void expect_refused(const CommandResult& r, std::initializer_list<const char*> parts) {
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    expect_contains(r.err, parts);
    EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("hunter2"), std::string::npos) << r.out;
  }
  std::string dir, root;
};

TEST_F(Untrusted, TheEnvironmentIsReadOnlyForAllowedNames) {
  const std::string p = program("x := env(\"RT4_SECRET\") as u64");
  // Trusted, the folding error quotes the value (the behaviour being confined).
  expect_contains(run("check " + p).err, {"hunter2"});
  expect_refused(run("check --untrusted " + p),
                 {"reads no environment variable it was not allowed", "--allow-env RT4_SECRET"});
  // Allowed, it is read; the folding error still does not quote it.
  expect_refused(run("check --allow-env RT4_SECRET " + p),
                 {"fails when folded at compile time", "not shown why"});
  const std::string fallback = program("x := env_or(\"RT4_SECRET\", \"none\")");
  expect_refused(run("check --untrusted " + fallback), {"--allow-env RT4_SECRET"});
  const auto allowed = run("run --allow-env RT4_SECRET " + fallback + " --cycles 0..1");
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_EQ(allowed.out, "x\nhunter2\n");  // what the operator allowed, it may print
}

TEST_F(Untrusted, DataFilesAreReadOnlyInsideTheRoots) {
  const std::string inside =
      program("n := csv_field(cycle, \"" + root + "/people.csv\", \"name\")");
  const auto ok = run("run " + inside + " --cycles 0..2 --data-root " + root);
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.out, "n\nada\nalan\n");
  expect_refused(run("check --untrusted " + inside),
                 {"unless given a data root (--data-root DIR; CompileOptions::data_roots, Python "
                  "data_roots=)"});
  for (const std::string& path : {dir + "/secret.csv", root + "/../secret.csv", root + "/link.csv",
                                  std::string("/proc/self/environ"), std::string("/etc/passwd")}) {
    const std::string p = program("x := file_line_at(1, \"" + path + "\")");
    expect_refused(run("check " + p + " --data-root " + root), {"failed to read", path.c_str()});
  }
  const std::string proc = program("x := file_line_at(7, \"/proc/self/environ\")");
  expect_refused(run("check --data-root / " + proc), {"data root '/' is the root directory"});
  expect_refused(run("check --data-root " + dir + "/none " + proc), {"is not a directory"});
}

TEST_F(Untrusted, DiagnosticsQuoteNoFile) {
  write_program(root, "keys.csv", "hunter2,column\n1,2\n");
  const std::string p = program("x := csv_field(cycle, \"" + root + "/keys.csv\", \"nope\")");
  expect_contains(run("check " + p).err, {"Available: hunter2"});  // trusted: the header helps
  expect_refused(run("check " + p + " --data-root " + root),
                 {"column 'nope' not found", "its header is not shown"});
}

// Every command that compiles takes the confinement.
TEST_F(Untrusted, EveryCommandThatCompilesIsConfined) {
  const std::string p = program("x := env(\"RT4_SECRET\")");
  for (const char* command : {"check", "run", "plan", "preview", "stats", "bench", "eval"}) {
    std::string args = std::string(command) + " --untrusted " + p;
    if (std::string(command) == "stats" || std::string(command) == "run") args += " --cycles 0..1";
    if (std::string(command) == "eval") args += " 0";
    expect_refused(run(args), {"--allow-env RT4_SECRET"});
    expect_contains(run(std::string(command) + " --help").out, {"--untrusted", "--data-root"});
  }
}

TEST(UntrustedApi, CompileOptionsConfineAndNoOneElse) {
  CompileOptions options;
  options.untrusted = true;
  const std::string source = "input c\nx := env_or(\"HOME\", \"none\")\n";
  EXPECT_THROW(compile(source, options), CompileError);
  options.allowed_env = {"HOME"};
  EXPECT_NO_THROW(compile(source, options));
  // The confinement ends with the compile: the next one on this thread reads.
  EXPECT_NO_THROW(compile(source));
}

}  // namespace
}  // namespace polyrt::test

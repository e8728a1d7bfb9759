#include "tests/test_support.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace polyrt::test {

std::string compile_error(const std::string& source) {
  try {
    compile(source, CompileOptions{.file_name = "t.polydat"});
  } catch (const CompileError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a CompileError for:\n" << source;
  return "";
}

Value eval_expr(const std::string& expr, uint64_t x) {
  auto program = compile("input x\nv := " + expr + "\n");
  State s = program->new_state();
  s.set_inputs({x});
  return s.pull("v");
}

std::string temp_dir() {
  char tmpl[] = "/tmp/polyrt-test-XXXXXX";
  const char* dir = mkdtemp(tmpl);
  return dir ? dir : "/tmp";
}

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

CommandResult run_polyrt(const std::string& args) {
  static const std::string dir = temp_dir();
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const std::string cmd = std::string(POLYRT_BINARY) + " " + args + " >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  return CommandResult{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

}  // namespace polyrt::test

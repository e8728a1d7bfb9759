#include "tests/test_support.hpp"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace polyrt::test {

std::vector<std::string> pulled_rows(const Program& p, uint64_t first, uint64_t count) {
  std::vector<std::string> out;
  State s = p.new_state();
  for (uint64_t c = first; c < first + count; ++c) {
    s.set_inputs({c});
    std::string row;
    for (const std::string& name : p.output_names()) row += s.pull(name).to_string() + ",";
    out.push_back(row);
  }
  return out;
}

std::vector<std::string> values_everywhere(const std::string& source, uint64_t x,
                                           const std::vector<std::string>& names) {
  std::vector<std::string> first;
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    State state = compile(source, CompileOptions{.engine = engine})->new_state();
    state.set_inputs({x});
    std::vector<std::string> got;
    for (const std::string& n : names) {
      const Value v = state.pull(n);
      got.push_back(std::string(type_name(v.type())) + " " + v.to_string());
    }
    if (first.empty()) first = got;
    EXPECT_EQ(got, first) << "engine " << (int)engine;
  }
  return first;
}

namespace {
// Every test process, and the polyrt commands it runs, loads the CUDA
// driver's test double unless POLYRT_LIBCUDA already names a driver (on a
// machine with a GPU: POLYRT_LIBCUDA=libcuda.so.1 runs the tests on it).
[[maybe_unused]] const bool kDriverChosen = ::setenv("POLYRT_LIBCUDA", POLYRT_TEST_LIBCUDA, 0) == 0;
}  // namespace

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

namespace {

// The directories temp_dir made, removed with everything in them when the
// test process ends: tests write files of hundreds of megabytes, and a test
// machine's disk must not fill up run after run.
class TempDirs {
 public:
  std::string make() {
    char tmpl[] = "/tmp/polyrt-test-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed: cannot make a test directory");
    std::lock_guard<std::mutex> lock(mutex_);
    dirs_.emplace_back(tmpl);
    return dirs_.back();
  }
  ~TempDirs() {
    for (const std::string& dir : dirs_) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> dirs_;
};

TempDirs& temp_dirs() {
  static TempDirs dirs;
  return dirs;
}

}  // namespace

std::string temp_dir() {
  return temp_dirs().make();
}

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

CommandResult run_polyrt(const std::string& args, const std::string& stdout_to) {
  return run_polyrt_with("", args, stdout_to);
}

CommandResult run_polyrt_with(const std::string& environment, const std::string& args,
                              const std::string& stdout_to) {
  static const std::string dir = temp_dir();
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const std::string cmd = environment + " " + std::string(POLYRT_BINARY) + " " + args + " >" +
                          (stdout_to.empty() ? out : stdout_to) + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  return CommandResult{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

std::string write_program(const std::string& dir, const std::string& name,
                          const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

size_t entries(const std::string& dir) {
  size_t n = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      n += name != "." && name != "..";
    }
    closedir(d);
  }
  return n;
}

void expect_contains(const std::string& text, std::initializer_list<const char*> parts) {
  for (const char* part : parts) {
    EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' is not in:\n" << text;
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> read_npy(const std::string& path, std::string& dict) {
  const std::string bytes = read_file(path);
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return {};
  const size_t header = 10 + (uint8_t)bytes[8] + 256 * (uint8_t)bytes[9];
  dict = bytes.substr(10, header - 10);
  EXPECT_EQ(header % 64, 0u);
  return std::vector<uint8_t>(bytes.begin() + (ptrdiff_t)header, bytes.end());
}

}  // namespace polyrt::test

// The polydat programs of nmbrs's workloads (tests/data/nmbrs, extracted
// from github.com/nosqlbench/nmbrs at 83a814f by
// tools/extract_nmbrs_programs.py, Apache-2.0): each compiles with its
// workload's params, as nmbrs hands them to its bindings, and runs 100 rows,
// except the programs tests/data/nmbrs/expected.tsv lists with the reason.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const std::string kCorpus = std::string(POLYRT_SOURCE_DIR) + "/tests/data/nmbrs";

struct Expected {
  std::string stage, category, says;
};

// expected.tsv: FILE, stage, category and a part of the error, tab-separated.
std::map<std::string, Expected> expected_refusals() {
  std::map<std::string, Expected> out;
  std::ifstream in(kCorpus + "/expected.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream parts(line);
    for (std::string f; std::getline(parts, f, '\t');) fields.push_back(f);
    if (fields.size() != 4) {
      ADD_FAILURE() << "expected.tsv: not four fields: " << line;
      continue;
    }
    out[fields[0]] = {fields[1], fields[2], fields[3]};
  }
  return out;
}

std::vector<std::string> programs() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kCorpus)) {
    if (e.path().extension() == ".polydat") {
      out.push_back(std::filesystem::relative(e.path(), kCorpus).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The `# param NAME=VALUE` lines the extraction heads each program with.
std::vector<std::pair<std::string, std::string>> params_of(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> params;
  std::ifstream in(path);
  std::string line;
  const std::string marker = "# param ";
  while (std::getline(in, line)) {
    if (line.rfind(marker, 0) != 0) continue;
    const size_t eq = line.find('=');
    params.emplace_back(line.substr(marker.size(), eq - marker.size()), line.substr(eq + 1));
  }
  return params;
}

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TEST(NmbrsWorkloads, CompileWithTheirParamsAndRunAHundredRows) {
  const std::map<std::string, Expected> refusals = expected_refusals();
  const std::vector<std::string> files = programs();
  ASSERT_GE(files.size(), 200u);
  size_t in_scope = 0, compiled = 0, ran = 0;
  for (const std::string& file : files) {
    const std::string path = kCorpus + "/" + file;
    const auto params = params_of(path);
    const auto listed = refusals.find(file);
    const bool out_of_scope = listed != refusals.end() && listed->second.category != "gap";
    in_scope += !out_of_scope;
    CompileOptions options;
    options.engine = Engine::Interpreter;
    for (const auto& [name, value] : params) options.params[name] = value;
    std::string error;
    try {
      compile_file(path, options);
    } catch (const Error& e) {
      error = e.what();
    }
    if (listed != refusals.end() && listed->second.stage == "compile") {
      EXPECT_NE(error.find(listed->second.says), std::string::npos)
          << file << ": expected a refusal saying '" << listed->second.says << "', got: " << error;
      continue;
    }
    EXPECT_EQ(error, "") << file;
    if (!error.empty()) continue;
    compiled += !out_of_scope;
    std::string args = "run " + shell_quoted(path) + " --rows 100 --engine interpreter -q";
    for (const auto& [name, value] : params) args += " --param " + shell_quoted(name + "=" + value);
    const CommandResult run = run_polyrt(args, "/dev/null");
    if (listed != refusals.end()) {
      EXPECT_NE(run.status, 0) << file << " runs now: drop it from expected.tsv";
      EXPECT_NE(run.err.find(listed->second.says), std::string::npos) << file << ": " << run.err;
      continue;
    }
    EXPECT_EQ(run.status, 0) << file << ": " << run.err;
    ran += run.status == 0;
  }
  // Issue 52's measure: of the programs that need neither runner-only nor
  // dataset nodes nor scenario values, >= 95 % compile and >= 90 % of those
  // run 100 rows.
  std::printf("nmbrs workloads: %zu programs; of the %zu in scope %zu compile, %zu run 100 rows\n",
              files.size(), in_scope, compiled, ran);
  EXPECT_GE(compiled * 100, in_scope * 95) << compiled << " of " << in_scope << " compile";
  EXPECT_GE(ran * 100, compiled * 90) << ran << " of " << compiled << " run";
  for (const auto& [file, why] : refusals) {
    EXPECT_TRUE(std::filesystem::exists(kCorpus + "/" + file)) << "expected.tsv lists " << file;
  }
}

}  // namespace
}  // namespace polyrt::test

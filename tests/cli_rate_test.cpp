// `polyrt run --rate R`: rows arrive row by row on schedule (a reader of the
// pipe sees a steady stream), the whole run takes rows / R seconds, and an
// output that cannot keep up is reported and never caught up by more than a
// second's rows.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Starts `polyrt run` on the users example with `options`, stderr to
// `errors`, waits `pause_s` before reading, and returns when each line
// arrived (seconds after the start).
std::vector<double> line_times(const std::string& options, const std::string& errors,
                               double pause_s = 0) {
  const std::string command = std::string(POLYRT_BINARY) + " run " + POLYRT_SOURCE_DIR +
                              "/examples/users.polydat --device cpu " + options + " 2>" + errors;
  const Clock::time_point start = Clock::now();
  FILE* pipe = ::popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::this_thread::sleep_for(std::chrono::duration<double>(pause_s));
  std::vector<double> times;
  char line[4096];
  while (pipe && std::fgets(line, sizeof line, pipe)) times.push_back(seconds_since(start));
  EXPECT_EQ(pipe ? ::pclose(pipe) : -1, 0);
  return times;
}

TEST(CliRate, RowsArriveSteadilyAtTheRate) {
  const std::string dir = temp_dir();
  // 3000 rows at 2000 per second: row i is due i / 2000 s after the first.
  const std::vector<double> t = line_times("--cycles 0..3000 --rate 2000", dir + "/err.txt");
  ASSERT_EQ(t.size(), 3001u);  // and the header
  const double first = t[1];
  const double at_1000 = t[1001] - first, last = t[3000] - first;
  EXPECT_NEAR(at_1000, 0.5, 0.1) << "row 1000 is due at 0.5 s";
  EXPECT_GE(last, 1.49) << "never faster than the rate";
  EXPECT_LT(last, 1.8);
  EXPECT_EQ(read_file(dir + "/err.txt"), "");
}

TEST(CliRate, ASlowOutputIsReportedAndNotCaughtUpInABurst) {
  const std::string dir = temp_dir();
  // 20000 rows at 10000 per second, read only after 2.5 s: the schedule keeps
  // at most 1 s of backlog, so the run ends about 1.5 s later than 2 s.
  const std::vector<double> t =
      line_times("--cycles 0..20000 --rate 10000 --format jsonl", dir + "/err.txt", 2.5);
  ASSERT_EQ(t.size(), 20000u);
  EXPECT_GE(t.back(), 3.3);
  const std::string errors = read_file(dir + "/err.txt");
  EXPECT_NE(errors.find("the output cannot keep up"), std::string::npos) << errors;
}

TEST(CliRate, RefusesWhatCannotBePaced) {
  const std::string run =
      "run " + std::string(POLYRT_SOURCE_DIR) + "/examples/users.polydat " + "--cycles 0..10 ";
  for (const char* bad : {"0", "-5", "abc", "nan", "1e13"}) {
    const CommandResult r = run_polyrt(run + "--rate " + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--rate must be a number of rows per second"), std::string::npos) << r.err;
  }
  const CommandResult npy =
      run_polyrt(run + "--rate 10 --format npy --outputs user_id --out " + temp_dir() + "/n");
  EXPECT_EQ(npy.status, 2);
  EXPECT_NE(npy.err.find("--rate paces text rows"), std::string::npos) << npy.err;
}

}  // namespace
}  // namespace polyrt::test

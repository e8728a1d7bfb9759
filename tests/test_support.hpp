// Helpers shared by the test files.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "polyrt/polyrt.hpp"

namespace polyrt::test {

// Compiles `source` and returns the message of the CompileError it must raise
// (fails the test when it compiles).
std::string compile_error(const std::string& source);

// Evaluates `expr` (an expression over `input x`) at x and returns the value.
Value eval_expr(const std::string& expr, uint64_t x = 0);

struct CommandResult {
  int status;
  std::string out;
  std::string err;
};
// Runs the polyrt binary with `args` (a shell-quoted string); its standard
// output goes to `stdout_to` when given (then `out` is empty).
CommandResult run_polyrt(const std::string& args, const std::string& stdout_to = "");
// The same with environment assignments ("A=1 B=2") for the command.
CommandResult run_polyrt_with(const std::string& environment, const std::string& args,
                              const std::string& stdout_to = "");

std::string temp_dir();

// The message of the E that `f` throws; "(nothing thrown)" when it returns.
template <typename E, typename F>
std::string thrown_message(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

// "<type> <text>" of each named output at input x, which must be the same on
// every engine (a test failure names the engine that differs).
std::vector<std::string> values_everywhere(const std::string& source, uint64_t x,
                                           const std::vector<std::string>& names);

// Rows [first, first + count) of a one-input program as one state pulls
// them: each output's Value::to_string and a comma, per row.
std::vector<std::string> pulled_rows(const Program& p, uint64_t first, uint64_t count);

// Fails the test unless `text` contains every one of `parts`.
void expect_contains(const std::string& text, std::initializer_list<const char*> parts);

// Writes `text` to dir/name and returns the path.
std::string write_program(const std::string& dir, const std::string& name, const std::string& text);
bool exists(const std::string& path);
// Entries of a directory other than . and .. (temporary files included).
size_t entries(const std::string& dir);
// A whole file's bytes ("" when it cannot be read).
std::string read_file(const std::string& path);
// The data bytes after an .npy header, and the header's dict (empty when the
// file is not an .npy file; the header must be 64-byte aligned).
std::vector<uint8_t> read_npy(const std::string& path, std::string& dict);

}  // namespace polyrt::test

// Every failure polyrt reports is one of these exception types.
#pragma once

#include <cstdint>
#include <source_location>
#include <stdexcept>
#include <string>
#include <vector>

namespace polyrt {

// Base of every polyrt exception: catch this to handle any polyrt failure.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A parse, type, wiring or constant-argument error in a program. The message
// names file:line:col, quotes the line with a caret and says what was expected.
class CompileError : public Error {
 public:
  CompileError(const std::string& message, std::string file, int line, int column)
      : Error(message), file_(std::move(file)), line_(line), column_(column) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  std::string file_;
  int line_;
  int column_;
};

// A compile-constant node failed while being folded at build.
class ConstantFoldError : public Error {
 public:
  using Error::Error;
};

// An engine cannot run a construct; the message names it.
class RefusedError : public Error {
 public:
  using Error::Error;
};

// API misuse when writing or reading a state: unknown name, wrong value type,
// writing a coordinate through set_input, ...
class WriteError : public Error {
 public:
  using Error::Error;
};

// A node failed while a pull or eval ran it. The message names the node, its
// source position, the outputs it feeds, its decoded inputs and the coordinates.
class EvalError : public Error {
 public:
  EvalError(const std::string& message, std::string node, std::vector<uint64_t> coordinates = {})
      : Error(message), node_(std::move(node)), coordinates_(std::move(coordinates)) {}
  const std::string& node() const { return node_; }
  // When a row of a batch failed: its coordinates (the program's inputs, in
  // declaration order), as the message names them; empty otherwise.
  const std::vector<uint64_t>& coordinates() const { return coordinates_; }

 private:
  std::string node_;
  std::vector<uint64_t> coordinates_;
};

// A CUDA driver call failed (names the call and the CUDA error).
class DeviceError : public Error {
 public:
  using Error::Error;
};

// A broken invariant of polyrt itself, never caused by the user's input: a
// bug to report, carrying where it was detected. Callers catching
// polyrt::Error see it too (it never crosses JIT code); the command exits 3
// for it, and the fuzzers and the differential test fail on it where they
// accept every other Error.
class InternalError : public Error {
 public:
  InternalError(const std::string& what, const char* file, unsigned line)
      : Error("internal error: " + what + " (" + file_name(file) + ":" + std::to_string(line) +
              "; a polyrt bug, please report it)"),
        file_(file_name(file)),
        line_(line) {}
  const std::string& file() const { return file_; }
  unsigned line() const { return line_; }

 private:
  // The path from the source tree's top folder (core/..., scheduler/...).
  static std::string file_name(const char* path) {
    const std::string p = path;
    for (const char* top : {"/core/", "/codegen/", "/cpu_backend/", "/gpu_backend/", "/scheduler/",
                            "/cli/", "/python/", "/tests/"}) {
      if (const size_t at = p.rfind(top); at != std::string::npos) return p.substr(at + 1);
    }
    return p;
  }
  std::string file_;
  unsigned line_;
};

// Every internal check throws through this one helper, or POLYRT_CHECK.
[[noreturn]] inline void internal_error(
    const std::string& what, const std::source_location where = std::source_location::current()) {
  throw InternalError(what, where.file_name(), where.line());
}

// Throws InternalError(message) unless `condition` holds; the message ends
// with the condition as written, what a report of the bug needs first.
#define POLYRT_CHECK(condition, message)                                                  \
  do {                                                                                    \
    if (!(condition))                                                                     \
      ::polyrt::internal_error(std::string(message) + " (check failed: " #condition ")"); \
  } while (false)

// A batch call gave up because its BatchOptions::stop flag was raised (by
// another thread: a Ctrl-C handler, a timeout).
class StoppedError : public Error {
 public:
  using Error::Error;
};

// Output that cannot be written or put in place: a path that must not be
// replaced (a symbolic link, a read-only file, the program's own source), an
// I/O failure, a column its format cannot hold. The message names the path
// or column and the reason.
class OutputError : public Error {
 public:
  using Error::Error;
};

}  // namespace polyrt

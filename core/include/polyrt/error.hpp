// Every failure polyrt reports is one of these exception types.
#pragma once

#include <stdexcept>
#include <string>

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
  EvalError(const std::string& message, std::string node)
      : Error(message), node_(std::move(node)) {}
  const std::string& node() const { return node_; }

 private:
  std::string node_;
};

// A CUDA driver call failed (names the call and the CUDA error).
class DeviceError : public Error {
 public:
  using Error::Error;
};

// A broken invariant of polyrt itself, never caused by the user's input: a
// bug to report. Every internal check throws through this one helper, as a
// plain Error (callers catching polyrt::Error see it; it never crosses JIT
// code).
[[noreturn]] inline void internal_error(const std::string& what) {
  throw Error("internal error: " + what + " (a polyrt bug; please report it)");
}

// A batch call gave up because its BatchOptions::stop flag was raised (by
// another thread: a Ctrl-C handler, a timeout).
class StoppedError : public Error {
 public:
  using Error::Error;
};

// Bad command-line usage or an I/O failure of the polyrt tools.
class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace polyrt

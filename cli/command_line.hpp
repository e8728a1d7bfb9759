// A small argument reader shared by the polyrt subcommands.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "polyrt/polyrt.hpp"

namespace polyrt::cli {

class CommandLine {
 public:
  CommandLine(std::string command, std::vector<std::string> args)
      : command_(std::move(command)), args_(std::move(args)) {}

  bool done() const { return pos_ >= args_.size(); }
  const std::string& peek() const { return args_[pos_]; }
  std::string next() { return args_[pos_++]; }
  // The value after a flag ("--out PATH" or "--out=PATH"); UsageError when missing.
  std::string value_of(const std::string& flag);
  // Splits "--flag=value" into flag and pending value.
  bool is_flag() const { return !done() && args_[pos_].size() > 1 && args_[pos_][0] == '-'; }
  std::string flag();
  [[noreturn]] void unknown_flag(const std::string& flag) const;
  const std::string& command() const { return command_; }

 private:
  std::string command_;
  std::vector<std::string> args_;
  size_t pos_ = 0;
  std::optional<std::string> inline_value_;
};

// The subcommands; each returns the process exit status.
int check_command(CommandLine& args);
int eval_command(CommandLine& args);
int run_command(CommandLine& args);
int nodes_command(CommandLine& args);

int plan_command(CommandLine& args);

// Handles --engine and --provenance (UsageError for a bad value); false when
// `flag` is neither. With `batch`, --engine also accepts "batch" (polyrt run).
bool engine_flag(CommandLine& args, const std::string& flag, CompileOptions& options,
                 bool* batch = nullptr);

// Parses "NAME=VALUE" of --set.
std::pair<std::string, std::string> split_assignment(const std::string& text);

}  // namespace polyrt::cli

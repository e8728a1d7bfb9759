// Every command of `polyrt`, once: its name, its synopsis for the usage, and
// what runs it. Dispatch, the usage text and the bash completion's command
// list (`polyrt help --commands`) all come from this table.
#pragma once

#include <span>
#include <string>

#include "cli/command_line.hpp"

namespace polyrt::cli {

struct Command {
  const char* name;
  const char* synopsis;  // the arguments after the name
  const char* summary;
  int (*run)(CommandLine& args);
};

std::span<const Command> commands();

// The usage of `polyrt` with no command: every command and its summary.
std::string usage_text();

}  // namespace polyrt::cli

// A small argument reader shared by the polyrt subcommands. Options may come
// before or after the positional arguments ("polyrt run --out x.csv P
// --cycles 0..9" works); "--" ends the options. An option given twice is an
// error, except --set, --lib and --partition, which are repeatable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/usage_error.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt::cli {

class CommandLine {
 public:
  CommandLine(std::string command, std::vector<std::string> args);

  // Options, in order.
  bool done() const { return pos_ >= options_.size(); }
  // The next option's name ("--out" of "--out PATH" or "--out=PATH").
  std::string flag();
  // The option's value; UsageError when missing or empty.
  std::string value_of(const std::string& flag);
  [[noreturn]] void unknown_flag(const std::string& flag) const;
  // True when --help or -h was given (anywhere).
  bool wants_help() const { return help_; }

  // Positional arguments, in order.
  const std::vector<std::string>& positionals() const { return positionals_; }
  // The first positional argument, the program file; UsageError when absent.
  const std::string& file() const;
  // Refuses positional arguments past the first `count`.
  void allow_positionals(size_t count, const char* what) const;

  const std::string& command() const { return command_; }

 private:
  struct Option {
    std::string name;
    std::optional<std::string> value;  // given inline or as the next argument
  };
  std::string command_;
  std::vector<Option> options_;
  std::vector<std::string> positionals_;
  size_t pos_ = 0;
  bool help_ = false;
};

// The subcommands; each returns the process exit status.
int check_command(CommandLine& args);
int eval_command(CommandLine& args);
int preview_command(CommandLine& args);
int stats_command(CommandLine& args);
int run_command(CommandLine& args);
int nodes_command(CommandLine& args);
int plan_command(CommandLine& args);
int devices_command(CommandLine& args);
int bench_command(CommandLine& args);
int version_command();

// Handles the options that shape the compiled program, each repeatable:
// --lib DIR (a module directory), --partition I or CURSOR=I (the
// partition a top-level cursor takes), --param NAME=VALUE (a workload's
// param: CompileOptions::params, ignored when the program does not read
// it, as nmbrs hands every param to every block), --plugin LIB, --seed S
// (re-keys the program's hashed values: CompileOptions::seed), and the
// confinement of an untrusted program (--untrusted, --data-root DIR,
// --allow-env NAME); false for any other flag.
bool program_flag(CommandLine& args, const std::string& flag, CompileOptions& options);

// -q or --quiet: no progress line on stderr (ProgressBar::set_quiet);
// false for any other flag.
bool quiet_flag(const std::string& flag);

// Prints the help of a command that compiles a program: `usage`, then what
// every such command takes to confine an untrusted program. Returns 0.
int print_compiling_help(const char* usage);

// Handles --engine, --provenance (UsageError for a bad value), --lib and
// --partition; false for any other flag. With `batch`, --engine also accepts "batch" (polyrt run).
bool engine_flag(CommandLine& args, const std::string& flag, CompileOptions& options,
                 bool* batch = nullptr);

// An unsigned integer option value; UsageError ("polyrt COMMAND: WHAT must
// be ...") otherwise.
uint64_t parse_u64_arg(const std::string& command, const std::string& text,
                       const std::string& what);

// --cycles A..B (half-open), A..=B (inclusive, so 2^64 - 1 is reachable) or
// A.. (to the end of the u64 range): the first coordinate and the row
// count. UsageError naming the valid forms.
std::pair<uint64_t, uint64_t> parse_cycles(const std::string& command, const std::string& v);

// --device cpu|gpu|auto|all|N (a GPU's index); UsageError ("polyrt
// COMMAND: ...") naming the valid values.
DeviceChoice parse_device(const std::string& command, const std::string& text);

// " (did you mean 'X'?)" for the name in `valid` (a list, or the text of
// one: "csv, tsv, jsonl") that `value` most likely misspells; "" when none.
std::string did_you_mean(std::string_view value, const std::vector<std::string>& valid);
std::string did_you_mean(std::string_view value, std::string_view valid_list);

// Refuses (UsageError, "polyrt COMMAND: --outputs names ...", with a "did
// you mean") a name of `outputs` that `columns_of` has no binding of;
// `where` says what it is ("examples/users.polydat").
void check_outputs(const std::string& command, const std::vector<std::string>& outputs,
                   const Program& columns_of, const std::string& where);

// Parses "NAME=VALUE" of --set into `sets`, applied once the program is
// compiled, and into `options.params`: the compiler gives the value to the
// extern of that name, or makes a name the program reads but does not
// declare an extern of that value (CompileOptions::params).
void take_setting(const std::string& text, std::vector<std::pair<std::string, std::string>>& sets,
                  CompileOptions& options);

// Parses a command-line value for `what` ("extern rate", "input seed"); the
// UsageError names it, the text and the valid form.
Value parse_setting(const std::string& what, const std::string& text, Type type);

// The names of --outputs a,b,...: UsageError ("polyrt COMMAND: ...") for an
// empty name or a name given twice.
std::vector<std::string> split_list(const std::string& text, const std::string& command);

// A top-level traversal's rows are numbered by the program's first input:
// one with no input is refused, saying what to add.
[[noreturn]] void refuse_inputless_traversal(const std::string& command, const std::string& file);

// --outputs names the outputs of one traversal's body: with several
// traversals (each writes every output of its body) it is refused.
void refuse_outputs_of_several_traversals(const std::string& command, const Program& p,
                                          const std::vector<std::string>& outputs);

// The --set values of a bulk command (`run`, `bench`) for program `p`:
// every input but the first (which the command iterates) into `coordinates`
// (one value per input); an extern's value the compiler already made its
// default (take_setting), so it is only checked here. UsageError, prefixed
// "polyrt COMMAND:", for an unknown name, the iterated input, an input
// without a value or an extern without a default left unset (unless
// `unset_externs_read_none`: it then reads None, as preview shows it).
void apply_settings(const Program& p, const std::vector<std::pair<std::string, std::string>>& sets,
                    const std::string& command, std::vector<uint64_t>& coordinates,
                    bool unset_externs_read_none = false);

}  // namespace polyrt::cli

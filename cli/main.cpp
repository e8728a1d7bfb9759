// polyrt: compile and run procedural-data programs from the command line.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/command_table.hpp"
#include "cli/process_memory.hpp"
#include "polyrt/error.hpp"
#include "scheduler/jobs/interruption.hpp"

namespace {

// Every error line names its command ("polyrt run: ..."), unless it already
// does or is a diagnostic that names its file and line.
void say(const std::string& command, const std::string& message) {
  const bool named = message.rfind("polyrt", 0) == 0;
  std::fprintf(stderr, "%s%s\n", named ? "" : ("polyrt " + command + ": ").c_str(),
               message.c_str());
}

int dispatch(const std::vector<std::string>& args) {
  const std::string usage = polyrt::cli::usage_text();
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    // `polyrt help --commands`: the command names, for the bash completion.
    if (args.size() == 2 && args[0] == "help" && args[1] == "--commands") {
      for (const polyrt::cli::Command& c : polyrt::cli::commands()) std::printf("%s\n", c.name);
      return 0;
    }
    std::fputs(usage.c_str(), args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  // --version is the version command under its flag's name.
  const std::string command = args[0];
  try {
    polyrt::cli::CommandLine line(command, std::vector<std::string>(args.begin() + 1, args.end()));
    const std::string name = command == "--version" ? "version" : command;
    for (const polyrt::cli::Command& c : polyrt::cli::commands()) {
      if (name == c.name) return c.run(line);
    }
    std::fprintf(stderr, "polyrt: unknown command '%s'\n\n%s", command.c_str(), usage.c_str());
    return 2;
  } catch (const polyrt::scheduler::InterruptedError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return e.exit_status();
  } catch (const polyrt::cli::UsageError& e) {
    say(command, e.what());
    return 2;
  } catch (const polyrt::OutputError& e) {
    say(command, e.what());
    return 2;
  } catch (const polyrt::CompileError& e) {
    // No line: the program file itself could not be read (missing, a
    // directory, too big) or a caller's option names what is not there: an
    // I/O or usage error. With one: the program's own error, a diagnostic.
    if (e.line() == 0) {
      say(command, e.what());
      return 2;
    }
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const polyrt::InternalError& e) {
    std::fprintf(stderr, "polyrt: %s\n", e.what());
    return 3;
  } catch (const polyrt::Error& e) {
    say(command, e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    // What a program asks for (a data file read into memory, a table, the
    // rows of a chunk) can exceed the machine: the user's input, not a bug.
    say(command,
        "out of memory: the program's data files, tables or rows need more memory than this "
        "machine gives (a data file takes about its size once read, twice while it is read; "
        "fewer --threads or a smaller chunk of rows need less)");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "polyrt: internal error: %s\n", e.what());
    return 3;
  }
}

}  // namespace

int main(int argc, char** argv) {
  polyrt::cli::tune_process_allocator();
  const int status = dispatch(std::vector<std::string>(argv + 1, argv + argc));
  // Output that could not be written (a full disk, a closed pipe, /dev/full)
  // is a failure of every command, never a silent exit 0.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "polyrt: cannot write the output to standard output: %s\n",
                 std::strerror(errno));
    return status == 0 ? 2 : status;
  }
  return status;
}

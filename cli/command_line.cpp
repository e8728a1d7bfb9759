#include "cli/command_line.hpp"

#include "polyrt/error.hpp"

namespace polyrt::cli {

std::string CommandLine::flag() {
  std::string f = next();
  inline_value_.reset();
  const size_t eq = f.find('=');
  if (f.rfind("--", 0) == 0 && eq != std::string::npos) {
    inline_value_ = f.substr(eq + 1);
    f = f.substr(0, eq);
  }
  return f;
}

std::string CommandLine::value_of(const std::string& flag) {
  if (inline_value_) {
    std::string v = *inline_value_;
    inline_value_.reset();
    return v;
  }
  if (done()) throw UsageError("polyrt " + command_ + ": " + flag + " needs a value");
  return next();
}

void CommandLine::unknown_flag(const std::string& flag) const {
  throw UsageError("polyrt " + command_ + ": unknown option '" + flag + "' (see polyrt " +
                   command_ + " --help)");
}

namespace {

Engine parse_engine(const std::string& text, bool batch_allowed) {
  if (text == "interpreter") return Engine::Interpreter;
  if (text == "closures") return Engine::Closures;
  if (text == "native") return Engine::Native;
  throw UsageError("unknown engine '" + text + "' (valid: " + (batch_allowed ? "batch, " : "") +
                   "interpreter, closures, native)");
}

Provenance parse_provenance(const std::string& text) {
  if (text == "auto") return Provenance::Auto;
  if (text == "raw") return Provenance::Raw;
  if (text == "pull") return Provenance::Pull;
  if (text == "pushpull") return Provenance::PushPull;
  throw UsageError("unknown provenance mode '" + text + "' (valid: auto, raw, pull, pushpull)");
}

}  // namespace

bool engine_flag(CommandLine& args, const std::string& flag, CompileOptions& options, bool* batch) {
  if (flag == "--engine") {
    const std::string value = args.value_of(flag);
    if (batch) *batch = value == "batch";
    if (!batch || !*batch) options.engine = parse_engine(value, batch != nullptr);
  } else if (flag == "--provenance") {
    options.provenance = parse_provenance(args.value_of(flag));
  } else {
    return false;
  }
  return true;
}

std::pair<std::string, std::string> split_assignment(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError("--set expects NAME=VALUE, got '" + text + "'");
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace polyrt::cli

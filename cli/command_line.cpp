#include "cli/command_line.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "polyrt/error.hpp"
#include "polyrt/host_nodes.hpp"
#include "scheduler/jobs/progress_bar.hpp"

namespace polyrt::cli {

namespace {

// Options that take a value (as the next argument or after '=').
bool takes_value(const std::string& name) {
  static const char* const kValued[] = {
      "--out",       "--cycles",     "--outputs", "--format",    "--set",         "--threads",
      "--engine",    "--provenance", "--target",  "--sm",        "--cuda-driver", "--device",
      "--parts",     "--part",       "--rate",    "--seconds",   "--lib",         "--partition",
      "--rows",      "--compress",   "--width",   "--html",      "--plugin",      "--data-root",
      "--allow-env", "--seed",       "--param",   "--dump-after"};
  for (const char* v : kValued) {
    if (name == v) return true;
  }
  return false;
}

}  // namespace

CommandLine::CommandLine(std::string command, std::vector<std::string> args)
    : command_(std::move(command)) {
  std::vector<std::string> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      positionals_.insert(positionals_.end(), args.begin() + (ptrdiff_t)i + 1, args.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      positionals_.push_back(a);
      continue;
    }
    if (a == "--help" || a == "-h") {
      help_ = true;
      continue;
    }
    Option o;
    const size_t eq = a.find('=');
    o.name = a.rfind("--", 0) == 0 && eq != std::string::npos ? a.substr(0, eq) : a;
    if (o.name.size() < a.size()) {
      o.value = a.substr(eq + 1);
    } else if (takes_value(o.name) && i + 1 < args.size()) {
      o.value = args[++i];
    }
    if (o.name != "--set" && o.name != "--param" && o.name != "--lib" && o.name != "--partition" &&
        o.name != "--plugin" && o.name != "--data-root" && o.name != "--allow-env") {
      for (const std::string& s : seen) {
        if (s == o.name) {
          throw UsageError("polyrt " + command_ + ": option " + o.name +
                           " is given twice; give it once");
        }
      }
      seen.push_back(o.name);
    }
    options_.push_back(std::move(o));
  }
}

std::string CommandLine::flag() {
  return options_[pos_++].name;
}

std::string CommandLine::value_of(const std::string& flag) {
  const std::optional<std::string>& v = options_[pos_ - 1].value;
  if (!v) throw UsageError("polyrt " + command_ + ": " + flag + " needs a value");
  if (v->empty()) throw UsageError("polyrt " + command_ + ": " + flag + " needs a non-empty value");
  return *v;
}

void CommandLine::unknown_flag(const std::string& flag) const {
  throw UsageError("polyrt " + command_ + ": unknown option '" + flag + "' (see polyrt " +
                   command_ + " --help)");
}

const std::string& CommandLine::file() const {
  if (positionals_.empty()) throw UsageError("polyrt " + command_ + ": missing FILE");
  return positionals_[0];
}

void CommandLine::allow_positionals(size_t count, const char* what) const {
  if (positionals_.size() > count) {
    throw UsageError("polyrt " + command_ + ": unexpected argument '" + positionals_[count] +
                     "' (" + what + ")");
  }
}

namespace {

Engine parse_engine(const std::string& text, bool batch_allowed) {
  if (const std::optional<Engine> engine = engine_named(text)) return *engine;
  const std::string valid = std::string(batch_allowed ? "batch, " : "") + kEngineNames;
  throw UsageError("unknown engine '" + text + "' (valid: " + valid + ")" +
                   did_you_mean(text, valid));
}

Provenance parse_provenance(const std::string& text) {
  if (const std::optional<Provenance> provenance = provenance_named(text)) return *provenance;
  throw UsageError("unknown provenance mode '" + text + "' (valid: " + kProvenanceNames + ")");
}

}  // namespace

// --partition I or NAME=I: the partition a top-level cursor takes.
void parse_partition(const std::string& command, const std::string& text, CompileOptions& options) {
  const size_t eq = text.find('=');
  const std::string name = eq == std::string::npos ? "" : text.substr(0, eq);
  const std::string index = eq == std::string::npos ? text : text.substr(eq + 1);
  uint64_t v = 0;
  const auto res = std::from_chars(index.data(), index.data() + index.size(), v);
  if (index.empty() || res.ec != std::errc() || res.ptr != index.data() + index.size() ||
      (eq != std::string::npos && name.empty())) {
    throw UsageError("polyrt " + command + ": --partition expects I or CURSOR=I (I a partition " +
                     "index from 0), got '" + text + "'");
  }
  if (!options.cursor_partitions.emplace(name, v).second) {
    throw UsageError("polyrt " + command + ": --partition " + (name.empty() ? "I" : name + "=I") +
                     " is given twice; give it once");
  }
}

uint64_t parse_u64_arg(const std::string& command, const std::string& text,
                       const std::string& what) {
  if (const std::optional<uint64_t> v = integer_literal(text)) return *v;
  throw UsageError("polyrt " + command + ": " + what +
                   " must be an unsigned integer below 2^64 (written as in a program: 1000000, 1M, "
                   "1Mi or 0x10), got '" +
                   text + "'");
}

std::pair<uint64_t, uint64_t> parse_cycles(const std::string& command, const std::string& v) {
  const std::string prefix = "polyrt " + command + ": ";
  const char* valid =
      "valid: A..B (B excluded), A..=B (B included) or A.. (to the end of the u64 range); "
      "bounds as in a program: 10M, 1Gi, 0x10";
  const size_t dots = v.find("..");
  if (dots == std::string::npos)
    throw UsageError(prefix + "--cycles expects a range, got '" + v + "' (" + valid + ")");
  const uint64_t a = parse_u64_arg(command, v.substr(0, dots), "the start of --cycles");
  const bool inclusive = v.compare(dots + 2, 1, "=") == 0;
  const std::string end = v.substr(dots + (inclusive ? 3 : 2));
  const uint64_t max = ~uint64_t{0};
  if (end.empty() && inclusive)
    throw UsageError(prefix + "--cycles " + v + " has no end (" + valid + ")");
  if (end.empty()) {
    // To 2^64 - 1, except that a run counts at most 2^64 - 1 rows: 0.. ends
    // at 2^64 - 2 (a stream nobody reaches the end of: `| head` stops it).
    return {a, max - a + (a == 0 ? 0 : 1)};
  }
  const uint64_t b = parse_u64_arg(command, end, "the end of --cycles");
  if (b < a) throw UsageError(prefix + "--cycles " + v + " ends before it starts (" + valid + ")");
  if (a == 0 && b == max && inclusive) {
    throw UsageError(prefix + "--cycles " + v +
                     " holds 2^64 rows, one more than a run can count; start at 1 or end at "
                     "2^64 - 2");
  }
  return {a, b - a + (inclusive ? 1 : 0)};
}

DeviceChoice parse_device(const std::string& command, const std::string& text) {
  if (const std::optional<BatchDevice> device = batch_device_named(text)) return *device;
  uint64_t index = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), index);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size() || index > 1024) {
    throw UsageError("polyrt " + command + ": --device must be " + kBatchDeviceNames +
                     " or a GPU index (see polyrt devices), got '" + text + "'" +
                     did_you_mean(text, kBatchDeviceNames));
  }
  return DeviceChoice(BatchDevice::Gpu, (int)index);
}

std::string did_you_mean(std::string_view value, const std::vector<std::string>& valid) {
  const std::string near = closest_name(value, valid);
  return near.empty() ? "" : " (did you mean '" + near + "'?)";
}

std::string did_you_mean(std::string_view value, std::string_view valid_list) {
  std::vector<std::string> valid;
  for (size_t at = 0; at <= valid_list.size();) {
    const size_t comma = std::min(valid_list.find(',', at), valid_list.size());
    std::string_view name = valid_list.substr(at, comma - at);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    if (!name.empty()) valid.emplace_back(name);
    at = comma + 1;
  }
  return did_you_mean(value, valid);
}

void check_outputs(const std::string& command, const std::vector<std::string>& outputs,
                   const Program& columns_of, const std::string& where) {
  for (const std::string& name : outputs) {
    const std::vector<std::string>& helpers = columns_of.private_bindings();
    if (std::find(helpers.begin(), helpers.end(), name) != helpers.end()) {
      throw UsageError("polyrt " + command + ": --outputs names '" + name + "', which " + where +
                       " declares private (a helper, not an output); drop 'private' to write it");
    }
    if (!columns_of.output_index(name)) {
      throw UsageError("polyrt " + command + ": --outputs names '" + name +
                       "', which is not a binding of " + where +
                       did_you_mean(name, columns_of.output_names()));
    }
  }
}

bool quiet_flag(const std::string& flag) {
  if (flag != "-q" && flag != "--quiet") return false;
  scheduler::ProgressBar::set_quiet(true);
  return true;
}

int print_compiling_help(const char* usage) {
  std::fputs(usage, stdout);
  std::fputs(
      "\nA seed: --seed S (an unsigned integer) re-keys every hashed value of the\n"
      "program: another data set, as reproducible (the same S gives the same bytes on\n"
      "every engine, tier, device and part); without it, the program's own values.\n"
      "--strict refuses inferred inputs: a name the program reads but neither declares\n"
      "nor binds is an error, never a new coordinate.\n"
      "--param NAME=VALUE (repeatable) is a workload's param, as nmbrs hands its params\n"
      "to every bindings block: the value of extern NAME, or of a name the program reads\n"
      "without declaring it (u64, f64, bool or str as the text reads), and nothing when\n"
      "the program does not read NAME (--set refuses such a name, to catch typos).\n",
      stdout);
  std::fputs(
      "\nAn untrusted program (docs/security.md): --untrusted compiles it confined: data\n"
      "files are read only under a --data-root DIR (repeatable; symbolic links resolved,\n"
      "never /proc, /sys or /dev), env() and env_or() only for the names given with\n"
      "--allow-env NAME (repeatable), and no diagnostic quotes what a file or the\n"
      "environment holds. --data-root and --allow-env imply --untrusted.\n",
      stdout);
  return 0;
}

bool program_flag(CommandLine& args, const std::string& flag, CompileOptions& options) {
  if (flag == "--lib") {
    options.library_paths.push_back(args.value_of(flag));
  } else if (flag == "--plugin") {
    try {
      load_plugin(args.value_of(flag));
    } catch (const RegistrationError& e) {
      throw UsageError("polyrt " + args.command() + ": --plugin: " + e.what());
    }
  } else if (flag == "--partition") {
    parse_partition(args.command(), args.value_of(flag), options);
  } else if (flag == "--seed") {
    options.seed = parse_u64_arg(args.command(), args.value_of(flag), "--seed");
  } else if (flag == "--strict") {
    options.strict_inputs = true;
  } else if (flag == "--param") {
    // A workload's param: the program's if it reads it, else nothing.
    std::vector<std::pair<std::string, std::string>> unused;
    take_setting(args.value_of(flag), unused, options);
  } else if (flag == "--untrusted") {
    options.untrusted = true;
  } else if (flag == "--data-root") {  // both confine: they imply --untrusted
    options.untrusted = true;
    options.data_roots.push_back(args.value_of(flag));
  } else if (flag == "--allow-env") {
    options.untrusted = true;
    options.allowed_env.push_back(args.value_of(flag));
  } else {
    return false;
  }
  return true;
}

bool engine_flag(CommandLine& args, const std::string& flag, CompileOptions& options, bool* batch) {
  if (program_flag(args, flag, options)) return true;
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

Value parse_setting(const std::string& what, const std::string& text, Type type) {
  try {
    return parse_value(text, type, what);
  } catch (const WriteError& e) {
    throw UsageError(e.what());
  }
}

void take_setting(const std::string& text, std::vector<std::pair<std::string, std::string>>& sets,
                  CompileOptions& options) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError("--set expects NAME=VALUE, got '" + text + "'");
  }
  sets.emplace_back(text.substr(0, eq), text.substr(eq + 1));
  options.params[sets.back().first] = sets.back().second;
}

void refuse_inputless_traversal(const std::string& command, const std::string& file) {
  throw UsageError("polyrt " + command + ": " + file +
                   " has a traversal but no input to number its rows; declare one (input "
                   "cycle)");
}

void refuse_outputs_of_several_traversals(const std::string& command, const Program& p,
                                          const std::vector<std::string>& outputs) {
  const size_t traversals = p.traversal_count();
  if (traversals < 2 || outputs.empty()) return;
  throw UsageError("polyrt " + command +
                   ": --outputs names the outputs of one traversal's body, and the program has " +
                   std::to_string(traversals) +
                   " traversals (each writes every output of its body); drop --outputs");
}

void apply_settings(const Program& p, const std::vector<std::pair<std::string, std::string>>& sets,
                    const std::string& command, std::vector<uint64_t>& coordinates,
                    bool unset_externs_read_none) {
  const std::string prefix = "polyrt " + command + ": ";
  coordinates.assign(p.input_names().size(), 0);
  std::vector<bool> coordinate_set(p.input_names().size(), false);
  if (!coordinate_set.empty()) coordinate_set[0] = true;
  std::vector<bool> extern_set(p.externs().size(), false);
  for (const auto& [name, text] : sets) {
    bool found = false;
    for (size_t c = 0; c < p.input_names().size() && !found; ++c) {
      if (p.input_names()[c] != name) continue;
      if (c == 0)
        throw UsageError(prefix + "'" + name + "' is iterated by --cycles; do not --set it");
      coordinates[c] = parse_setting("input " + name, text, Type::U64).as_u64();
      coordinate_set[c] = found = true;
    }
    // An extern's value: the compiler made it its default (take_setting).
    for (size_t e = 0; e < p.externs().size() && !found; ++e) {
      if (p.externs()[e].name == name) extern_set[e] = found = true;
    }
    if (!found) {
      throw UsageError(prefix + "--set " + name + ": the program has no input or extern named '" +
                       name + "'");
    }
  }
  for (size_t c = 0; c < coordinate_set.size(); ++c) {
    if (!coordinate_set[c]) {
      throw UsageError(prefix + "input '" + p.input_names()[c] + "' has no value; pass --set " +
                       p.input_names()[c] + "=VALUE");
    }
  }
  for (size_t e = 0; e < extern_set.size(); ++e) {
    if (!extern_set[e] && p.externs()[e].default_value.is_none() && !unset_externs_read_none) {
      throw UsageError(prefix + "extern '" + p.externs()[e].name + "' has no default; pass --set " +
                       p.externs()[e].name + "=VALUE");
    }
  }
}

std::vector<std::string> split_list(const std::string& text, const std::string& command) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string name = text.substr(start, end - start);
    if (name.empty())
      throw UsageError("polyrt " + command + ": --outputs '" + text + "' has an empty name");
    for (const std::string& seen : out) {
      if (seen == name) {
        throw UsageError("polyrt " + command + ": --outputs names '" + name +
                         "' twice (each column once: duplicate JSON keys and npy files would "
                         "clash)");
      }
    }
    out.push_back(name);
    start = end + 1;
  }
  return out;
}

}  // namespace polyrt::cli

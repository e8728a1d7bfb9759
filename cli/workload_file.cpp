#include "cli/workload_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/usage_error.hpp"

namespace polyrt::cli {

namespace {

// path and BLOCK of "path#BLOCK" ("" when there is no #).
std::pair<std::string, std::string> split_block(const std::string& argument) {
  const size_t hash = argument.rfind('#');
  if (hash == std::string::npos) return {argument, ""};
  return {argument.substr(0, hash), argument.substr(hash + 1)};
}

// Every `bindings` block under `node`, depth first in the file's order.
void collect_blocks(const YAML::Node& node, const std::string& key,
                    std::vector<WorkloadBlock>& out) {
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const std::string name = entry.first.Scalar();
      const std::string here = key.empty() ? name : key + "." + name;
      if (name == "bindings" && entry.second.IsScalar()) {
        // Line numbers of the block's statements as in the file: the block
        // starts on the line after its key.
        const int line = entry.first.Mark().line + 1;
        out.push_back({here, std::string(line > 0 ? line : 0, '\n') + entry.second.Scalar()});
      } else {
        collect_blocks(entry.second, here, out);
      }
    }
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) {
      collect_blocks(node[i], key.empty() ? std::to_string(i) : key + "." + std::to_string(i), out);
    }
  }
}

// The short name of a block: its key without `.bindings`, and without a
// leading `phases.`.
std::string short_name(const std::string& key) {
  std::string name = key.ends_with(".bindings") ? key.substr(0, key.size() - 9) : key;
  if (name.rfind("phases.", 0) == 0) name = name.substr(7);
  return name;
}

std::string block_list(const Workload& w) {
  std::string out;
  for (const WorkloadBlock& b : w.blocks) out += (out.empty() ? "" : ", ") + short_name(b.key);
  return out;
}

const WorkloadBlock& chosen_block(const Workload& w, const std::string& path,
                                  const std::string& choice) {
  if (w.blocks.empty()) throw UsageError(path + " has no `bindings: |` block");
  if (choice.empty()) {
    if (w.blocks.size() == 1) return w.blocks[0];
    throw UsageError(path + " has " + std::to_string(w.blocks.size()) +
                     " bindings blocks; name one as " + path +
                     "#BLOCK, BLOCK one of: " + block_list(w));
  }
  const WorkloadBlock* found = nullptr;
  for (const WorkloadBlock& b : w.blocks) {
    if (b.key == choice || short_name(b.key) == choice || b.key == choice + ".bindings") {
      if (found) {
        throw UsageError(path + "#" + choice + " names several blocks; name one by its key (" +
                         found->key + ", " + b.key + ")");
      }
      found = &b;
    }
  }
  if (!found) {
    throw UsageError(path + " has no bindings block '" + choice +
                     "'; its blocks: " + block_list(w));
  }
  return *found;
}

// How many lines a block's text starts below the file's first line (the
// blank lines collect_blocks puts before it).
size_t leading_lines(const std::string& text) {
  const size_t first = text.find_first_not_of('\n');
  return first == std::string::npos ? text.size() : first;
}

// nmbrs's scope chain: a phase's block reads the names its workload's
// top-level `bindings:` block binds (shared cells, helpers). The two as one
// program, in the file's order and on the file's lines, so a diagnostic in
// either points at the workload's line.
std::string composed_with_scope(const Workload& w, const WorkloadBlock& block) {
  const auto scope = std::find_if(w.blocks.begin(), w.blocks.end(),
                                  [](const WorkloadBlock& b) { return b.key == "bindings"; });
  if (scope == w.blocks.end() || &*scope == &block) return block.text;
  const bool scope_first = leading_lines(scope->text) < leading_lines(block.text);
  std::string text = scope_first ? scope->text : block.text;
  const std::string& second = scope_first ? block.text : scope->text;
  if (!text.ends_with('\n')) text += '\n';
  const size_t used = (size_t)std::count(text.begin(), text.end(), '\n');
  return text + second.substr(std::min(used, leading_lines(second)));
}

}  // namespace

bool names_workload(const std::string& argument) {
  const std::string path = split_block(argument).first;
  return path.ends_with(".yaml") || path.ends_with(".yml");
}

Workload read_workload(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read workload file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    throw UsageError(path + " is not a YAML workload: " + e.what());
  }
  Workload w;
  if (!root.IsMap()) return w;
  if (const YAML::Node params = root["params"]; params && params.IsMap()) {
    for (const auto& entry : params) {
      if (entry.second.IsScalar()) w.params[entry.first.Scalar()] = entry.second.Scalar();
    }
  }
  collect_blocks(root, "", w.blocks);
  return w;
}

std::shared_ptr<const Program> compile_program_argument(const std::string& argument,
                                                        CompileOptions options) {
  if (!names_workload(argument)) return compile_file(argument, std::move(options));
  const auto [path, choice] = split_block(argument);
  const Workload w = read_workload(path);
  const WorkloadBlock& block = chosen_block(w, path, choice);
  for (const auto& [name, value] : w.params) options.params.emplace(name, value);
  options.file_name = path;
  options.program_directory = std::filesystem::path(path).parent_path().string();
  return compile(composed_with_scope(w, block), options);
}

}  // namespace polyrt::cli

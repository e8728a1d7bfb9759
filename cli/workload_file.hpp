// nmbrs workload files as programs. nmbrs (polydat's runner) embeds polydat
// programs in YAML workloads as `bindings: |` blocks and hands each the
// workload's top-level `params:`. Every command that takes a program FILE
// takes `workload.yaml#BLOCK` too (or `workload.yaml` when it has one block):
// the block's text compiled with the workload's params under the ones given
// (--param, --set), its diagnostics at the workload's lines. A phase's block
// compiles together with the workload's top-level `bindings:` block, whose
// names it reads (nmbrs's scope chain).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "polyrt/polyrt.hpp"

namespace polyrt::cli {

struct WorkloadBlock {
  std::string key;   // where it is: "phases.rampup.bindings"
  std::string text;  // the program, blank lines before it so lines match the file's
};

struct Workload {
  std::map<std::string, std::string> params;  // the scalar params, as text
  std::vector<WorkloadBlock> blocks;          // in the file's order
};

// Whether `argument` names a workload file: a path ending in .yaml or .yml,
// with or without a #BLOCK.
bool names_workload(const std::string& argument);

// The workload at `path`: UsageError when it cannot be read or is not YAML.
Workload read_workload(const std::string& path);

// The program a command's FILE argument names: a .polydat file compiled as
// it is, or a workload's block (`path#BLOCK`: its key, the key without
// `.bindings`, or a phase's name; no #BLOCK: the workload's only block) with
// the workload's params under `options.params`. UsageError naming the
// blocks there are when the choice names none, several or is missing.
std::shared_ptr<const Program> compile_program_argument(const std::string& argument,
                                                        CompileOptions options);

}  // namespace polyrt::cli

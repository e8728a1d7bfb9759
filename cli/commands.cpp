// The check, eval and nodes subcommands (run has its own file).
#include <cstdio>

#include "cli/command_line.hpp"
#include "cpu_backend/native_program.hpp"
#include "nodes/node_docs.hpp"
#include "plan/state_plan.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "slots/slot_program.hpp"

namespace polyrt::cli {

namespace {

bool wants_help(CommandLine& args, const char* usage) {
  if (!args.done() && (args.peek() == "--help" || args.peek() == "-h")) {
    std::fputs(usage, stdout);
    return true;
  }
  return false;
}

std::string take_file(CommandLine& args) {
  if (args.done() || args.is_flag())
    throw UsageError("polyrt " + args.command() + ": missing FILE");
  return args.next();
}

}  // namespace

int check_command(CommandLine& args) {
  static const char* usage =
      "usage: polyrt check FILE\n\n"
      "Compiles FILE and reports diagnostics. Exit status 0 when it compiles, 1 when not.\n";
  if (wants_help(args, usage)) return 0;
  const std::string file = take_file(args);
  if (!args.done()) args.unknown_flag(args.peek());
  auto program = compile_file(file);
  for (const std::string& w : program->warnings()) std::fprintf(stderr, "%s\n", w.c_str());
  std::printf("%s: ok (%zu inputs, %zu externs, %zu outputs)\n", file.c_str(),
              program->input_names().size(), program->externs().size(),
              program->output_names().size());
  return 0;
}

int eval_command(CommandLine& args) {
  static const char* usage =
      "usage: polyrt eval FILE [--set NAME=VALUE]... [--engine E] INPUTS...\n\n"
      "Sets the coordinate inputs (one value per declared input, in order) and the\n"
      "externs given with --set, then prints every named output as 'name = value'.\n"
      "--engine interpreter|closures|native (default native), --provenance "
      "auto|raw|pull|pushpull.\n";
  if (wants_help(args, usage)) return 0;
  const std::string file = take_file(args);
  std::vector<std::pair<std::string, std::string>> sets;
  std::vector<uint64_t> coordinates;
  CompileOptions options;
  options.engine = Engine::Native;
  while (!args.done()) {
    if (args.is_flag()) {
      const std::string f = args.flag();
      if (f == "--set") {
        sets.push_back(split_assignment(args.value_of(f)));
      } else if (!engine_flag(args, f, options)) {
        args.unknown_flag(f);
      }
    } else {
      coordinates.push_back(parse_value(args.next(), Type::U64).as_u64());
    }
  }
  auto program = compile_file(file, options);
  State state = program->new_state();
  for (const auto& [name, text] : sets) {
    const ExternInfo* info = nullptr;
    for (const auto& e : program->externs()) {
      if (e.name == name) info = &e;
    }
    if (!info) {
      state.set_input(name, Value::none());  // throws the WriteError naming valid externs
    } else {
      state.set_input(name, parse_value(text, info->type));
    }
  }
  state.set_inputs(coordinates);
  const auto& outputs = program->output_names();
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::printf("%s = %s\n", outputs[i].c_str(), state.pull_at(i).to_string().c_str());
  }
  return 0;
}

int plan_command(CommandLine& args) {
  static const char* usage =
      "usage: polyrt plan FILE [--engine batch|closures|native] [--provenance MODE] "
      "[--emit-llvm]\n\n"
      "Prints the per-state plan: the slot layout, the steps in evaluation order (native\n"
      "segments and host steps) and the provenance mode. --emit-llvm prints the\n"
      "optimized LLVM IR of the native segments instead. --engine batch prints the batch\n"
      "plan of every output (the first input iterated), or its kernels' IR.\n";
  if (wants_help(args, usage)) return 0;
  const std::string file = take_file(args);
  CompileOptions options;
  options.engine = Engine::Native;
  bool emit_llvm = false;
  bool batch = false;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--emit-llvm") {
      emit_llvm = true;
    } else if (!engine_flag(args, f, options, &batch)) {
      args.unknown_flag(f);
    }
  }
  if (batch) {
    const BatchEvaluator evaluator(compile_file(file, options), BatchOptions{});
    std::fputs((emit_llvm ? evaluator.kernels_ir() : evaluator.describe()).c_str(), stdout);
    return 0;
  }
  if (options.engine == Engine::Interpreter) {
    throw UsageError("polyrt plan: the interpreter has no plan; use --engine closures or native");
  }
  auto program = compile_file(file, options);
  if (emit_llvm) {
    std::fputs(cpu::native_program_ir(*program).c_str(), stdout);
    return 0;
  }
  std::printf("engine: %s\n", program->engine_name().c_str());
  const slots::SlotProgram& sp = *program->slot_program();
  std::fputs(plan::describe_plan(program->graph(), sp.plan, sp.mode).c_str(), stdout);
  return 0;
}

int nodes_command(CommandLine& args) {
  static const char* usage = "usage: polyrt nodes\n\nPrints the node reference as Markdown.\n";
  if (wants_help(args, usage)) return 0;
  if (!args.done()) args.unknown_flag(args.peek());
  std::fputs(nodes::node_reference_markdown().c_str(), stdout);
  return 0;
}

}  // namespace polyrt::cli

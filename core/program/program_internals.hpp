// What polyrt's own layers (engines, planners, back ends, bindings) may see
// of a Program beyond its public API: its checked graph, the slot-buffer
// engines' plan and code, and the check of an extern write. Not installed.
#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "polyrt/polyrt.hpp"

namespace polyrt {

// Defined in program/traversal_def.hpp, which only the front end's own files
// include: an engine or back end reading the graph never compiles against
// the syntax tree a traversal keeps.
struct TraversalDef;

struct ProgramInternals {
  static std::shared_ptr<Program> make(std::shared_ptr<const ir::Graph> graph,
                                       CompileOptions options, ProgramSource source,
                                       slots::NativeBuilder native) {
    return std::shared_ptr<Program>(
        new Program(std::move(graph), std::move(options), std::move(source), native));
  }
  // Before the program is shared: its traversals, in source order.
  static void add_traversal(Program& program, std::shared_ptr<const TraversalDef> traversal);
  // What the program was compiled from, once its traversals are compiled
  // too (their bodies may read data files and modules of their own).
  static void set_source(Program& program, ProgramSource source) {
    program.source_ = std::move(source);
  }
  static void set_cursors(Program& program, std::vector<CursorInfo> cursors) {
    program.cursors_ = std::move(cursors);
  }
  static const TraversalDef& traversal(const Program& program, size_t index) {
    return *program.traversals_.at(index);
  }
  static std::shared_ptr<const TraversalDef> traversal_def(const Program& program, size_t index) {
    return program.traversals_.at(index);
  }
  static const ir::Graph& graph(const Program& program) { return *program.graph_; }
  // A nullable output's presence output (ir::Output::presence): an index the
  // engines pull like any output's, past the program's output names.
  static std::optional<size_t> presence_output(const Program& program, size_t index);
  // The plan and code of the slot-buffer engines (null for the interpreter).
  static const slots::SlotProgram* slot_program(const Program& program) {
    return program.slot_program_.get();
  }
  // Checks a write of extern `name` (WriteError for an unknown name or a
  // value of another type, never converted) and returns the extern's index
  // and the value as it is stored (any NaN as the one canonical NaN).
  static std::pair<size_t, Value> resolve_extern_write(const Program& program,
                                                       std::string_view name, const Value& value) {
    return program.resolve_extern_write(name, value);
  }
};

}  // namespace polyrt

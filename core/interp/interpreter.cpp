// P1: evaluates typed Values node by node. Lazy (a pull runs only the stale
// nodes of its output's cone), memoized, push-side invalidation per input.
#include "interp/interpreter.hpp"

#include <algorithm>

#include "graph/evaluate_node.hpp"
#include "graph/failure_message.hpp"

namespace polyrt::interp {

namespace {

class Interpreter final : public StateEngine {
 public:
  Interpreter(std::shared_ptr<const Program> owner, const ir::Graph& graph)
      : StateEngine(graph.coordinates.size()), program_(std::move(owner)), g_(&graph) {
    const auto& nodes = g_->nodes;
    values_.resize(g_->port_base.back());
    clean_.assign(nodes.size(), 0);
    queued_.assign(nodes.size(), 0);
    for (size_t i = 0; i < nodes.size(); ++i) {
      const ir::Node& n = nodes[i];
      if (n.kind == ir::NodeKind::Constant) {
        for (size_t p = 0; p < n.constants.size(); ++p)
          values_[g_->port_base[i] + p] = n.constants[p];
      }
      if (n.kind != ir::NodeKind::Call) clean_[i] = 1;
    }
    coordinates_.assign(g_->coordinates.size(), 0);
    for (uint32_t c : g_->coordinates) values_[g_->port_base[c]] = Value::u64(0);
    for (const ir::Extern& e : g_->externs) values_[g_->port_base[e.node]] = e.default_value;
    for (uint32_t n : g_->init_nodes) run_node(n);
  }

  std::unique_ptr<StateEngine> clone() const override {
    return std::make_unique<Interpreter>(*this);
  }

  // A coordinate rewritten with its current value changes nothing (every
  // engine compares); an extern write always counts as a change.
  void set_inputs(std::span<const uint64_t> coordinates) override {
    for (size_t c = 0; c < coordinates.size(); ++c) {
      if (coordinates_[c] == coordinates[c] && written_) continue;
      coordinates_[c] = coordinates[c];
      values_[g_->port_base[g_->coordinates[c]]] = Value::u64(coordinates[c]);
      for (uint32_t n : g_->coordinate_dependents[c]) clean_[n] = 0;
    }
    written_ = true;
    dirty_volatile();
  }

  void set_extern(size_t index, const Value& value) override {
    values_[g_->port_base[g_->externs[index].node]] = value;
    for (uint32_t n : g_->extern_dependents[index]) clean_[n] = 0;
    dirty_volatile();
  }

  // Runs the stale nodes of the output's cone in topological order. They are
  // found from the output backwards: a clean node's inputs are clean (writes
  // dirty every dependent), so the search stops at clean nodes and costs
  // what is stale, not the whole cone.
  Value pull_at(size_t output) override { return pull_ref(output); }

  const Value& pull_ref(size_t output) override {
    const ir::Wire w = g_->outputs[output].wire;
    if (!clean_[w.node]) {
      stale_.clear();
      std::vector<uint32_t> stack{w.node};
      queued_[w.node] = 1;
      while (!stack.empty()) {
        const uint32_t n = stack.back();
        stack.pop_back();
        stale_.push_back(n);
        for (const ir::Wire& in : g_->nodes[n].inputs) {
          if (clean_[in.node] || queued_[in.node]) continue;
          queued_[in.node] = 1;
          stack.push_back(in.node);
        }
      }
      for (uint32_t n : stale_) queued_[n] = 0;
      std::sort(stale_.begin(), stale_.end());
      for (uint32_t n : stale_) run_node(n);
    }
    return values_[g_->port_base[w.node] + w.port];
  }

  void eval() override {
    for (uint32_t n = 0; n < g_->nodes.size(); ++n) {
      if (!clean_[n]) run_node(n);
    }
  }

  void invalidate_all() override {
    for (uint32_t n = 0; n < g_->nodes.size(); ++n) {
      const ir::Node& node = g_->nodes[n];
      if (node.kind == ir::NodeKind::Call && !ir::is_frozen_const(node)) clean_[n] = 0;
    }
  }

  std::string engine_name() const override { return "interpreter"; }
  const Program& program() const override { return *program_; }

 private:
  void dirty_volatile() {
    for (uint32_t n : g_->volatile_nodes) clean_[n] = 0;
  }

  void run_node(uint32_t index) {
    const ir::Node& n = g_->nodes[index];
    inputs_.clear();
    for (const ir::Wire& w : n.inputs) inputs_.push_back(&values_[g_->port_base[w.node] + w.port]);
    if (auto failure = ir::run_node(n, inputs_.data(), &values_[g_->port_base[index]], sink_)) {
      throw EvalError(ir::failure_message(*g_, index, *failure, inputs_, &coordinates_), n.label);
    }
    clean_[index] = 1;
  }

  std::shared_ptr<const Program> program_;
  const ir::Graph* g_;
  std::vector<Value> values_;
  std::vector<uint8_t> clean_;
  std::vector<uint8_t> queued_;  // scratch of pull_at, all zero between pulls
  std::vector<uint32_t> stale_;  // scratch of pull_at
  std::vector<uint64_t> coordinates_;
  bool written_ = false;  // coordinates were set at least once
  std::vector<const Value*> inputs_;
};

}  // namespace

std::unique_ptr<StateEngine> make_interpreter(std::shared_ptr<const Program> owner,
                                              const ir::Graph& graph) {
  return std::make_unique<Interpreter>(std::move(owner), graph);
}

}  // namespace polyrt::interp

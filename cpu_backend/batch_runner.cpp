#include "cpu_backend/batch_runner.hpp"

#include <algorithm>
#include <bit>

#include "graph/evaluate_node.hpp"
#include "polyrt/error.hpp"

namespace polyrt::cpu {

using plan::BatchValue;

namespace {

// Evaluates a call node once on the host, as the interpreter does (a None
// input skips a node that is not None-aware, leaving its outputs None).
// False when the node fails.
template <typename Input>
bool evaluate_once(const ir::Node& n, const Input& input, Value* out) {
  std::vector<Value> in;
  for (const ir::Wire& w : n.inputs) in.push_back(input(w));
  std::vector<const Value*> ptrs;
  for (const Value& v : in) ptrs.push_back(&v);
  return !ir::run_node(n, ptrs.data(), out, ir::discarded_side_channel());
}

}  // namespace

BatchRunner::BatchRunner(std::shared_ptr<const Program> program, const plan::BatchShape& shape,
                         std::span<const uint64_t> coordinates, std::span<const Value> externs)
    : program_(std::move(program)),
      g_(&program_->graph()),
      plan_(plan::plan_batch(*g_, shape)),
      kernels_(compile_batch_kernels(*g_, plan_)) {
  scalars_.resize(plan_.scalar_ports.size());
  const std::vector<Value> frozen = frozen_const_values();
  std::vector<Value> node_out;
  for (uint32_t node : plan_.scalar_nodes) {
    if (scalars_failed_) break;
    const ir::Node& n = g_->nodes[node];
    const uint32_t first_scalar = plan_.values[plan_.port_base[node]].index;
    node_out.assign(n.out_types.size(), Value::none());
    if (ir::is_frozen_const(n)) {
      std::copy_n(&frozen[plan_.port_base[node]], node_out.size(), &scalars_[first_scalar]);
      continue;
    }
    switch (n.kind) {
      case ir::NodeKind::Coordinate:
        node_out[0] = Value::u64(coordinates[n.slot]);
        break;
      case ir::NodeKind::Extern:
        node_out[0] = externs[n.slot];
        break;
      case ir::NodeKind::Constant:
        node_out = n.constants;
        break;
      case ir::NodeKind::Call: {
        const auto input = [&](ir::Wire w) {
          const BatchValue& v = plan_.value_of(w);
          return v.kind == BatchValue::Scalar ? scalars_[v.index] : Value::none();
        };
        // A failure fails every row; the interpreter names it.
        scalars_failed_ = !evaluate_once(n, input, node_out.data());
        break;
      }
    }
    for (size_t k = 0; k < node_out.size(); ++k) scalars_[first_scalar + k] = node_out[k];
  }
  for (const Value& v : scalars_) scalar_words_.push_back(v.is_none() ? 0 : word_of(v));
}

// What a new state computes for the `const` bindings the batch needs: their
// cones, from the externs' defaults (per port; a failure fails every row).
std::vector<Value> BatchRunner::frozen_const_values() {
  std::vector<Value> values(plan_.values.size());
  std::vector<uint8_t> wanted(g_->nodes.size(), 0);
  std::vector<uint32_t> stack;
  for (uint32_t node : plan_.scalar_nodes) {
    if (ir::is_frozen_const(g_->nodes[node])) stack.push_back(node);
  }
  while (!stack.empty()) {
    const uint32_t i = stack.back();
    stack.pop_back();
    if (wanted[i]) continue;
    wanted[i] = 1;
    for (const ir::Wire& w : g_->nodes[i].inputs) stack.push_back(w.node);
  }

  const auto input = [&](ir::Wire w) { return values[plan_.port_base[w.node] + w.port]; };
  for (uint32_t i = 0; i < g_->nodes.size() && !scalars_failed_; ++i) {
    if (!wanted[i]) continue;
    const ir::Node& n = g_->nodes[i];
    Value* out = &values[plan_.port_base[i]];
    if (n.kind == ir::NodeKind::Extern) {
      out[0] = g_->externs[n.slot].default_value;
    } else if (n.kind == ir::NodeKind::Constant) {
      std::copy(n.constants.begin(), n.constants.end(), out);
    } else if (n.kind == ir::NodeKind::Call) {
      scalars_failed_ = !evaluate_once(n, input, out);
    }
  }
  return values;
}

void BatchRunner::prepare(ChunkBuffers& b, uint64_t rows) const {
  const size_t columns = plan_.column_types.size();
  b.rows = rows;
  b.words.resize(columns);
  b.values.resize(columns);
  b.column_pointers.assign(columns, nullptr);
  for (size_t c = 0; c < columns; ++c) {
    if (plan_.column_types[c] == Type::Str) {
      b.values[c].resize(rows);
    } else if (b.words[c].size() < rows) {
      b.words[c].resize(rows);
    }
    b.column_pointers[c] = b.words[c].data();
  }
  b.filled.resize(plan_.outputs.size());
  b.filled_values.resize(plan_.outputs.size());
  for (size_t o = 0; o < plan_.outputs.size(); ++o) {
    const BatchValue& v = plan_.outputs[o];
    if (v.kind != BatchValue::Lane && v.kind != BatchValue::Scalar) continue;
    if (v.kind == BatchValue::Scalar && !scalars_[v.index].is_none() &&
        scalars_[v.index].type() == Type::Str) {
      b.filled_values[o].assign(rows, scalars_[v.index]);
    } else if (b.filled[o].size() < rows) {
      b.filled[o].resize(rows);
    }
  }
}

uint64_t BatchRunner::run(ChunkBuffers& b, uint64_t first, uint64_t rows,
                          std::span<const uint64_t* const> coordinate_columns,
                          std::span<uint64_t* const> targets) const {
  for (size_t o = 0; o < plan_.outputs.size(); ++o) {
    const BatchValue& v = plan_.outputs[o];
    if (v.kind == BatchValue::Lane) {
      for (uint64_t r = 0; r < rows; ++r) b.filled[o][r] = first + r;
    } else if (v.kind == BatchValue::Scalar && !b.filled[o].empty()) {
      std::fill(b.filled[o].begin(), b.filled[o].begin() + rows, scalar_words_[v.index]);
    }
  }
  if (scalars_failed_) return 0;
  size_t next_input = 0;
  for (uint32_t column : plan_.coordinate_columns) {
    if (column == ~0u) continue;
    // Kernels only read coordinate columns; the pointer table is not const
    // because kernels write the other columns through it.
    b.column_pointers[column] = const_cast<uint64_t*>(coordinate_columns[next_input++]);
  }
  for (size_t o = 0; o < targets.size(); ++o) {
    const BatchValue& v = plan_.outputs[o];
    if (!targets[o] || v.kind != BatchValue::Column || plan_.column_types[v.index] == Type::Str) {
      continue;
    }
    // An output requested twice is written once, to its first target.
    if (b.column_pointers[v.index] == b.words[v.index].data())
      b.column_pointers[v.index] = targets[o];
  }
  uint64_t first_failure = plan::kNoFailingRow;
  for (size_t s = 0; s < plan_.steps.size(); ++s) {
    const plan::BatchStep& step = plan_.steps[s];
    if (step.kind == plan::BatchStep::Kernel) {
      uint32_t member = 0;
      const uint64_t failed = kernels_.per_step[s](first, rows, b.column_pointers.data(),
                                                   scalar_words_.data(), &member);
      first_failure = std::min(first_failure, failed);
    } else {
      run_host(step, b, first, first_failure);
    }
  }
  return first_failure;  // prepare() points the columns back at the buffers
}

void BatchRunner::run_host(const plan::BatchStep& step, ChunkBuffers& b, uint64_t first,
                           uint64_t& first_failure) const {
  const uint32_t node = step.nodes[0];
  const ir::Node& n = g_->nodes[node];
  std::vector<Value> in(n.inputs.size());
  std::vector<const Value*> ptrs(n.inputs.size());
  std::vector<Value> out(n.out_types.size());
  const uint64_t rows = std::min(first_failure, b.rows);
  for (uint64_t r = 0; r < rows; ++r) {
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const ir::Wire w = n.inputs[k];
      const BatchValue& v = plan_.value_of(w);
      ptrs[k] = &in[k];
      switch (v.kind) {
        case BatchValue::None:
          in[k] = Value::none();
          break;
        case BatchValue::Scalar:
          ptrs[k] = &scalars_[v.index];
          break;
        case BatchValue::Lane:
          in[k] = Value::u64(first + r);
          break;
        case BatchValue::Column:
          if (plan_.column_types[v.index] == Type::Str) {
            ptrs[k] = &b.values[v.index][r];
          } else {
            in[k] = value_of_word(plan_.column_types[v.index], b.column_pointers[v.index][r]);
          }
          break;
        case BatchValue::Register:
          internal_error("a host step reads a kernel register");
      }
    }
    if (ir::run_node(n, ptrs.data(), out.data(), ir::discarded_side_channel())) {
      first_failure = r;
      return;
    }
    for (size_t k = 0; k < out.size(); ++k) {
      const BatchValue& v = plan_.values[plan_.port_base[node] + k];
      if (v.kind != BatchValue::Column) continue;
      if (out[k].is_none()) {
        internal_error("node '" + n.label + "' gave None where the batch plan expected a value");
      }
      if (plan_.column_types[v.index] == Type::Str) {
        b.values[v.index][r] = std::move(out[k]);
      } else {
        b.column_pointers[v.index][r] = word_of(out[k]);
      }
    }
  }
}

}  // namespace polyrt::cpu

#include "batch/chunk_steps.hpp"

#include <algorithm>
#include <array>

#include "graph/evaluate_node.hpp"
#include "nodes/column_call.hpp"
#include "polyrt/error.hpp"

namespace polyrt::batch {

using plan::BatchValue;

namespace {

// Rows [begin, begin + rows) of a chunk as a host step runs them: word
// outputs in place, str outputs appended to `texts` (per node output; null
// for a word output), Lane inputs built in `lanes`.
struct StepPart {
  uint64_t begin = 0, rows = 0;
  std::vector<columns::StringColumn*> texts;
  std::vector<uint64_t>* lanes = nullptr;
};

// The node's columnar form over the part's rows, when it has one and every
// input and output is one it can take (no None input; every output a
// column). Returns false, having done nothing, otherwise.
bool run_columnar(const PreparedBatch& batch, const ir::Node& n, uint32_t node,
                  const ChunkBuffers& b, uint64_t first, const StepPart& part) {
  const uint64_t rows = part.rows;
  if (!n.def->columnar) return false;
  const plan::BatchPlan& p = batch.plan;
  std::vector<nodes::ColumnInput> inputs(n.inputs.size());
  std::vector<std::array<int64_t, 2>> scalar_offsets(n.inputs.size());
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    const BatchValue& v = p.value_of(n.inputs[k]);
    nodes::ColumnInput& in = inputs[k];
    switch (v.kind) {
      case BatchValue::None:
      case BatchValue::Register:
        return false;
      case BatchValue::Scalar: {
        const Value& scalar = batch.scalars[v.index];
        if (scalar.is_none()) return false;
        in.type = scalar.type();
        in.stride = 0;
        in.words = &batch.scalar_words[v.index];
        if (is_payload(in.type)) {
          scalar_offsets[k] = {0, (int64_t)scalar.text().size()};
          in.offsets = scalar_offsets[k].data();
          in.bytes = scalar.text().data();
        }
        break;
      }
      case BatchValue::Lane:
        if (part.lanes->size() < rows) part.lanes->resize(rows);
        for (uint64_t r = 0; r < rows; ++r) (*part.lanes)[r] = first + part.begin + r;
        in.words = part.lanes->data();
        break;
      case BatchValue::Column:
        in.type = p.column_types[v.index];
        if (is_payload(in.type)) {
          in.offsets = b.texts[v.index].offsets() + part.begin;
          in.bytes = b.texts[v.index].bytes();
          in.padded = in.bytes != nullptr;
        } else {
          in.words = b.column_pointers[v.index] + part.begin;
        }
        break;
    }
  }
  std::vector<nodes::ColumnOutput> outputs(n.out_types.size());
  for (size_t k = 0; k < outputs.size(); ++k) {
    const BatchValue& v = p.values[p.port_base[node] + k];
    if (v.kind != BatchValue::Column) return false;
    if (is_payload(p.column_types[v.index])) {
      outputs[k].text = part.texts[k];
    } else {
      outputs[k].words = b.column_pointers[v.index] + part.begin;
    }
  }
  n.def->columnar(nodes::ColumnCall{.rows = rows,
                                    .inputs = inputs,
                                    .params = n.params,
                                    .prepared = ir::prepared_of(n),
                                    .outputs = outputs});
  return true;
}

// The node's registry body row by row over the part's rows, on Values;
// returns the first failing row (of the chunk), or kNoFailingRow.
uint64_t run_rows(const PreparedBatch& batch, const ir::Node& n, uint32_t node,
                  const ChunkBuffers& b, uint64_t first, const StepPart& part) {
  const plan::BatchPlan& p = batch.plan;
  std::vector<Value> in(n.inputs.size());
  std::vector<const Value*> ptrs(n.inputs.size());
  std::vector<Value> out(n.out_types.size());
  for (uint64_t r = part.begin; r < part.begin + part.rows; ++r) {
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const BatchValue& v = p.value_of(n.inputs[k]);
      ptrs[k] = &in[k];
      switch (v.kind) {
        case BatchValue::None:
          in[k] = Value::none();
          break;
        case BatchValue::Scalar:
          ptrs[k] = &batch.scalars[v.index];
          break;
        case BatchValue::Lane:
          in[k] = Value::u64(first + r);
          break;
        case BatchValue::Column:
          in[k] = is_payload(p.column_types[v.index])
                      ? Value::of_payload(p.column_types[v.index], std::string(b.texts[v.index][r]))
                      : value_of_word(p.column_types[v.index], b.column_pointers[v.index][r]);
          break;
        case BatchValue::Register:
          internal_error("a host step reads a kernel register");
      }
    }
    if (ir::run_node(n, ptrs.data(), out.data(), ir::discarded_side_channel())) return r;
    for (size_t k = 0; k < out.size(); ++k) {
      const BatchValue& v = p.values[p.port_base[node] + k];
      if (v.kind != BatchValue::Column) continue;
      if (out[k].is_none()) {
        internal_error("node '" + n.label + "' gave None where the batch plan expected a value");
      }
      if (is_payload(p.column_types[v.index])) {
        part.texts[k]->append(out[k].text());
      } else {
        b.column_pointers[v.index][r] = word_of(out[k]);
      }
    }
  }
  return plan::kNoFailingRow;
}

// The part's rows through the node's columnar form, else row by row.
uint64_t run_part(const PreparedBatch& batch, const ir::Node& n, uint32_t node,
                  const ChunkBuffers& b, uint64_t first, const StepPart& part) {
  try {
    if (run_columnar(batch, n, node, b, first, part)) return plan::kNoFailingRow;
  } catch (const nodes::ColumnarFallback&) {
    // A row failed: the rows find which (the form wrote no text).
  }
  return run_rows(batch, n, node, b, first, part);
}

// Rows past a failure are never delivered, but later steps read every row:
// the step's str columns get empty ones.
void fill_str_outputs(const PreparedBatch& batch, const ir::Node& n, uint32_t node,
                      ChunkBuffers& b) {
  const plan::BatchPlan& p = batch.plan;
  for (size_t k = 0; k < n.out_types.size(); ++k) {
    const BatchValue& v = p.values[p.port_base[node] + k];
    if (v.kind != BatchValue::Column || !is_payload(p.column_types[v.index])) continue;
    columns::StringColumn& text = b.texts[v.index];
    if (text.rows() < b.rows) text.append_repeated({}, b.rows - text.rows());
  }
}

// Per node output: its str column in the chunk, or null.
std::vector<columns::StringColumn*> str_outputs(const PreparedBatch& batch, const ir::Node& n,
                                                uint32_t node, ChunkBuffers& b) {
  const plan::BatchPlan& p = batch.plan;
  std::vector<columns::StringColumn*> texts(n.out_types.size(), nullptr);
  for (size_t k = 0; k < texts.size(); ++k) {
    const BatchValue& v = p.values[p.port_base[node] + k];
    if (v.kind == BatchValue::Column && is_payload(p.column_types[v.index])) {
      texts[k] = &b.texts[v.index];
    }
  }
  return texts;
}

}  // namespace

uint64_t run_host_step(const PreparedBatch& batch, const plan::BatchStep& step, ChunkBuffers& b,
                       uint64_t first, uint64_t limit) {
  const uint32_t node = step.nodes[0];
  const ir::Node& n = batch.graph().nodes[node];
  const StepPart whole{.begin = 0,
                       .rows = std::min(limit, b.rows),
                       .texts = str_outputs(batch, n, node, b),
                       .lanes = &b.lanes};
  const uint64_t failed = run_part(batch, n, node, b, first, whole);
  fill_str_outputs(batch, n, node, b);
  return failed;
}

uint64_t run_host_step_in_parts(const PreparedBatch& batch, const plan::BatchStep& step,
                                ChunkBuffers& b, uint64_t first, uint64_t limit, uint64_t part_rows,
                                const ForEachPart& for_each_part) {
  const uint64_t rows = std::min(limit, b.rows);
  const size_t count = (size_t)((rows + part_rows - 1) / part_rows);
  if (count < 2) return run_host_step(batch, step, b, first, limit);
  const uint32_t node = step.nodes[0];
  const ir::Node& n = batch.graph().nodes[node];
  const std::vector<columns::StringColumn*> chunk_texts = str_outputs(batch, n, node, b);
  struct Part {
    std::vector<columns::StringColumn> texts;
    std::vector<uint64_t> lanes;
    uint64_t failed = plan::kNoFailingRow;
  };
  std::vector<Part> parts(count);
  for_each_part(count, [&](size_t k) {
    Part& mine = parts[k];
    mine.texts.resize(chunk_texts.size());
    StepPart part{.begin = k * part_rows,
                  .rows = std::min(part_rows, rows - k * part_rows),
                  .texts = std::vector<columns::StringColumn*>(chunk_texts.size(), nullptr),
                  .lanes = &mine.lanes};
    for (size_t o = 0; o < chunk_texts.size(); ++o) {
      if (chunk_texts[o]) part.texts[o] = &mine.texts[o];
    }
    mine.failed = run_part(batch, n, node, b, first, part);
    // A failed part's later rows are empty, so the next part's stay in place.
    for (columns::StringColumn* text : part.texts) {
      if (text && text->rows() < part.rows) text->append_repeated({}, part.rows - text->rows());
    }
  });
  uint64_t failed = plan::kNoFailingRow;
  for (const Part& part : parts) failed = std::min(failed, part.failed);
  for (size_t o = 0; o < chunk_texts.size(); ++o) {
    if (!chunk_texts[o]) continue;
    for (const Part& part : parts) chunk_texts[o]->append_rows(part.texts[o]);
  }
  fill_str_outputs(batch, n, node, b);
  return failed;
}

ChunkFailure run_chunk(const PreparedBatch& batch, ChunkBuffers& b, uint64_t first,
                       std::span<const uint64_t* const> coordinate_columns,
                       std::span<uint64_t* const> targets,
                       const std::function<KernelFailure(uint32_t step)>& run_kernel) {
  fill_generated_outputs(batch, b, first);
  if (batch.scalars_failed) return ChunkFailure{0, 0, 0};
  bind_caller_columns(batch, b, coordinate_columns, targets);
  ChunkFailure failure;
  const plan::BatchPlan& p = batch.plan;
  for (uint32_t s = 0; s < p.steps.size(); ++s) {
    KernelFailure f;
    if (p.steps[s].kind == plan::BatchStep::Kernel) {
      f = run_kernel(s);
    } else {
      f.row = run_host_step(batch, p.steps[s], b, first, failure.row);
    }
    fold_failure(failure, s, f);
  }
  return failure;
}

}  // namespace polyrt::batch

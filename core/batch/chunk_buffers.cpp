#include "batch/chunk_buffers.hpp"

#include <algorithm>

namespace polyrt::batch {

using plan::BatchValue;

void size_chunk(const PreparedBatch& batch, ChunkBuffers& b, uint64_t rows,
                WordColumns word_columns) {
  const plan::BatchPlan& p = batch.plan;
  const size_t columns = p.column_types.size();
  b.rows = rows;
  b.words.resize(columns);
  b.texts.resize(columns);
  b.column_pointers.assign(columns, nullptr);
  for (size_t c = 0; c < columns; ++c) {
    if (is_payload(p.column_types[c])) {
      b.texts[c].clear(rows);
      continue;
    }
    if (word_columns == WordColumns::BackEnd) continue;
    if (b.words[c].size() < rows) b.words[c].resize(rows);
    b.column_pointers[c] = b.words[c].data();
  }
  b.filled.resize(p.outputs.size());
  b.filled_texts.resize(p.outputs.size());
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    const BatchValue& v = p.outputs[o];
    if (v.kind != BatchValue::Lane && v.kind != BatchValue::Scalar) continue;
    const Value* scalar = v.kind == BatchValue::Scalar ? &batch.scalars[v.index] : nullptr;
    if (scalar && !scalar->is_none() && is_payload(scalar->type())) {
      // The same text on every row of every chunk of this batch: a recycled
      // chunk of the same size already holds it.
      if (b.filled_texts[o].rows() != rows) {
        b.filled_texts[o].clear(rows);
        b.filled_texts[o].append_repeated(scalar->text(), rows);
      }
    } else if (b.filled[o].size() < rows) {
      b.filled[o].resize(rows);
    }
  }
}

void fill_generated_outputs(const PreparedBatch& batch, ChunkBuffers& b, uint64_t first) {
  const plan::BatchPlan& p = batch.plan;
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    const BatchValue& v = p.outputs[o];
    if (v.kind == BatchValue::Lane) {
      for (uint64_t r = 0; r < b.rows; ++r) b.filled[o][r] = first + r;
    } else if (v.kind == BatchValue::Scalar && !b.filled[o].empty()) {
      std::fill(b.filled[o].begin(), b.filled[o].begin() + b.rows, batch.scalar_words[v.index]);
    }
  }
}

void bind_caller_columns(const PreparedBatch& batch, ChunkBuffers& b,
                         std::span<const uint64_t* const> coordinate_columns,
                         std::span<uint64_t* const> targets) {
  const plan::BatchPlan& p = batch.plan;
  size_t next_input = 0;
  for (uint32_t column : p.coordinate_columns) {
    if (column == ~0u) continue;
    // Steps only read coordinate columns; the pointer table is not const
    // because they write the other columns through it.
    b.column_pointers[column] = const_cast<uint64_t*>(coordinate_columns[next_input++]);
  }
  for (size_t o = 0; o < targets.size(); ++o) {
    const BatchValue& v = p.outputs[o];
    if (!targets[o] || v.kind != BatchValue::Column || is_payload(p.column_types[v.index])) {
      continue;
    }
    // An output requested twice is written once, to its first target.
    if (b.column_pointers[v.index] == b.words[v.index].data()) {
      b.column_pointers[v.index] = targets[o];
    }
  }
}

}  // namespace polyrt::batch

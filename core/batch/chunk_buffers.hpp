// The host-side columns of one chunk of a batch, and the target-independent
// parts of filling them: sizing, the generated outputs (lane and scalar
// columns), and pointing the plan's columns at caller arrays.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "batch/prepared_batch.hpp"
#include "batch/row_encoding.hpp"
#include "columns/string_column.hpp"

namespace polyrt::batch {

// What a back end keeps per chunk in flight besides host columns (a GPU
// back end: its stream, device buffers and page-locked staging); recycled
// with the chunk.
struct ChunkResources {
  virtual ~ChunkResources() = default;
};

// Runs `part(k)` for k in [0, count), possibly at once on several threads,
// and returns when every one has.
using ForEachPart = std::function<void(size_t count, const std::function<void(size_t k)>& part)>;

// Rows of a part of a large chunk's host work (host steps, encoding): a
// GPU's chunks are millions of rows, and the few threads that wait for its
// streams would otherwise do all of it.
inline constexpr uint64_t kPartRows = uint64_t{64} << 10;

struct ChunkBuffers {
  uint64_t rows = 0;
  std::vector<std::vector<uint64_t>> words;         // per plan column (empty for str)
  std::vector<columns::StringColumn> texts;         // per plan column (str only)
  std::vector<uint64_t*> column_pointers;           // where each column is read and written
  std::vector<std::vector<uint64_t>> filled;        // per output: lane or scalar outputs
  std::vector<columns::StringColumn> filled_texts;  // per output: scalar str outputs
  std::vector<uint64_t> lanes;                      // host steps' copy of the lane's coordinates
  std::unique_ptr<ChunkResources> resources;        // the back end's, or null
  // When set, the chunk's host work may run in parts of kPartRows that this
  // runs at once on every core: the evaluator's call, made only when cores
  // would otherwise idle (one device, more threads than chunks in flight;
  // never while a CPU device's own workers have the cores).
  ForEachPart parts_on_every_core;
  // Set by the evaluator for a call that writes text rows: a back end that
  // can (BatchPlan::rows_on_device) encodes the chunk's rows where it made
  // them into `encoded_rows` (valid until the buffers are prepared again)
  // and copies no output column to the host.
  const RowEncoding* encode_rows = nullptr;
  std::optional<std::string_view> encoded_rows;
  // Set by the evaluator for a call whose outputs go to device memory
  // (BatchBackend::run_to_device): per output, whether the caller's memory
  // takes it (empty: every output goes to the host). With encode_rows, it
  // tells a back end's prepare what the run takes to the host, so that
  // staging it needs is made there, before the chunk's time is taken, and
  // memory it does not need (staging, the columns kernels write straight to
  // the caller's memory) is never made.
  std::vector<uint8_t> outputs_on_device;
};

// Where a chunk's word columns live: in `words` (the host's vectors), or in
// storage the back end points column_pointers at after sizing.
enum class WordColumns { Host, BackEnd };

// Sizes the buffers for `rows` rows, points every word column at its buffer
// and empties the str columns (a recycled chunk keeps its capacity); the
// steps append each str column's rows. With WordColumns::BackEnd the word
// columns get no host vector and a null pointer.
void size_chunk(const PreparedBatch& batch, ChunkBuffers& buffers, uint64_t rows,
                WordColumns word_columns = WordColumns::Host);

// Writes the outputs no step computes: the lane's coordinates and the scalars
// repeated, for rows [0, buffers.rows) from coordinate `first`.
void fill_generated_outputs(const PreparedBatch& batch, ChunkBuffers& buffers, uint64_t first);

// Points the plan's columns at the caller's arrays, at this chunk's first row:
// one per Column coordinate (read only) and, when `targets` is not empty, one
// per output (null: none) that the steps then write straight into.
void bind_caller_columns(const PreparedBatch& batch, ChunkBuffers& buffers,
                         std::span<const uint64_t* const> coordinate_columns,
                         std::span<uint64_t* const> targets);

}  // namespace polyrt::batch

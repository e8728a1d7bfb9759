// The rows of a traversal (`for ... { body }`) in bulk, as column chunks, with
// the tier chosen inside (link polyrt_scheduler). A row holds the parent
// coordinate (the program's first input), every level's elements, then the
// innermost body's outputs, in the order (coordinate, tuple, body cycle):
// the rows `polyrt run` writes, `polyrt preview` shows and Python's
// Program.traverse returns, all through this one runner.
//
//   polyrt::TraversalRowsOptions options;
//   options.outputs = {"v"};
//   polyrt::TraversalRows rows(program, options);
//   std::vector<polyrt::Column> cols = rows.evaluate(0, 1000);  // 1000 parents
//
// Where each row runs: a traversal whose lattice body exists (TraversalInfo:
// its tuples fixed by its text, its body reading nothing of the parent) runs
// every row as one range of that program in the batch tier; otherwise each
// opening is materialized on a per-state engine and each activation runs
// its body's cycles there, except that an activation of which at least
// kBatchActivationCycles cycles are wanted (a body's cursor over a large
// slice) runs as one batch. Values are bit-identical on every path.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt {

// An activation of at least this many cycles runs in the batch tier.
inline constexpr uint64_t kBatchActivationCycles = 4096;

struct TraversalRowsOptions {
  size_t traversal = 0;  // which top-level traversal, in source order
  // The innermost body's outputs, in order; empty: every one.
  std::vector<std::string> outputs;
  // The parent's inputs, one value per input (empty: all 0); the first
  // iterates, so its entry is ignored.
  std::vector<uint64_t> coordinates;
  // The parent's externs (others keep their defaults); a lattice body reads
  // none, but they are checked all the same.
  std::vector<std::pair<std::string, Value>> externs;
  // false: every row on a per-state engine (`polyrt run` without the
  // batch tier); the values are the same.
  bool batch = true;
  // The batch tier's settings, as BatchOptions takes them.
  DeviceChoice device;
  size_t threads = 0;
  uint64_t chunk_rows = 0;  // also the per-state path's rows per chunk (0: kDefaultChunkRows)
  // Polled between rows and chunks, and inside an opening's
  // materialization; once it reads true the call throws StoppedError. Must
  // outlive the runner.
  const std::atomic<bool>* stop = nullptr;
  // Called with each batch the runner makes, before it runs, and what it
  // runs ("the traversal's 12 tuples per coordinate run", "activation 3
  // (5000 cycles) runs"): where to say which device runs it.
  std::function<void(const BatchEvaluator& batch, const std::string& what)> on_batch;
};

class TraversalRows {
 public:
  // Checks the options against the program: WriteError for a bad traversal
  // index, an output the innermost body lacks or named twice, a coordinate
  // count other than the inputs', an unknown extern, a program without an
  // input to number the rows, or two columns of one name (an element named
  // as an output); as flattened_traversal_info for a body holding several
  // nested traversals.
  TraversalRows(std::shared_ptr<const Program> program, TraversalRowsOptions options);
  ~TraversalRows();
  TraversalRows(TraversalRows&&) noexcept;

  // The columns: the iterated input, every level's elements, the outputs.
  const std::vector<std::string>& names() const;
  const std::vector<Type>& types() const;
  const std::vector<LogicalType>& logical_types() const;
  // Per column: whether it may be null (an output's Program::output_nullable).
  const std::vector<bool>& nullable() const;
  // Which rows run in the batch tier (and so on its device): all of them
  // (a lattice body), the long activations of a body with a cursor, or none
  // (every row on a per-state engine, on the CPU).
  enum class BatchRows : uint8_t { All, LongActivations, None };
  BatchRows batch_rows() const;
  // How many rows `count` parent coordinates give, when that is known before
  // they run (a lattice body: count times its tuples); nullopt when it
  // depends on each opening. WriteError past 2^64 - 1 rows.
  std::optional<uint64_t> rows_of(uint64_t count) const;

  // The rows of parent coordinates [first, first + count), handed over as
  // BatchEvaluator::stream_encoded does: `encode` on any worker (thread-safe,
  // row-local), `write` in row order. A chunk's `first` is its first row's
  // index among this call's rows (0 for the first); its column 0 holds the
  // rows' parent coordinates; a nullable output's null rows are 0 in its
  // ColumnView::present. A failing row (and an output that is None where
  // it may not be null: an unset extern feeds it) throws its EvalError
  // naming where it is ("cycle=7; a=50, f=0.5", and the body's
  // cycle in a body with a cursor), after every row before it was handed
  // over. Returns the rows.
  uint64_t stream(uint64_t first, uint64_t count,
                  const std::function<void(const ColumnChunk&, std::string& bytes)>& encode,
                  const std::function<void(const ColumnChunk&, std::string& bytes)>& write) const;

  // The first `max_rows` rows (or all) of parent coordinates [first, first +
  // count), in owned columns.
  std::vector<Column> evaluate(uint64_t first, uint64_t count,
                               uint64_t max_rows = ~uint64_t{0}) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace polyrt

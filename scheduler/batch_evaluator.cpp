// The public batch API over a batch back end: a oneTBB pipeline of chunks
// (serial issue, parallel evaluation and encoding, in-order delivery), chunk
// buffers recycled through a pool, failures re-evaluated on the interpreter.
#include <cstring>

#include "interp/state_engine.hpp"
#include "polyrt/batch.hpp"
#include "scheduler/batch_backends.hpp"
#include "scheduler/ordered_chunks.hpp"

namespace polyrt {

using plan::BatchValue;

struct BatchEvaluator::Impl {
  BatchOptions options;
  scheduler::BatchSetup setup;
  std::unique_ptr<batch::BatchBackend> backend;
  std::string fallback_reason;  // BatchDevice::Auto on the CPU: why no GPU

  const plan::BatchPlan& plan() const { return backend->batch().plan; }
  // The caller's choice, else the back end's, else the default.
  uint64_t chunk_rows() const {
    if (options.chunk_rows) return options.chunk_rows;
    const uint64_t preferred = backend->preferred_chunk_rows();
    return preferred ? preferred : kDefaultChunkRows;
  }

  template <typename Encoded, typename Encode, typename Write>
  void run(uint64_t first, uint64_t count, std::span<const uint64_t* const> columns,
           const Encode& encode, const Write& write, std::span<uint64_t* const> targets = {},
           std::span<const uint64_t> device_targets = {}) const;
  void chunk_view(const batch::ChunkBuffers& buffers, uint64_t first, ColumnChunk& view) const;
  [[noreturn]] void raise_failure(uint64_t coordinate, uint64_t row,
                                  std::span<const uint64_t* const> columns) const;
  // `call` got `given` word arrays: one per output, and no str output.
  void require_word_columns(const char* call, size_t given) const;
};

void BatchEvaluator::Impl::require_word_columns(const char* call, size_t given) const {
  if (given != setup.names.size()) {
    throw WriteError(std::string(call) + " got " + std::to_string(given) + " array(s) for " +
                     std::to_string(setup.names.size()) + " output(s)");
  }
  for (size_t o = 0; o < setup.names.size(); ++o) {
    if (setup.types[o] == Type::Str) {
      throw WriteError("output '" + setup.names[o] + "' is a str; " + call +
                       " writes 8-byte word columns (use evaluate or stream)");
    }
  }
}

BatchEvaluator::BatchEvaluator(std::shared_ptr<const Program> program, BatchOptions options)
    : impl_(new Impl) {
  impl_->options = std::move(options);
  impl_->setup = scheduler::resolve_batch_options(*program, impl_->options);
  scheduler::ChosenBackend chosen =
      scheduler::make_batch_backend(std::move(program), impl_->setup, impl_->options);
  impl_->backend = std::move(chosen.backend);
  impl_->fallback_reason = std::move(chosen.fallback_reason);
}

BatchEvaluator::~BatchEvaluator() = default;

const std::vector<std::string>& BatchEvaluator::output_names() const {
  return impl_->setup.names;
}

const std::vector<Type>& BatchEvaluator::output_types() const {
  return impl_->setup.types;
}

std::string BatchEvaluator::device_name() const {
  const std::string name = impl_->backend->device_name();
  return impl_->fallback_reason.empty() ? name : name + " (no GPU: " + impl_->fallback_reason + ")";
}

void BatchEvaluator::Impl::raise_failure(uint64_t coordinate, uint64_t row,
                                         std::span<const uint64_t* const> columns) const {
  const Program& p = *backend->batch().program;
  State state(interp::make_interpreter(backend->batch().program));
  state.set_log_sink([](std::string_view) {});  // the batch refused side channels in its cones
  for (size_t i = 0; i < setup.externs.size(); ++i) {
    state.set_input(p.externs()[i].name, setup.externs[i]);
  }
  std::vector<uint64_t> coordinates = setup.coordinates;
  if (!coordinates.empty()) coordinates[options.iterated] = coordinate;
  for (size_t k = 0; k < options.column_coordinates.size(); ++k) {
    coordinates[options.column_coordinates[k]] = columns[k][row];
  }
  state.set_inputs(coordinates);
  for (const std::string& name : setup.names) state.pull(name);
  internal_error("the batch tier reported a failure at coordinate " + std::to_string(coordinate) +
                 " that the interpreter does not reproduce");
}

template <typename Encoded, typename Encode, typename Write>
void BatchEvaluator::Impl::run(uint64_t first, uint64_t count,
                               std::span<const uint64_t* const> columns, const Encode& encode,
                               const Write& write, std::span<uint64_t* const> targets,
                               std::span<const uint64_t> device_targets) const {
  if (count == 0) return;
  if (columns.size() != options.column_coordinates.size()) {
    throw WriteError("the batch has " + std::to_string(options.column_coordinates.size()) +
                     " column coordinate(s) but got " + std::to_string(columns.size()) +
                     " array(s)");
  }
  // A chunk keeps its buffers (and its encoder's bytes) when it is recycled.
  struct InFlight {
    uint64_t offset = 0;  // rows before this chunk
    uint64_t rows = 0;
    batch::ChunkBuffers buffers;
    uint64_t failure = plan::kNoFailingRow;
    ColumnChunk view;
    Encoded encoded{};
  };
  scheduler::run_ordered_chunks<InFlight>(
      count, chunk_rows(), options.threads,
      [&](InFlight& c) {
        batch::ChunkBuffers& b = c.buffers;
        backend->prepare(b, c.rows);
        std::vector<const uint64_t*> at;
        for (const uint64_t* column : columns) at.push_back(column + c.offset);
        std::vector<uint64_t*> into;
        for (uint64_t* target : targets) into.push_back(target + c.offset);
        if (device_targets.empty()) {
          c.failure = backend->run(b, first + c.offset, at, into).row;
        } else {
          std::vector<uint64_t> to;
          for (uint64_t target : device_targets) to.push_back(target ? target + c.offset * 8 : 0);
          c.failure = backend->run_to_device(b, first + c.offset, at, to).row;
        }
        if (c.failure != plan::kNoFailingRow) return false;
        chunk_view(b, first + c.offset, c.view);
        encode(c.view, c.encoded);
        return true;
      },
      [&](InFlight& c) {
        if (c.failure != plan::kNoFailingRow) {
          raise_failure(first + c.offset + c.failure, c.offset + c.failure, columns);
        }
        write(c.view, c.encoded);
        if constexpr (requires { c.encoded.clear(); }) c.encoded.clear();  // keeps capacity
      },
      backend->max_chunks_in_flight());
}

void BatchEvaluator::Impl::chunk_view(const batch::ChunkBuffers& b, uint64_t first,
                                      ColumnChunk& view) const {
  const plan::BatchPlan& plan = this->plan();
  view.first = first;
  view.rows = b.rows;
  view.columns.assign(plan.outputs.size(), ColumnView{});
  for (size_t o = 0; o < plan.outputs.size(); ++o) {
    const BatchValue& v = plan.outputs[o];
    ColumnView& column = view.columns[o];
    column.type = setup.types[o];
    switch (v.kind) {
      case BatchValue::None:
        column.is_none = true;
        break;
      case BatchValue::Column:
        column.words = b.column_pointers[v.index];
        column.offsets = b.texts[v.index].offsets();
        column.bytes = b.texts[v.index].bytes();
        break;
      case BatchValue::Scalar:
        column.is_none = backend->batch().scalars[v.index].is_none();
        column.words = b.filled[o].data();
        column.offsets = b.filled_texts[o].offsets();
        column.bytes = b.filled_texts[o].bytes();
        break;
      case BatchValue::Lane:
        column.words = b.filled[o].data();
        break;
      case BatchValue::Register:
        break;
    }
  }
}

void BatchEvaluator::stream(uint64_t first, uint64_t count,
                            const std::function<void(const ColumnChunk&)>& consumer,
                            std::span<const uint64_t* const> columns) const {
  struct Nothing {};
  impl_->run<Nothing>(
      first, count, columns, [](const ColumnChunk&, Nothing&) {},
      [&](const ColumnChunk& chunk, Nothing&) { consumer(chunk); });
}

void BatchEvaluator::stream_encoded(
    uint64_t first, uint64_t count,
    const std::function<void(const ColumnChunk&, std::string& bytes)>& encode,
    const std::function<void(const ColumnChunk& chunk, std::string& bytes)>& write,
    std::span<const uint64_t* const> columns) const {
  impl_->run<std::string>(first, count, columns, encode, write);
}

std::vector<Column> BatchEvaluator::evaluate(uint64_t first, uint64_t count,
                                             std::span<const uint64_t* const> columns) const {
  std::vector<Column> out(output_names().size());
  for (size_t o = 0; o < out.size(); ++o) {
    out[o].name = output_names()[o];
    out[o].type = output_types()[o];
    if (out[o].type == Type::Str) out[o].offsets.push_back(0);
  }
  stream(
      first, count,
      [&](const ColumnChunk& chunk) {
        for (size_t o = 0; o < out.size(); ++o) {
          const ColumnView& v = chunk.columns[o];
          out[o].is_none = v.is_none;
          if (v.is_none) continue;
          if (v.type == Type::Str) {
            // Each chunk's offsets start at 0: shifted by the bytes before it.
            const int64_t base = (int64_t)out[o].bytes.size();
            for (uint64_t r = 1; r <= chunk.rows; ++r)
              out[o].offsets.push_back(base + v.offsets[r]);
            out[o].bytes.append(v.bytes, (size_t)v.offsets[chunk.rows]);
          } else {
            out[o].words.insert(out[o].words.end(), v.words, v.words + chunk.rows);
          }
        }
      },
      columns);
  return out;
}

void BatchEvaluator::evaluate_into(uint64_t first, uint64_t count,
                                   std::span<uint64_t* const> destinations,
                                   std::span<const uint64_t* const> columns) const {
  impl_->require_word_columns("evaluate_into", destinations.size());
  const std::vector<std::string>& names = output_names();
  // The kernels write column outputs straight into the destinations; the
  // rest (lane, scalar and repeated outputs) is copied as chunks arrive.
  struct Nothing {};
  impl_->run<Nothing>(
      first, count, columns, [](const ColumnChunk&, Nothing&) {},
      [&](const ColumnChunk& chunk, Nothing&) {
        const uint64_t offset = chunk.first - first;
        for (size_t o = 0; o < names.size(); ++o) {
          const ColumnView& v = chunk.columns[o];
          if (v.is_none || v.words == destinations[o] + offset) continue;
          std::memcpy(destinations[o] + offset, v.words, chunk.rows * 8);
        }
      },
      destinations);
}

void BatchEvaluator::evaluate_on_device(uint64_t first, uint64_t count,
                                        std::span<const uint64_t> device_columns,
                                        std::span<const uint64_t* const> columns) const {
  impl_->require_word_columns("evaluate_on_device", device_columns.size());
  struct Nothing {};
  impl_->run<Nothing>(
      first, count, columns, [](const ColumnChunk&, Nothing&) {},
      [](const ColumnChunk&, Nothing&) {}, {}, device_columns);
}

bool BatchEvaluator::output_is_none(size_t index) const {
  const BatchValue& v = impl_->plan().outputs.at(index);
  return v.kind == BatchValue::None ||
         (v.kind == BatchValue::Scalar && impl_->backend->batch().scalars[v.index].is_none());
}

std::string BatchEvaluator::describe() const {
  return plan::describe_batch_plan(impl_->backend->batch().graph(), impl_->plan());
}

}  // namespace polyrt

// The public batch API over the CPU batch runner: a oneTBB pipeline of chunks
// (serial issue, parallel evaluation and encoding, in-order delivery), chunk
// buffers recycled through a pool, failures re-evaluated on the interpreter.
#include <cstring>

#include "cpu_backend/batch_runner.hpp"
#include "interp/state_engine.hpp"
#include "polyrt/batch.hpp"
#include "scheduler/ordered_chunks.hpp"

namespace polyrt {

using plan::BatchValue;

namespace {

std::string list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

}  // namespace

BatchEvaluator::BatchEvaluator(std::shared_ptr<const Program> program, BatchOptions options)
    : program_(std::move(program)), options_(std::move(options)) {
  const Program& p = *program_;
  const size_t coordinate_count = p.input_names().size();
  plan::BatchShape shape;

  names_ = options_.outputs.empty() ? p.output_names() : options_.outputs;
  for (const std::string& name : names_) {
    const size_t index = p.require_output(name);
    shape.outputs.push_back((uint32_t)index);
    types_.push_back(p.output_type(index));
  }

  if (options_.coordinates.empty()) options_.coordinates.assign(coordinate_count, 0);
  if (options_.coordinates.size() != coordinate_count) {
    throw WriteError("the batch got " + std::to_string(options_.coordinates.size()) +
                     " coordinate value(s) but the program has " +
                     std::to_string(coordinate_count) + ": " + list(p.input_names()));
  }
  shape.coordinates.assign(coordinate_count, plan::CoordinateSource::Scalar);
  if (coordinate_count > 0) {
    if (options_.iterated >= coordinate_count) {
      throw WriteError("iterated coordinate " + std::to_string(options_.iterated) +
                       " is out of range (the program has " + std::to_string(coordinate_count) +
                       " coordinates: " + list(p.input_names()) + ")");
    }
    shape.coordinates[options_.iterated] = plan::CoordinateSource::Lane;
  }
  for (size_t c : options_.column_coordinates) {
    if (c >= coordinate_count || c == options_.iterated) {
      throw WriteError("column coordinate " + std::to_string(c) +
                       " must be a coordinate other than the iterated one (the program has " +
                       std::to_string(coordinate_count) + ": " + list(p.input_names()) + ")");
    }
    shape.coordinates[c] = plan::CoordinateSource::Column;
  }

  std::vector<Value> externs;
  for (const ExternInfo& e : p.externs()) externs.push_back(e.default_value);
  for (const auto& [name, value] : options_.externs) {
    auto [index, stored] = p.resolve_extern_write(name, value);
    externs[index] = std::move(stored);
  }
  for (const Value& v : externs) shape.extern_is_none.push_back(v.is_none());
  for (const ExternInfo& e : p.externs()) {
    shape.extern_default_is_none.push_back(e.default_value.is_none());
  }
  runner_ = std::make_unique<cpu::BatchRunner>(program_, shape, options_.coordinates, externs);
  // Every extern's value for the batch, checked: what raise_failure writes
  // into the interpreter state it re-evaluates a failing row on.
  options_.externs.clear();
  for (size_t i = 0; i < externs.size(); ++i) {
    options_.externs.emplace_back(p.externs()[i].name, externs[i]);
  }
}

BatchEvaluator::~BatchEvaluator() = default;

void BatchEvaluator::raise_failure(uint64_t coordinate, uint64_t row,
                                   std::span<const uint64_t* const> columns) const {
  State state(interp::make_interpreter(program_));
  state.set_log_sink([](std::string_view) {});  // the batch refused side channels in its cones
  for (const auto& [name, value] : options_.externs) state.set_input(name, value);
  std::vector<uint64_t> coordinates = options_.coordinates;
  if (!coordinates.empty()) coordinates[options_.iterated] = coordinate;
  for (size_t k = 0; k < options_.column_coordinates.size(); ++k) {
    coordinates[options_.column_coordinates[k]] = columns[k][row];
  }
  state.set_inputs(coordinates);
  for (const std::string& name : names_) state.pull(name);
  internal_error("the batch tier reported a failure at coordinate " + std::to_string(coordinate) +
                 " that the interpreter does not reproduce");
}

template <typename Encoded, typename Encode, typename Write>
void BatchEvaluator::run(uint64_t first, uint64_t count, std::span<const uint64_t* const> columns,
                         const Encode& encode, const Write& write,
                         std::span<uint64_t* const> targets) const {
  if (count == 0) return;
  if (columns.size() != options_.column_coordinates.size()) {
    throw WriteError("the batch has " + std::to_string(options_.column_coordinates.size()) +
                     " column coordinate(s) but got " + std::to_string(columns.size()) +
                     " array(s)");
  }
  // A chunk keeps its buffers (and its encoder's bytes) when it is recycled.
  struct InFlight {
    uint64_t offset = 0;  // rows before this chunk
    uint64_t rows = 0;
    cpu::ChunkBuffers buffers;
    uint64_t failure = plan::kNoFailingRow;
    ColumnChunk view;
    Encoded encoded{};
  };
  scheduler::run_ordered_chunks<InFlight>(
      count, options_.chunk_rows ? options_.chunk_rows : kDefaultChunkRows, options_.threads,
      [&](InFlight& c) {
        cpu::ChunkBuffers& b = c.buffers;
        runner_->prepare(b, c.rows);
        std::vector<const uint64_t*> at;
        for (const uint64_t* column : columns) at.push_back(column + c.offset);
        std::vector<uint64_t*> into;
        for (uint64_t* target : targets) into.push_back(target + c.offset);
        c.failure = runner_->run(b, first + c.offset, c.rows, at, into);
        if (c.failure != plan::kNoFailingRow) return false;
        chunk_view(b, first + c.offset, c.rows, c.view);
        encode(c.view, c.encoded);
        return true;
      },
      [&](InFlight& c) {
        if (c.failure != plan::kNoFailingRow) {
          raise_failure(first + c.offset + c.failure, c.offset + c.failure, columns);
        }
        write(c.view, c.encoded);
        if constexpr (requires { c.encoded.clear(); }) c.encoded.clear();  // keeps capacity
      });
}

void BatchEvaluator::chunk_view(const cpu::ChunkBuffers& b, uint64_t first, uint64_t rows,
                                ColumnChunk& view) const {
  const plan::BatchPlan& plan = runner_->plan();
  view.first = first;
  view.rows = rows;
  view.columns.assign(plan.outputs.size(), ColumnView{});
  for (size_t o = 0; o < plan.outputs.size(); ++o) {
    const BatchValue& v = plan.outputs[o];
    ColumnView& column = view.columns[o];
    column.type = types_[o];
    switch (v.kind) {
      case BatchValue::None:
        column.is_none = true;
        break;
      case BatchValue::Column:
        column.words = b.column_pointers[v.index];
        column.values = b.values[v.index].data();
        break;
      case BatchValue::Scalar:
        column.is_none = runner_->scalar(v.index).is_none();
        column.words = b.filled[o].data();
        column.values = b.filled_values[o].data();
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
  run<Nothing>(
      first, count, columns, [](const ColumnChunk&, Nothing&) {},
      [&](const ColumnChunk& chunk, Nothing&) { consumer(chunk); });
}

void BatchEvaluator::stream_encoded(
    uint64_t first, uint64_t count,
    const std::function<void(const ColumnChunk&, std::string& bytes)>& encode,
    const std::function<void(const ColumnChunk& chunk, std::string& bytes)>& write,
    std::span<const uint64_t* const> columns) const {
  run<std::string>(first, count, columns, encode, write);
}

std::vector<Column> BatchEvaluator::evaluate(uint64_t first, uint64_t count,
                                             std::span<const uint64_t* const> columns) const {
  std::vector<Column> out(names_.size());
  for (size_t o = 0; o < names_.size(); ++o) {
    out[o].name = names_[o];
    out[o].type = types_[o];
  }
  stream(
      first, count,
      [&](const ColumnChunk& chunk) {
        for (size_t o = 0; o < out.size(); ++o) {
          const ColumnView& v = chunk.columns[o];
          out[o].is_none = v.is_none;
          if (v.is_none) continue;
          if (v.type == Type::Str) {
            for (uint64_t r = 0; r < chunk.rows; ++r)
              out[o].strings.push_back(v.values[r].as_str());
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
  if (destinations.size() != names_.size()) {
    throw WriteError("evaluate_into got " + std::to_string(destinations.size()) +
                     " destination(s) for " + std::to_string(names_.size()) + " output(s)");
  }
  for (size_t o = 0; o < names_.size(); ++o) {
    if (types_[o] == Type::Str) {
      throw WriteError("output '" + names_[o] +
                       "' is a str; evaluate_into writes scalar columns (use evaluate or stream)");
    }
  }
  // The kernels write column outputs straight into the destinations; the
  // rest (lane, scalar and repeated outputs) is copied as chunks arrive.
  struct Nothing {};
  run<Nothing>(
      first, count, columns, [](const ColumnChunk&, Nothing&) {},
      [&](const ColumnChunk& chunk, Nothing&) {
        const uint64_t offset = chunk.first - first;
        for (size_t o = 0; o < names_.size(); ++o) {
          const ColumnView& v = chunk.columns[o];
          if (v.is_none || v.words == destinations[o] + offset) continue;
          std::memcpy(destinations[o] + offset, v.words, chunk.rows * 8);
        }
      },
      destinations);
}

std::string BatchEvaluator::kernels_ir() const {
  return cpu::batch_kernels_ir(program_->graph(), runner_->plan());
}

bool BatchEvaluator::output_is_none(size_t index) const {
  const BatchValue& v = runner_->plan().outputs.at(index);
  return v.kind == BatchValue::None ||
         (v.kind == BatchValue::Scalar && runner_->scalar(v.index).is_none());
}

std::string BatchEvaluator::describe() const {
  const plan::BatchPlan& plan = runner_->plan();
  const ir::Graph& g = program_->graph();
  std::string out = "batch plan: " + std::to_string(plan.steps.size()) + " step(s), " +
                    std::to_string(plan.column_types.size()) + " column(s), " +
                    std::to_string(plan.scalar_ports.size()) + " scalar(s)\n";
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const plan::BatchStep& step = plan.steps[s];
    out += "step " + std::to_string(s) +
           (step.kind == plan::BatchStep::Kernel ? ": native kernel [" : ": host [");
    for (size_t k = 0; k < step.nodes.size(); ++k) {
      const ir::Node& n = g.nodes[step.nodes[k]];
      out += (k ? ", " : "") + n.label + " -> " + n.name;
    }
    out += "]\n";
  }
  return out;
}

}  // namespace polyrt

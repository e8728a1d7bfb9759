// The one runner of a traversal's rows: the lattice body in the batch tier,
// or each opening on a per-state engine with its long activations in the
// batch tier, every path handing over the same chunks of the same values.
#include "polyrt/traversal_rows.hpp"

#include <algorithm>
#include <set>
#include <span>

#include "polyrt/cancellation.hpp"
#include "polyrt/traversal.hpp"
#include "scheduler/encoding/row_format.hpp"
#include "scheduler/traversal/value_columns.hpp"

namespace polyrt {

namespace {

// Where a failing row of a traversal is, the same on every path: the parent
// coordinate, every level's elements and, in a body with a cursor, the
// body's cycle ("cycle=7; a=50, f=0.5").
std::string row_place(const std::string& parent, uint64_t coordinate,
                      const std::vector<std::string>& elements, std::span<const Value> values,
                      std::optional<uint64_t> body_cycle) {
  std::string out = parent + "=" + std::to_string(coordinate) + ";";
  for (size_t k = 0; k < elements.size() && k < values.size(); ++k) {
    out += (k ? ", " : " ") + elements[k] + "=" + values[k].to_string();
  }
  if (body_cycle) out += "; body cycle=" + std::to_string(*body_cycle);
  return out;
}

// `e` with its coordinates line (the body's: its cycle, or the lattice
// body's row) naming `place` instead.
[[noreturn]] void fail_at(const EvalError& e, const std::string& place) {
  std::string message = e.what();
  const std::string line = "\n  coordinates: ";
  const size_t at = message.find(line);
  if (at == std::string::npos) {
    message += line + place;
  } else {
    const size_t end = message.find('\n', at + 1);
    message.replace(at, (end == std::string::npos ? message.size() : end) - at, line + place);
  }
  throw EvalError(message, e.node());
}

using ChunkStage = std::function<void(const ColumnChunk&, std::string& bytes)>;

// The caller's two stages, remembering whether one of them threw: its
// errors pass unchanged, never placed as a row's.
class Consumer {
 public:
  // The stages must outlive the consumer.
  Consumer(const ChunkStage& encode, const ChunkStage& write) : encode_(encode), write_(write) {}
  void encode(const ColumnChunk& chunk, std::string& bytes) { call(encode_, chunk, bytes); }
  void write(const ColumnChunk& chunk, std::string& bytes) { call(write_, chunk, bytes); }
  // Both stages, here: rows a per-state engine made.
  void deliver(const ColumnChunk& chunk) {
    bytes_.clear();
    encode(chunk, bytes_);
    write(chunk, bytes_);
  }
  bool threw() const { return threw_.load(); }

 private:
  void call(const ChunkStage& stage, const ColumnChunk& chunk, std::string& bytes) {
    try {
      stage(chunk, bytes);
    } catch (...) {
      threw_ = true;
      throw;
    }
  }
  const ChunkStage& encode_;
  const ChunkStage& write_;
  std::atomic<bool> threw_{false};
  std::string bytes_;
};

// Thrown out of a per-state opening once the rows asked for are made.
struct EnoughRows {};

// Rows [0, rows) of `batch` handed to `to`, numbered from `first_row`, each
// chunk after the columns `lead` makes for it (the parent coordinate, the
// elements: what the batch does not compute), in both stages.
template <typename Lead>
void stream_led(const BatchEvaluator& batch, uint64_t rows, uint64_t first_row, Consumer& to,
                const Lead& lead) {
  const auto led = [&](const ColumnChunk& chunk, const auto& use) {
    traversal::LeadColumns columns;
    lead(chunk, columns);
    ColumnChunk with_lead{first_row + chunk.first, chunk.rows, std::move(columns.views)};
    with_lead.columns.insert(with_lead.columns.end(), chunk.columns.begin(), chunk.columns.end());
    use(with_lead);
  };
  batch.stream_encoded(
      0, rows,
      [&](const ColumnChunk& chunk, std::string& bytes) {
        led(chunk, [&](const ColumnChunk& c) { to.encode(c, bytes); });
      },
      [&](const ColumnChunk& chunk, std::string& bytes) {
        led(chunk, [&](const ColumnChunk& c) { to.write(c, bytes); });
      });
}

}  // namespace

struct TraversalRows::Impl {
  std::shared_ptr<const Program> program;
  TraversalRowsOptions options;
  TraversalInfo info;
  std::vector<size_t> body_outputs;
  std::vector<std::string> names;
  std::vector<Type> types;
  std::vector<LogicalType> logical;
  std::vector<bool> nullable;

  uint64_t chunk_rows() const {
    return options.chunk_rows ? options.chunk_rows : kDefaultChunkRows;
  }
  BatchOptions batch_options(std::vector<std::string> outputs,
                             std::vector<uint64_t> coordinates) const {
    BatchOptions b;
    b.outputs = std::move(outputs);
    b.coordinates = std::move(coordinates);
    b.threads = options.threads;
    b.chunk_rows = options.chunk_rows;
    b.device = options.device;
    b.stop = options.stop;
    return b;
  }
  uint64_t run_lattice(uint64_t first, uint64_t count, uint64_t limit, Consumer& to) const;
  uint64_t run_openings(uint64_t first, uint64_t count, uint64_t limit, Consumer& to) const;
  uint64_t run_activation_in_batch(uint64_t coordinate, std::span<const Value> outer,
                                   const Traversal& t, size_t a, uint64_t cycles,
                                   uint64_t first_row, Consumer& to) const;
};

TraversalRows::TraversalRows(std::shared_ptr<const Program> program, TraversalRowsOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  const Program& p = *program;
  m.info = flattened_traversal_info(p, options.traversal);
  if (p.input_names().empty()) {
    throw WriteError(
        "a traversal's rows are numbered by the program's first input, and this program declares "
        "none; declare one (input cycle)");
  }
  if (options.coordinates.empty()) options.coordinates.assign(p.input_names().size(), 0);
  if (options.coordinates.size() != p.input_names().size()) {
    throw WriteError("a traversal's rows need a value for each of the program's " +
                     std::to_string(p.input_names().size()) + " input(s), got " +
                     std::to_string(options.coordinates.size()));
  }
  const Program& body = *m.info.body;
  if (options.outputs.empty()) options.outputs = body.output_names();
  for (size_t k = 0; k < options.outputs.size(); ++k) {
    const std::string& name = options.outputs[k];
    if (std::find(options.outputs.begin(), options.outputs.begin() + (ptrdiff_t)k, name) !=
        options.outputs.begin() + (ptrdiff_t)k) {
      throw WriteError("the traversal's outputs name '" + name +
                       "' twice; name each column once (a table or a file cannot hold two "
                       "columns of one name)");
    }
    m.body_outputs.push_back(body.require_output(name));
  }
  // The externs are the parent's: a state takes them or says why not.
  State parent = p.new_state();
  for (const auto& [name, value] : options.externs) parent.set_input(name, value);
  m.names = {p.input_names()[0]};
  m.names.insert(m.names.end(), m.info.names.begin(), m.info.names.end());
  m.names.insert(m.names.end(), options.outputs.begin(), options.outputs.end());
  std::set<std::string> seen;
  for (const std::string& c : m.names) {
    if (!seen.insert(c).second) {
      throw WriteError("a traversal's rows would hold two columns named '" + c +
                       "' (the iterated input, the elements and the body's outputs share names)");
    }
  }
  m.types = {Type::U64};
  m.types.insert(m.types.end(), m.info.types.begin(), m.info.types.end());
  m.logical.assign(1 + m.info.names.size(), LogicalType{});
  m.nullable.assign(1 + m.info.names.size(), false);
  for (size_t o : m.body_outputs) {
    m.types.push_back(body.output_type(o));
    m.logical.push_back(body.output_logical_type(o));
    m.nullable.push_back(body.output_nullable(o));
  }
  m.program = std::move(program);
  m.options = std::move(options);
}

TraversalRows::~TraversalRows() = default;
TraversalRows::TraversalRows(TraversalRows&&) noexcept = default;

const std::vector<std::string>& TraversalRows::names() const {
  return impl_->names;
}
const std::vector<Type>& TraversalRows::types() const {
  return impl_->types;
}
const std::vector<LogicalType>& TraversalRows::logical_types() const {
  return impl_->logical;
}
const std::vector<bool>& TraversalRows::nullable() const {
  return impl_->nullable;
}

TraversalRows::BatchRows TraversalRows::batch_rows() const {
  if (!impl_->options.batch) return BatchRows::None;
  if (impl_->info.lattice_body) return BatchRows::All;
  return impl_->info.cursors ? BatchRows::LongActivations : BatchRows::None;
}

std::optional<uint64_t> TraversalRows::rows_of(uint64_t count) const {
  if (batch_rows() != BatchRows::All) return std::nullopt;
  const uint64_t tuples = impl_->info.lattice_tuples;
  if (count > ~uint64_t{0} / tuples) {
    throw WriteError(std::to_string(count) + " parent coordinates of " + std::to_string(tuples) +
                     " tuples each are more than 2^64 - 1 rows");
  }
  return count * tuples;
}

uint64_t TraversalRows::stream(uint64_t first, uint64_t count, const ChunkStage& encode,
                               const ChunkStage& write) const {
  Consumer to(encode, write);
  // A stop also ends an opening's materialization and a partition list's
  // peeling, which poll the thread's scope.
  const CancellationScope cancellable(impl_->options.stop);
  if (rows_of(count)) return impl_->run_lattice(first, count, ~uint64_t{0}, to);  // they fit
  return impl_->run_openings(first, count, ~uint64_t{0}, to);
}

std::vector<Column> TraversalRows::evaluate(uint64_t first, uint64_t count,
                                            uint64_t max_rows) const {
  const Impl& m = *impl_;
  std::vector<Column> out;
  for (size_t k = 0; k < m.names.size(); ++k) {
    out.push_back(Column::empty(m.names[k], m.types[k], m.logical[k]));
  }
  const ChunkStage none = [](const ColumnChunk&, std::string&) {};
  const ChunkStage append = [&](const ColumnChunk& chunk, std::string&) {
    for (size_t k = 0; k < out.size(); ++k) out[k].append(chunk.columns[k], chunk.rows);
  };
  Consumer to(none, append);
  const CancellationScope cancellable(m.options.stop);
  if (batch_rows() == BatchRows::All) {
    if (max_rows == ~uint64_t{0}) rows_of(count);  // all of them: they must fit a u64
    m.run_lattice(first, count, max_rows, to);
  } else {
    m.run_openings(first, count, max_rows, to);
  }
  return out;
}

// Every row from the lattice body, in the batch tier: row r is parent
// coordinate first + r / tuples and tuple r mod tuples (the body's rows
// depend on the tuple alone). The parent column is made per chunk.
uint64_t TraversalRows::Impl::run_lattice(uint64_t first, uint64_t count, uint64_t limit,
                                          Consumer& to) const {
  const uint64_t tuples = info.lattice_tuples;
  // min(count * tuples, limit), without overflow.
  const uint64_t rows = count > limit / tuples ? limit : std::min(count * tuples, limit);
  std::vector<std::string> outputs = info.names;
  outputs.insert(outputs.end(), options.outputs.begin(), options.outputs.end());
  const BatchEvaluator batch(info.lattice_body, batch_options(outputs, {0, 0}));
  if (options.on_batch) {
    options.on_batch(batch,
                     "the traversal's " + std::to_string(tuples) + " tuples per coordinate run");
  }
  try {
    stream_led(batch, rows, 0, to, [&](const ColumnChunk& chunk, traversal::LeadColumns& lead) {
      std::vector<uint64_t>& parents = lead.words.emplace_back(chunk.rows);
      for (uint64_t r = 0; r < chunk.rows; ++r) parents[r] = first + (chunk.first + r) / tuples;
      lead.views.push_back(ColumnView{.type = Type::U64, .words = parents.data()});
    });
  } catch (const EvalError& e) {
    if (to.threw() || e.coordinates().empty()) throw;
    // Row r of the lattice body is tuple r mod tuples of coordinate
    // first + r / tuples; its elements are the lattice body's first outputs.
    const uint64_t r = e.coordinates()[0];
    BatchOptions at_row = batch_options(info.names, {0, 0});
    at_row.threads = 1;
    at_row.device = BatchDevice::Cpu;
    std::vector<Value> elements;
    for (const Column& c : BatchEvaluator(info.lattice_body, at_row).evaluate(r, 1)) {
      elements.push_back(c.value(0));
    }
    fail_at(e, row_place(program->input_names()[0], first + r / tuples, info.names, elements, {}));
  }
  return rows;
}

// Activation `a`'s first `cycles` rows through the batch tier: the body over
// its cycles, its values as scalars, the coordinate and the elements (the
// enclosing levels' `outer`, then its own) added per chunk, the rows
// numbered from `first_row`.
uint64_t TraversalRows::Impl::run_activation_in_batch(uint64_t coordinate,
                                                      std::span<const Value> outer,
                                                      const Traversal& t, size_t a, uint64_t cycles,
                                                      uint64_t first_row, Consumer& to) const {
  BatchOptions b = batch_options(options.outputs, {0});
  b.externs = t.activation_externs(a);
  const BatchEvaluator batch(t.body().shared_from_this(), b);
  for (size_t o = 0; o < body_outputs.size(); ++o) {
    if (batch.output_is_none(o)) {
      const EvalError e = scheduler::none_output_error(b.outputs[o], coordinate);
      throw EvalError(e.what(), e.node(), {0});  // its first row, the body's cycle 0
    }
  }
  if (options.on_batch) {
    options.on_batch(batch, "activation " + std::to_string(a) + " (" + std::to_string(t.cycles(a)) +
                                " cycles) runs");
  }
  stream_led(batch, cycles, first_row, to,
             [&](const ColumnChunk& chunk, traversal::LeadColumns& lead) {
               lead.add(Value::u64(coordinate), chunk.rows);
               for (const Value& v : outer) lead.add(v, chunk.rows);
               for (const Value& v : t.tuples()[a]) lead.add(v, chunk.rows);
             });
  return cycles;
}

// Each opening materialized on a per-state engine, each activation's cycles
// pulled there (one state, its cycle advanced), in chunks of chunk_rows();
// an activation of kBatchActivationCycles or more runs as one batch.
uint64_t TraversalRows::Impl::run_openings(uint64_t first, uint64_t count, uint64_t limit,
                                           Consumer& to) const {
  traversal::ValueColumns pending(types, logical);
  uint64_t delivered = 0;
  const auto flush = [&] {
    if (pending.rows() == 0) return;
    to.deliver(pending.chunk(delivered));
    delivered += pending.rows();
    pending.clear();
  };
  const auto add_row = [&](uint64_t coordinate, std::span<const Value> outer,
                           std::span<const Value> tuple, std::span<const Value> values) {
    size_t k = 0;
    pending.add(k++, Value::u64(coordinate));
    for (const Value& v : outer) pending.add(k++, v);
    for (const Value& v : tuple) pending.add(k++, v);
    for (const Value& v : values) {
      if (v.is_none() && !nullable[k]) throw scheduler::none_output_error(names[k], coordinate);
      pending.add(k++, v);
    }
    pending.end_row();
  };
  try {
    for_each_opening(
        *program, options.traversal, first, count, options.coordinates, options.externs,
        [&](uint64_t coordinate, const Traversal& opening) {
          for_each_innermost_activation(
              opening, [&](std::span<const Value> outer, const Traversal& t, size_t a) {
                if (delivered + pending.rows() >= limit) throw EnoughRows{};
                throw_if_cancelled("writing a traversal's rows");
                try {
                  const uint64_t cycles = t.cycles(a);
                  // The rows of it that are wanted.
                  const uint64_t wanted = std::min(cycles, limit - delivered - pending.rows());
                  if (options.batch && wanted >= kBatchActivationCycles) {
                    flush();
                    delivered +=
                        run_activation_in_batch(coordinate, outer, t, a, wanted, delivered, to);
                    return;
                  }
                  State body = t.activation(a);
                  std::vector<Value> values(body_outputs.size());
                  for (uint64_t cycle = 0; cycle < cycles; ++cycle) {
                    if (delivered + pending.rows() >= limit) throw EnoughRows{};
                    throw_if_cancelled("writing a traversal's rows");
                    try {
                      if (cycle) body.set_inputs(std::vector<uint64_t>{cycle});
                      for (size_t o = 0; o < body_outputs.size(); ++o) {
                        values[o] = body.pull_at(body_outputs[o]);
                      }
                      add_row(coordinate, outer, t.tuples()[a], values);
                    } catch (const EvalError& e) {
                      throw EvalError(e.what(), e.node(), {cycle});  // the body's coordinates
                    }
                    if (pending.rows() >= chunk_rows()) flush();
                  }
                } catch (const EvalError& e) {
                  if (to.threw()) throw;
                  std::vector<Value> elements(outer.begin(), outer.end());
                  const std::vector<Value>& tuple = t.tuples()[a];
                  elements.insert(elements.end(), tuple.begin(), tuple.end());
                  const bool cursor = info.cursors && !e.coordinates().empty();
                  fail_at(e, row_place(program->input_names()[0], coordinate, info.names, elements,
                                       cursor ? std::optional(e.coordinates()[0]) : std::nullopt));
                }
              });
        });
  } catch (const EnoughRows&) {
  }
  flush();
  return delivered;
}

}  // namespace polyrt

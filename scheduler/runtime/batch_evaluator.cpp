// The public batch API over its back ends (the façade): options resolved
// into back ends (batch_evaluator_impl.hpp), `--device auto`'s choice, every
// call's chunks run by devices_call.hpp (on one device a oneTBB pipeline of
// chunks: serial issue, parallel evaluation and encoding, in-order delivery;
// on several the devices' own workers), chunk buffers recycled, failures
// re-evaluated on the interpreter, device-resident output.
#include <algorithm>
#include <cstring>
#include <new>
#include <optional>

#include "columns/native_columns.hpp"
#include "interp/interpreter.hpp"
#include "io/buffer_sizes.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/numeric_types.hpp"
#include "scheduler/encoding/row_format.hpp"
#include "scheduler/runtime/auto_devices.hpp"
#include "scheduler/runtime/batch_evaluator_impl.hpp"
#include "scheduler/runtime/devices_call.hpp"

namespace polyrt {

using evaluation::is_narrow;
using evaluation::RowBytes;
using plan::BatchValue;

void BatchEvaluator::Impl::require_word_columns(const char* call, size_t given, bool narrow_ok,
                                                bool text_ok) const {
  if (given != setup.names.size()) {
    throw WriteError(std::string(call) + " got " + std::to_string(given) + " array(s) for " +
                     std::to_string(setup.names.size()) + " output(s)");
  }
  for (size_t o = 0; o < setup.names.size(); ++o) {
    if (setup.presence[o]) {
      throw WriteError("output '" + setup.names[o] + "' may be null; " + call +
                       " writes columns of values only (use evaluate or stream, whose columns "
                       "say which rows are null, or default_or(value, fallback))");
    }
    if (is_payload(setup.types[o]) && !text_ok) {
      throw WriteError("output '" + setup.names[o] + "' is a " +
                       std::string(type_name(setup.types[o])) + "; " + call +
                       " writes 8-byte word columns (use evaluate or stream, or "
                       "evaluate_to_device for text and vectors in device memory)");
    }
    if (!narrow_ok && is_narrow(setup.types[o])) {
      throw WriteError("output '" + setup.names[o] + "' is a " +
                       std::string(type_name(setup.types[o])) + "; " + call +
                       " writes 8-byte word columns (cast it to u64, i64 or f64, or use "
                       "evaluate_into)");
    }
  }
}

size_t BatchEvaluator::Impl::capacity(size_t b) const {
  if (const size_t slots = backends[b]->scheduling().slots) return slots;
  const auto cores = (size_t)tbb::info::default_concurrency();
  return options.threads ? std::min(options.threads, cores) : cores;
}

scheduler::DeviceLimits BatchEvaluator::Impl::limits_of(size_t b) const {
  const batch::SchedulingLimits policy = backends[b]->scheduling();
  const uint64_t rows = chunk_rows(*backends[b]);
  if (policy.frontier) {
    // Its rows in order, in chunks of up to pieces_per_chunk pieces.
    return scheduler::DeviceLimits{.slots = capacity(b),
                                   .frontier = true,
                                   .first_rows = rows,
                                   .min_rows = rows,
                                   .max_rows = policy.pieces_per_chunk * rows,
                                   .chunk_seconds = policy.chunk_seconds};
  }
  // Its first chunk measures it. Under Auto, whose choice rests on that
  // measure, it is a full chunk: a small one times a GPU's fixed costs (its
  // launches, copies and waits), not its speed, and left a fast GPU out.
  // Otherwise it is small, and its chunks grow to chunk_seconds of its work,
  // up to its chunk rows, as they measure it.
  return scheduler::DeviceLimits{.slots = capacity(b),
                                 .first_rows = automatic() ? rows : kDefaultChunkRows,
                                 .min_rows = kDefaultChunkRows,
                                 .max_rows = rows,
                                 .chunk_seconds = policy.chunk_seconds};
}

BatchEvaluator::BatchEvaluator(std::shared_ptr<const Program> program, BatchOptions options)
    : impl_(new Impl) {
  impl_->options = std::move(options);
  impl_->setup = scheduler::resolve_batch_options(*program, impl_->options);
  scheduler::ChosenBackend chosen =
      scheduler::make_batch_backend(std::move(program), impl_->setup, impl_->options);
  impl_->backends = std::move(chosen.backends);
  impl_->fallback_reason = std::move(chosen.fallback_reason);
  impl_->left_out = std::move(chosen.left_out);
  impl_->gpu = chosen.gpu;
  for (size_t b = 0; b < impl_->backends.size(); ++b) {
    if (impl_->backends[b]->scheduling().frontier && impl_->backends.size() > 1) {
      impl_->frontier = (int)b;
    }
    if (impl_->first_gpu < 0 && impl_->backends[b]->device().kind == batch::DeviceKind::Gpu) {
      impl_->first_gpu = (int)b;
    }
  }
  if (impl_->backends.size() > 1) {
    for (size_t b = 0; b < impl_->backends.size(); ++b) {
      impl_->limits.push_back(impl_->limits_of(b));
    }
  }
  impl_->meters = std::make_unique<scheduler::DeviceMeter[]>(impl_->backends.size());
}

BatchEvaluator::~BatchEvaluator() = default;

const std::vector<std::string>& BatchEvaluator::output_names() const {
  return impl_->setup.names;
}

const std::vector<Type>& BatchEvaluator::output_types() const {
  return impl_->setup.types;
}

const std::vector<std::optional<uint64_t>>& BatchEvaluator::output_dimensions() const {
  return impl_->setup.dimensions;
}

const std::vector<LogicalType>& BatchEvaluator::output_logical_types() const {
  return impl_->setup.logical_types;
}

bool BatchEvaluator::output_nullable(size_t index) const {
  return impl_->setup.presence.at(index).has_value();
}

std::string BatchEvaluator::device_name() const {
  std::string name;
  for (const auto& backend : impl_->backends) {
    name += (name.empty() ? "" : " + ") + backend->device_name();
  }
  return impl_->fallback_reason.empty() ? name : name + " (no GPU: " + impl_->fallback_reason + ")";
}

std::vector<DeviceShare> BatchEvaluator::device_shares() const {
  std::vector<DeviceShare> shares;
  for (size_t b = 0; b < impl_->backends.size(); ++b) {
    shares.push_back(DeviceShare{impl_->backends[b]->device_name(), impl_->meters[b].rows(),
                                 impl_->meters[b].active_seconds()});
  }
  return shares;
}

std::string BatchEvaluator::device_choice() const {
  const std::lock_guard lock(impl_->auto_lock);
  return impl_->auto_reason;
}

const std::vector<std::string>& BatchEvaluator::left_out_devices() const {
  return impl_->left_out;
}

std::vector<std::string> BatchEvaluator::device_faults() const {
  const std::lock_guard lock(impl_->faults_lock);
  std::vector<std::string> out;
  for (const auto& [device, message] : impl_->faults) out.push_back(message);
  return out;
}

void BatchEvaluator::Impl::raise_failure(uint64_t coordinate, uint64_t row,
                                         std::span<const uint64_t* const> columns) const {
  const Program& p = *primary().batch().program;
  State state(interp::make_interpreter(primary().batch().program, primary().batch().graph()));
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
  try {
    for (const std::string& name : setup.names) state.pull(name);
  } catch (const EvalError& e) {
    throw EvalError(e.what(), e.node(), coordinates);
  }
  internal_error("the batch tier reported a failure at coordinate " + std::to_string(coordinate) +
                 " that the interpreter does not reproduce");
}

uint64_t BatchEvaluator::Impl::auto_probe_rows() const {
  // Room for each device's first chunk, a full one, beside the frontier's.
  uint64_t rows = scheduler::kAutoProbeRows;
  for (const scheduler::DeviceLimits& limit : limits) {
    if (!limit.frontier) rows = std::max(rows, 2 * limit.first_rows);
  }
  return rows;
}

std::vector<uint8_t> BatchEvaluator::Impl::auto_devices() const {
  const std::lock_guard lock(auto_lock);
  if (!auto_use.empty()) return auto_use;
  std::vector<double> rates;
  std::vector<std::string> names;
  for (size_t b = 0; b < backends.size(); ++b) {
    rates.push_back(meters[b].slot_rate() * (double)capacity(b));
    if (rates.back() <= 0) return {};
    names.push_back(backends[b]->device_name());
  }
  scheduler::AutoChoice choice = scheduler::choose_auto_devices(rates, names);
  auto_use = std::move(choice.use);
  auto_reason = std::move(choice.reason);
  return auto_use;
}

void BatchEvaluator::Impl::auto_cpu_only(const std::string& why) const {
  const std::lock_guard lock(auto_lock);
  auto_use.assign(backends.size(), 0);
  auto_use[frontier] = 1;
  auto_reason = "chose cpu: " + why;
}

template <typename Encoded, typename Encode, typename Write>
void BatchEvaluator::Impl::run(uint64_t first, uint64_t count,
                               std::span<const uint64_t* const> columns, const Encode& encode,
                               const Write& write, std::span<uint64_t* const> targets,
                               std::span<const uint64_t> device_targets,
                               const batch::RowEncoding* rows,
                               std::span<batch::DeviceText* const> device_texts) const {
  if (count == 0) return;
  io::check_coordinate_range(first, count, "the batch's rows");
  if (columns.size() != options.column_coordinates.size()) {
    throw WriteError("the batch has " + std::to_string(options.column_coordinates.size()) +
                     " column coordinate(s) but got " + std::to_string(columns.size()) +
                     " array(s)");
  }
  std::vector<uint8_t> use(backends.size(), 1);
  if (!device_targets.empty() && backends.size() > 1) {
    // Auto's device-resident output: its first GPU alone.
    use.assign(backends.size(), 0);
    use[first_gpu] = 1;
  } else if (automatic()) {
    std::vector<uint8_t> chosen = auto_devices();
    if (chosen.empty()) {
      // Every device runs the first rows, which measure them; the rest go
      // to the devices chosen then.
      const uint64_t probe = std::min(count, auto_probe_rows());
      run_on_devices<Encoded>(use, first, probe, columns, encode, write, targets, device_targets,
                              rows, device_texts);
      if (probe == count) return;
      std::vector<const uint64_t*> later_columns;
      for (const uint64_t* column : columns) later_columns.push_back(column + probe);
      std::vector<uint64_t*> later_targets;
      for (uint64_t* target : targets) later_targets.push_back(target ? target + probe : nullptr);
      chosen = auto_devices();
      run_on_devices<Encoded>(chosen.empty() ? use : chosen, first + probe, count - probe,
                              later_columns, encode, write, later_targets, device_targets, rows,
                              device_texts);
      return;
    }
    use = std::move(chosen);
  }
  run_on_devices<Encoded>(use, first, count, columns, encode, write, targets, device_targets, rows,
                          device_texts);
}

template <typename Encoded, typename Encode, typename Write>
void BatchEvaluator::Impl::run_on_devices(const std::vector<uint8_t>& use, uint64_t first,
                                          uint64_t count, std::span<const uint64_t* const> columns,
                                          const Encode& encode, const Write& write,
                                          std::span<uint64_t* const> targets,
                                          std::span<const uint64_t> device_targets,
                                          const batch::RowEncoding* rows,
                                          std::span<batch::DeviceText* const> device_texts) const {
  DevicesCall<Encoded, Encode, Write>(*this, use, first, count, columns, encode, write, targets,
                                      device_targets, rows, device_texts)
      .run();
}

void BatchEvaluator::Impl::chunk_view(const batch::PreparedBatch& batch,
                                      const batch::ChunkBuffers& b, uint64_t first,
                                      ColumnChunk& view) const {
  const plan::BatchPlan& plan = batch.plan;
  view.first = first;
  view.rows = b.rows;
  view.columns.assign(plan.outputs.size(), ColumnView{});
  for (size_t o = 0; o < plan.outputs.size(); ++o) {
    const BatchValue& v = plan.outputs[o];
    ColumnView& column = view.columns[o];
    const bool presence = o >= setup.types.size();  // a nullable output's presence word
    column.type = presence ? Type::U64 : setup.types[o];
    column.logical = presence ? LogicalType{} : setup.logical_types[o];
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
        column.is_none = batch.scalars[v.index].is_none();
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
  for (size_t o = 0; o < setup.presence.size(); ++o) {
    if (setup.presence[o]) view.columns[o].present = view.columns[*setup.presence[o]].words;
  }
  view.columns.resize(setup.names.size());
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

void BatchEvaluator::stream_rows(
    uint64_t first, uint64_t count, RowFormat format,
    const std::function<void(uint64_t first, uint64_t rows, std::string_view bytes)>& write,
    std::span<const uint64_t* const> columns) const {
  const std::vector<std::string>& names = output_names();
  for (size_t o = 0; o < names.size() && count; ++o) {
    if (output_is_none(o)) throw scheduler::none_output_error(names[o], first, unset_externs());
  }
  const std::vector<LogicalType>& logical_types = impl_->setup.logical_types;
  const batch::RowEncoding rows =
      scheduler::row_encoding(format, names, logical_types, impl_->primary().batch());
  // The device's row kernels write numbers, not the logical types' text, and
  // no nulls: rows with a logical or a nullable column are encoded here.
  const bool rows_anywhere =
      std::all_of(logical_types.begin(), logical_types.end(),
                  [](LogicalType t) { return t.is_none(); }) &&
      std::none_of(impl_->setup.presence.begin(), impl_->setup.presence.end(),
                   [](const std::optional<size_t>& p) { return p.has_value(); });
  impl_->run<RowBytes>(
      first, count, columns,
      [&](const ColumnChunk& chunk, RowBytes& bytes) {
        scheduler::append_rows(bytes.text, format, names, chunk);
      },
      [&](const ColumnChunk& chunk, RowBytes& bytes) {
        write(chunk.first, chunk.rows, bytes.on_device ? *bytes.on_device : bytes.text);
      },
      {}, {}, rows_anywhere ? &rows : nullptr);
}

std::vector<Column> BatchEvaluator::evaluate(uint64_t first, uint64_t count,
                                             std::span<const uint64_t* const> columns) const {
  std::vector<Column> out(output_names().size());
  io::BufferSizes sizes("BatchEvaluator::evaluate(" + std::to_string(first) + ", " +
                        std::to_string(count) + ")");
  for (size_t o = 0; o < out.size(); ++o) sizes.add(count, 8);
  sizes.check_memory();
  for (size_t o = 0; o < out.size(); ++o) {
    out[o] = Column::empty(output_names()[o], output_types()[o], impl_->setup.logical_types[o]);
  }
  stream(
      first, count,
      [&](const ColumnChunk& chunk) {
        for (size_t o = 0; o < out.size(); ++o) {
          if (chunk.first == first) out[o].reserve(count, chunk.columns[o], chunk.rows);
          out[o].append(chunk.columns[o], chunk.rows);
        }
      },
      columns);
  return out;
}

void BatchEvaluator::evaluate_into(uint64_t first, uint64_t count,
                                   std::span<uint64_t* const> destinations,
                                   std::span<const uint64_t* const> columns) const {
  impl_->require_word_columns("evaluate_into", destinations.size(), true);
  const std::vector<std::string>& names = output_names();
  const std::vector<Type>& types = output_types();
  // The kernels write 8-byte column outputs straight into the destinations;
  // the rest (narrow, lane, scalar and repeated outputs) is copied as chunks
  // arrive, narrow ones at their native width.
  std::vector<uint64_t*> direct(destinations.begin(), destinations.end());
  for (size_t o = 0; o < names.size(); ++o) {
    if (is_narrow(types[o])) direct[o] = nullptr;
  }
  struct Nothing {};
  impl_->run<Nothing>(
      first, count, columns, [](const ColumnChunk&, Nothing&) {},
      [&](const ColumnChunk& chunk, Nothing&) {
        const uint64_t offset = chunk.first - first;
        for (size_t o = 0; o < names.size(); ++o) {
          const ColumnView& v = chunk.columns[o];
          if (v.is_none || v.words == destinations[o] + offset) continue;
          if (is_narrow(types[o])) {
            char* at = reinterpret_cast<char*>(destinations[o]) + offset * native_width(types[o]);
            columns::copy_native(types[o], v.words, chunk.rows, at);
          } else {
            std::memcpy(destinations[o] + offset, v.words, chunk.rows * 8);
          }
        }
      },
      direct);
}

void BatchEvaluator::evaluate_on_device(uint64_t first, uint64_t count,
                                        std::span<const uint64_t> device_columns,
                                        std::span<const uint64_t* const> columns) const {
  impl_->require_word_columns("evaluate_on_device", device_columns.size());
  for (size_t o = 0; o < device_columns.size(); ++o) {
    // Kernels store 8-byte words there directly: an unaligned store faults.
    if (device_columns[o] % 8 != 0) {
      throw WriteError("evaluate_on_device: the device column of output '" + output_names()[o] +
                       "' is at " + std::to_string(device_columns[o]) +
                       ", not a multiple of 8; columns hold 8-byte words");
    }
  }
  if (impl_->backends.size() > 1 && impl_->gpu < 0) {
    throw WriteError("evaluate_on_device writes to one GPU's memory; the batch runs on " +
                     device_name() + " (use BatchDevice::Gpu or Auto)");
  }
  struct Nothing {};
  impl_->run<Nothing>(
      first, count, columns, [](const ColumnChunk&, Nothing&) {},
      [](const ColumnChunk&, Nothing&) {}, {}, device_columns);
}

std::vector<DeviceColumn> BatchEvaluator::evaluate_to_device(
    uint64_t first, uint64_t count, std::span<const uint64_t* const> columns) const {
  impl_->require_word_columns("evaluate_to_device", output_names().size(), false, true);
  if (impl_->gpu < 0) {
    throw WriteError("evaluate_to_device allocates on the batch's GPU; the batch runs on " +
                     device_name() + " (use BatchDevice::Gpu or Auto with a usable GPU)");
  }
  // Checked before anything is allocated: a wrapped size would be written past.
  io::check_coordinate_range(first, count, "evaluate_to_device");
  io::BufferSizes sizes("evaluate_to_device(" + std::to_string(first) + ", " +
                        std::to_string(count) + ")");
  for (size_t o = 0; o < output_names().size(); ++o) {
    sizes.add(std::max<uint64_t>(count, 1), 8);
    if (is_payload(output_types()[o])) sizes.add(1, 8);  // rows + 1 offsets (count + 1 may wrap)
  }
  // The device output goes to (BatchDevice::Gpu's, or Auto's first GPU).
  const batch::BatchBackend& holder = *impl_->backends[impl_->first_gpu];
  const batch::BackendDevice device = holder.device();
  std::vector<DeviceColumn> out(output_names().size());
  std::vector<uint64_t> addresses(out.size(), 0);
  // Text outputs: their offsets now, their bytes as the chunks arrive.
  std::vector<batch::DeviceText> texts(out.size());
  std::vector<batch::DeviceText*> text_targets(out.size(), nullptr);
  for (size_t o = 0; o < out.size(); ++o) {
    out[o] = DeviceColumn{
        output_names()[o], output_types()[o], device.kind, device.index, 0, count, 0, 0, nullptr};
    if (output_is_none(o)) continue;
    if (is_payload(output_types()[o])) {
      texts[o].rows = count;
      texts[o].offsets = holder.allocate_device_memory((count + 1) * 8);
      if (count) text_targets[o] = &texts[o];
      continue;
    }
    batch::DeviceMemory memory = holder.allocate_device_memory(std::max<uint64_t>(count, 1) * 8);
    out[o].address = addresses[o] = memory.address;
    out[o].memory = std::move(memory.owner);
  }
  struct Nothing {};
  impl_->run<Nothing>(
      first, count, columns, [](const ColumnChunk&, Nothing&) {},
      [](const ColumnChunk&, Nothing&) {}, {}, addresses, nullptr, text_targets);
  for (size_t o = 0; o < out.size(); ++o) {
    if (!texts[o].offsets.owner) continue;
    batch::DeviceText& text = texts[o];
    if (count == 0) {
      // No chunk ran: the one offset is 0.
      const int64_t zero = 0;
      holder.copy_to_device(&zero, text.offsets.address, 8);
    }
    out[o].address = text.offsets.address;
    out[o].text_address = text.bytes.address;
    out[o].text_bytes = text.size;
    out[o].memory = std::make_shared<std::pair<batch::DeviceMemory, batch::DeviceMemory>>(
        std::move(text.offsets), std::move(text.bytes));
  }
  return out;
}

Column BatchEvaluator::to_host(const DeviceColumn& column) const {
  Column out{column.name, column.type, column.address == 0, {}, {}, {}};
  if (out.is_none) return out;
  const batch::BatchBackend& holder = *impl_->backends[std::max(impl_->first_gpu, 0)];
  const batch::BackendDevice device = holder.device();
  if (device.kind != column.kind || device.index != column.device) {
    throw WriteError("to_host: column '" + column.name + "' is on " +
                     (column.kind == DeviceKind::Gpu ? "gpu " : "cpu ") +
                     std::to_string(column.device) + ", not on this batch's " + device.name);
  }
  // A column's sizes as given (it may not be evaluate_to_device's): checked
  // before anything is allocated.
  io::BufferSizes sizes("to_host('" + column.name + "')");
  sizes.add(column.rows, 8);
  sizes.add(is_payload(column.type) ? 1 : 0, 8);
  sizes.add(column.text_bytes, 1);
  sizes.check_memory();
  if (!is_payload(column.type)) {
    out.words.resize(column.rows);
    holder.copy_to_host(column.address, out.words.data(), column.rows * 8);
    return out;
  }
  out.offsets.resize(column.rows + 1);
  holder.copy_to_host(column.address, out.offsets.data(), (column.rows + 1) * 8);
  out.bytes.resize(column.text_bytes);
  holder.copy_to_host(column.text_address, out.bytes.data(), column.text_bytes);
  return out;
}

bool BatchEvaluator::output_is_none(size_t index) const {
  const BatchValue& v = impl_->plan().outputs.at(index);
  const batch::PreparedBatch& prepared = impl_->primary().batch();
  // A scalar whose node failed is not None: every row fails with its error.
  return v.kind == BatchValue::None || (v.kind == BatchValue::Scalar && !prepared.scalars_failed &&
                                        prepared.scalars[v.index].is_none());
}

std::vector<std::string> BatchEvaluator::unset_externs() const {
  const Program& p = *impl_->primary().batch().program;
  std::vector<std::string> unset;
  for (size_t e = 0; e < impl_->setup.externs.size(); ++e) {
    if (impl_->setup.externs[e].is_none()) unset.push_back(p.externs()[e].name);
  }
  return unset;
}

std::string BatchEvaluator::describe() const {
  return plan::describe_batch_plan(impl_->primary().batch().graph(), impl_->plan());
}

}  // namespace polyrt

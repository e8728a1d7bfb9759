// BatchEvaluator's chunk runs on its devices: a call's chunks on one
// device's ordered pipeline or on several devices' own workers, each run on
// its back end (or on the CPU once a GPU faulted), encoded (a large one in
// parts on every core) and delivered in order. Included by
// batch_evaluator.cpp only, which instantiates it.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "polyrt/numeric_types.hpp"
#include "scheduler/runtime/batch_evaluator_impl.hpp"
#include "scheduler/runtime/device_chunks.hpp"
#include "scheduler/runtime/ordered_chunks.hpp"
#include "scheduler/runtime/stop_flag.hpp"

namespace polyrt::evaluation {

// Whether an output's arrays hold fewer than 8 bytes a row (bool columns
// stay 8-byte words 0/1, as they always were).
inline bool is_narrow(Type type) {
  return type != Type::Bool && !is_payload(type) && native_width(type) < 8;
}

// A large chunk's parts on every core (batch::ChunkBuffers::
// parts_on_every_core), in a oneTBB context of their own: when another chunk
// throws, oneTBB cancels the pipeline's tasks and, with a bound context,
// these parts too, leaving the chunk half-done while its code goes on
// reading it.
inline void run_parts_isolated(size_t count, const std::function<void(size_t)>& part) {
  tbb::task_group_context isolated(tbb::task_group_context::isolated);
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, count, 1),
      [&](const tbb::blocked_range<size_t>& r) {
        for (size_t k = r.begin(); k < r.end(); ++k) part(k);
      },
      isolated);
}

// Rows [begin, begin + rows) of `chunk`, as a chunk of their own.
inline ColumnChunk part_of(const ColumnChunk& chunk, uint64_t begin, uint64_t rows) {
  ColumnChunk part{chunk.first + begin, rows, chunk.columns};
  for (ColumnView& v : part.columns) {
    if (v.words) v.words += begin;
    if (v.offsets) v.offsets += begin;
  }
  return part;
}

// stream_rows's bytes of a chunk: encoded on the workers (`text`), or by
// its back end where it made the chunk (a GPU's, in its page-locked memory
// until the chunk's buffers are prepared again).
struct RowBytes {
  std::string text;
  std::optional<std::string_view> on_device;
  void clear() {
    text.clear();
    on_device.reset();
  }
};

// The text a chunk's encoder appends to.
inline std::string& text_of(std::string& encoded) {
  return encoded;
}
inline std::string& text_of(RowBytes& encoded) {
  return encoded.text;
}

// A chunk encoded in parts of batch::kPartRows, each into a buffer of its
// own, joined in order (stream_encoded's `encode` is row-local and
// thread-safe).
template <typename Encoded, typename Encode>
void encode_in_parts(const ColumnChunk& chunk, Encoded& encoded, std::vector<Encoded>& parts,
                     const Encode& encode, const batch::ForEachPart& for_each_part) {
  const uint64_t part_rows = batch::kPartRows;
  const size_t count = (size_t)((chunk.rows + part_rows - 1) / part_rows);
  parts.resize(count);
  for_each_part(count, [&](size_t k) {
    const uint64_t begin = k * part_rows;
    text_of(parts[k]).clear();
    encode(part_of(chunk, begin, std::min(part_rows, chunk.rows - begin)), parts[k]);
  });
  std::string& text = text_of(encoded);
  size_t bytes = text.size();
  for (Encoded& part : parts) bytes += text_of(part).size();
  text.reserve(bytes);
  for (Encoded& part : parts) text += text_of(part);
}

}  // namespace polyrt::evaluation

namespace polyrt {

// One run_on_devices call: its arguments, and the stages each chunk goes
// through (run on its device, or the CPU after a GPU fault; encode;
// deliver in order), on one device's pipeline or on several devices'.
template <typename Encoded, typename Encode, typename Write>
class BatchEvaluator::Impl::DevicesCall {
 public:
  // A chunk keeps its buffers (one set per back end: a GPU's hold its
  // device memory) and its encoder's bytes when it is recycled, and gives
  // the buffers back to the evaluator's pool when the call ends.
  // offset, rows and device: which back end runs it.
  struct InFlight : scheduler::DeviceChunk {
    const Impl* owner = nullptr;  // set with `buffers`, from its pool
    std::vector<batch::ChunkBuffers> buffers;
    ~InFlight() {
      if (owner) owner->give_back(std::move(buffers));
    }
    uint64_t failure = plan::kNoFailingRow;
    ColumnChunk view;
    Encoded encoded{};
    std::vector<Encoded> parts;  // encode_in_parts's buffers
  };

  DevicesCall(const Impl& impl, const std::vector<uint8_t>& use, uint64_t first, uint64_t count,
              std::span<const uint64_t* const> columns, const Encode& encode, const Write& write,
              std::span<uint64_t* const> targets, std::span<const uint64_t> device_targets,
              const batch::RowEncoding* rows, std::span<batch::DeviceText* const> device_texts)
      : impl_(impl),
        first_(first),
        count_(count),
        columns_(columns),
        encode_(encode),
        write_(write),
        targets_(targets),
        device_targets_(device_targets),
        rows_(rows),
        device_texts_(device_texts),
        several_(std::count(use.begin(), use.end(), 1) > 1),
        lone_((size_t)(std::find(use.begin(), use.end(), 1) - use.begin())),
        // A GPU that faults takes no more rows and the CPU (the frontier)
        // runs the rows it had taken (each chunk as its worker sees the
        // fault): the output is complete, and the fault is reported as a
        // warning. On one GPU chosen by name, or writing to device memory, a
        // fault is the caller's DeviceError.
        cpu_takes_over_(impl.frontier >= 0 && device_targets.empty()) {
    // Only several devices share rows out; one takes them in order.
    if (several_) {
      assigner_.emplace(impl.limits, std::span{impl.meters.get(), impl.backends.size()}, count,
                        impl.options.chunk_rows);
      for (size_t b = 0; b < use.size(); ++b) {
        if (!use[b]) assigner_->retire(b);
      }
    }
    // A large chunk's host work (host steps, encoding) in parts on every
    // core helps only where cores would idle: one device that bounds its
    // chunks in flight (a GPU) to fewer than the worker threads. (Under
    // several devices the CPU's own workers have the cores; on 2 cores a
    // GPU's 3 chunks in flight already use them, and parts only add their
    // joins: users on the driver's double took 1.10-1.23 s for 4 Mi rows
    // with parts against 0.85-1.13 s without.)
    const size_t in_flight = impl.backends[lone_]->scheduling().max_chunks_in_flight;
    const size_t threads =
        impl.options.threads ? impl.options.threads : (size_t)tbb::info::default_concurrency();
    if (!several_ && in_flight > 0 && threads > in_flight) {
      parts_on_every_core_ = batch::ForEachPart(evaluation::run_parts_isolated);
    }
  }

  void run() {
    const auto work = [&](InFlight& c) { return this->work(c); };
    const auto deliver = [&](InFlight& c) { this->deliver(c); };
    if (!several_) {
      const Impl& impl = impl_;
      const uint64_t rows = lone_chunk_rows();
      scheduler::run_ordered_chunks_issued<InFlight>(
          count_,
          [&](InFlight& c, uint64_t remaining) {
            check_stop(c.offset);
            c.device = lone_;
            return std::min(rows, remaining);
          },
          scheduler::PipelineShape{
              .threads = impl.options.threads,
              .max_in_flight = impl.backends[lone_]->scheduling().max_chunks_in_flight,
              .stop = impl.options.stop},
          work, deliver);
      return;
    }
    // Every device's workers take chunks as they become free: the CPU's
    // threads, one per chunk a GPU runs at once.
    std::vector<scheduler::DeviceWorkers> devices;
    for (size_t b = 0; b < impl_.backends.size(); ++b) {
      const batch::SchedulingLimits policy = impl_.backends[b]->scheduling();
      size_t undelivered = impl_.capacity(b) * policy.chunks_ahead_per_slot;
      if (policy.max_chunks_held) undelivered = std::min(undelivered, policy.max_chunks_held);
      devices.push_back({.workers = impl_.capacity(b),
                         .undelivered = undelivered,
                         .piece_rows = policy.frontier ? impl_.chunk_rows(*impl_.backends[b]) : 0});
    }
    scheduler::run_device_chunks<InFlight>(count_, *assigner_, devices, impl_.options.stop, work,
                                           deliver);
  }

 private:
  // The lone device's chunk rows. A run into device memory takes chunks as
  // large as the device's memory allows, but no fewer than it runs at once
  // (a third of the run each for a GPU): its streams then overlap one
  // chunk's launches with another's, where one chunk would run alone.
  uint64_t lone_chunk_rows() const {
    const batch::BatchBackend& backend = *impl_.backends[lone_];
    const bool resident = !device_targets_.empty();
    const uint64_t rows = impl_.chunk_rows(backend, resident);
    const uint64_t in_flight = backend.scheduling().max_chunks_in_flight;
    if (!resident || impl_.options.chunk_rows || in_flight < 2) return rows;
    return std::min(rows, std::max(kDefaultChunkRows, (count_ + in_flight - 1) / in_flight));
  }

  void check_stop(uint64_t offset) const {
    if (scheduler::stop_requested(impl_.options.stop)) scheduler::throw_stopped(offset, count_);
  }

  // Chunk `c` on `backend` with buffers `b`: its device's own (`own`), or
  // the CPU's for a GPU that faulted (the rows stay the GPU's in the
  // assigner). Returns whether it ran without a failing row.
  bool run_on(InFlight& c, const batch::BatchBackend& backend, batch::ChunkBuffers& b,
              scheduler::DeviceMeter& meter, bool own) {
    // Timed with the encoding of its rows: a device's worker takes no more
    // rows until both are done, so that is the speed its share must follow.
    scheduler::RunningChunk running(meter, assigner_ && own ? &*assigner_ : nullptr, c.device,
                                    c.rows);
    b.parts_on_every_core = parts_on_every_core_;
    b.encode_rows = rows_;
    b.outputs_on_device.assign(device_targets_.size(), 0);
    for (size_t o = 0; o < device_targets_.size(); ++o)
      b.outputs_on_device[o] = device_targets_[o] != 0;
    backend.prepare(b, c.rows);
    running.restart();
    c.failure = run_rows(c, backend, b);
    if (c.failure != plan::kNoFailingRow) return false;
    impl_.chunk_view(backend.batch(), b, first_ + c.offset, c.view);
    if constexpr (std::is_same_v<Encoded, evaluation::RowBytes>) {
      c.encoded.on_device = b.encoded_rows;
      if (b.encoded_rows) return true;
    }
    if constexpr (requires { evaluation::text_of(c.encoded); }) {
      if (parts_on_every_core_ && c.rows >= 2 * batch::kPartRows) {
        evaluation::encode_in_parts(c.view, c.encoded, c.parts, encode_, parts_on_every_core_);
        return true;
      }
    }
    encode_(c.view, c.encoded);
    return true;
  }

  // The back end's run of chunk `c`, to the host or to device memory: its
  // first failing row.
  uint64_t run_rows(const InFlight& c, const batch::BatchBackend& backend,
                    batch::ChunkBuffers& b) const {
    std::vector<const uint64_t*> at;
    for (const uint64_t* column : columns_) at.push_back(column + c.offset);
    std::vector<uint64_t*> into;
    for (uint64_t* target : targets_) into.push_back(target ? target + c.offset : nullptr);
    if (device_targets_.empty()) return backend.run(b, first_ + c.offset, at, into).row;
    std::vector<uint64_t> to;
    for (uint64_t target : device_targets_) to.push_back(target ? target + c.offset * 8 : 0);
    return backend.run_to_device(b, first_ + c.offset, at, to).row;
  }

  bool run_chunk(InFlight& c) {
    if (several_) check_stop(c.offset);
    if (!c.owner) {
      c.owner = &impl_;
      c.buffers = impl_.take_buffers();
    }
    const int frontier = impl_.frontier;
    const auto on_cpu = [&] {
      return run_on(c, *impl_.backends[frontier], c.buffers[frontier], impl_.meters[frontier],
                    false);
    };
    if ((int)c.device != frontier && cpu_takes_over_ && gpu_faulted_) return on_cpu();
    try {
      return run_on(c, *impl_.backends[c.device], c.buffers[c.device], impl_.meters[c.device],
                    true);
    } catch (const DeviceError& e) {
      if ((int)c.device == frontier || !cpu_takes_over_) throw;
      if (several_) {
        assigner_->retire(c.device);
      } else {
        gpu_faulted_ = true;  // the rest of this run goes to the CPU
      }
      if (impl_.automatic())
        impl_.auto_cpu_only(impl_.backends[c.device]->device_name() + " faulted");
      impl_.note_fault(c.device, e.what());
      return on_cpu();
    }
  }

  // A chunk whose values do not fit in memory (large texts, bytes or
  // vectors) is the caller's error to act on, not an internal one.
  bool work(InFlight& c) {
    try {
      return run_chunk(c);
    } catch (const std::bad_alloc&) {
      throw RefusedError("out of memory evaluating rows " + std::to_string(first_ + c.offset) +
                         ".." + std::to_string(first_ + c.offset + c.rows) +
                         ": a chunk's values take more memory than is free; make them smaller "
                         "or the chunks shorter (BatchOptions::chunk_rows)");
    }
  }

  void deliver(InFlight& c) {
    if (c.failure != plan::kNoFailingRow) {
      impl_.raise_failure(first_ + c.offset + c.failure, c.offset + c.failure, columns_);
    }
    // Text outputs to device memory, in call order (each chunk's bytes go
    // after the ones before it).
    for (size_t o = 0; o < device_texts_.size(); ++o) {
      if (!device_texts_[o]) continue;
      const ColumnView& v = c.view.columns[o];
      impl_.backends[c.device]->append_text_to_device(
          c.buffers[c.device], o, c.offset, batch::HostText{v.offsets, v.bytes}, *device_texts_[o]);
    }
    write_(c.view, c.encoded);
    if constexpr (requires { c.encoded.clear(); }) c.encoded.clear();  // keeps capacity
  }

  const Impl& impl_;
  const uint64_t first_;
  const uint64_t count_;
  const std::span<const uint64_t* const> columns_;
  const Encode& encode_;
  const Write& write_;
  const std::span<uint64_t* const> targets_;
  const std::span<const uint64_t> device_targets_;
  const batch::RowEncoding* const rows_;
  const std::span<batch::DeviceText* const> device_texts_;
  const bool several_;
  const size_t lone_;  // the one back end that runs every chunk when not several
  const bool cpu_takes_over_;
  std::optional<scheduler::ChunkAssigner> assigner_;
  batch::ForEachPart parts_on_every_core_;
  std::atomic<bool> gpu_faulted_{false};
};

}  // namespace polyrt

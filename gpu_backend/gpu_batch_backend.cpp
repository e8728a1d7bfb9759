#include "gpu_backend/gpu_batch_backend.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>

#include "codegen/batch_codegen.hpp"
#include "codegen/shared_kernels.hpp"
#include "codegen/text_compaction.hpp"
#include "gpu_backend/chunk_sizing.hpp"
#include "gpu_backend/device_rows.hpp"
#include "gpu_backend/device_texts.hpp"
#include "gpu_backend/driver/staged_copies.hpp"
#include "gpu_backend/gpu_chunk_pool.hpp"
#include "gpu_backend/kernel_arguments.hpp"
#include "gpu_backend/loaded_kernels.hpp"
#include "gpu_backend/ptx/ptx_compiler.hpp"
#include "polyrt/error.hpp"

namespace polyrt::gpu {

namespace {

using plan::BatchValue;
using plan::device_text_slot;

// The test double of the driver (tests/cuda_double) runs a launch as the
// kernel's host twin, which it cannot compile from PTX: polyrt hands it over
// through this one extension, present only in the double.
using AttachHostTwin = int (*)(cuda::CUmodule module, const char* entry, void* twin);
constexpr const char* kAttachHostTwin = "polyrtCudaDoubleAttachHostTwin";

constexpr uint64_t kMaxChunkRows = uint64_t{4} << 20;
// A run into the caller's device memory holds no output columns nor staging
// of its own: its chunks are larger, tens of millions of rows.
constexpr uint64_t kMaxResidentChunkRows = uint64_t{64} << 20;
constexpr uint64_t kPinnedBytesInFlight = uint64_t{1} << 30;
// Threads an SM holds at once (2048 from sm_52 on; 1536 on sm_86 and sm_89,
// where a segment count sized for 2048 runs in a few more waves).
constexpr uint64_t kResidentThreadsPerSm = 2048;

class GpuBatchBackend final : public batch::BatchBackend {
 public:
  // `held`: the chunk states it keeps at most (make_gpu_batch_backend).
  GpuBatchBackend(batch::PreparedBatch batch, const CudaDriver& driver, int ordinal, size_t held)
      : batch_(std::move(batch)),
        context_(driver, ordinal),
        held_(held),
        resident_threads_((uint64_t)std::max(1, context_.device().sms) * kResidentThreadsPerSm) {
    if (const std::optional<std::string> fault = driver.fault(ordinal)) {
      throw DeviceError("GPU " + std::to_string(ordinal) +
                        " is unusable for the rest of this process: it faulted (" + *fault + ")");
    }
    const CurrentContext current = context_.make_current();
    const GpuDevice& device = context_.device();
    const unsigned sm = best_sm_for(device.sm());
    if (sm == 0) {
      throw DeviceError("GPU " + std::to_string(ordinal) + " (" + device.name + ") is sm_" +
                        std::to_string(device.sm()) + ", older than any compute capability " +
                        "polyrt generates code for (" + valid_sm_list() + ")");
    }
    const plan::BatchPlan& p = batch_.plan;
    const NvptxTarget target{sm, (unsigned)driver.version()};
    kernels_ = PtxCompiler::instance().compile(batch_.graph(), p, target);
    loaded_ = KernelModules::instance().get(
        driver, ordinal, kernels_.key, [&](const GpuContext& context) {
          return load(context, kernels_, [&] { return compile_host_twins(batch_.graph(), p); });
        });
    if (p.uses_text_kernels()) {
      shared_kernels_ = PtxCompiler::instance().compile_shared_kernels(target);
      shared_loaded_ = KernelModules::instance().get(
          driver, ordinal, shared_kernels_.key, [&](const GpuContext& context) {
            return load(context, shared_kernels_, [] { return compile_shared_host_twins(); });
          });
    }
    for (uint32_t s = 0; s < p.steps.size(); ++s) {
      columns_.push_back(codegen::kernel_columns(batch_.graph(), p, s));
    }
    upload_scalars();
    place_columns();
    size_chunks();
    name_ = "gpu " + std::to_string(ordinal) + " (" + device.name + ", sm_" +
            std::to_string(device.sm()) + ", " + std::to_string(device.sms) + " SMs)";
  }

  const batch::PreparedBatch& batch() const override { return batch_; }
  batch::BackendDevice device() const override {
    return {batch::DeviceKind::Gpu, context_.device().ordinal, name_};
  }

  // A column's memory keeps a context of its own (the device's primary
  // context, retained until the buffer is freed: members are destroyed in
  // reverse order), so it outlives this back end.
  batch::DeviceMemory allocate_device_memory(uint64_t bytes) const override {
    struct Allocation {
      std::shared_ptr<const GpuContext> context;
      DeviceBuffer buffer;
    };
    auto context = std::make_shared<const GpuContext>(context_.driver(), context_.device().ordinal);
    const CurrentContext current = context->make_current();
    auto allocation =
        std::make_shared<Allocation>(Allocation{context, DeviceBuffer(*context, bytes)});
    const uint64_t address = allocation->buffer.address();
    return {address, std::move(allocation)};
  }

  // kGpuChunksInFlight chunks at once (each its stream), super-chunks sized
  // from its memory; among several devices a chunk aims at about 10 ms of
  // its work and those finished ahead may wait for delivery; it holds at
  // most held_ (what size_chunks budgets for).
  batch::SchedulingLimits scheduling() const override {
    return batch::SchedulingLimits{.slots = kGpuChunksInFlight,
                                   .preferred_chunk_rows = chunk_rows_,
                                   .resident_chunk_rows = resident_chunk_rows_,
                                   .max_chunks_in_flight = kGpuChunksInFlight,
                                   .chunks_ahead_per_slot = held_ / kGpuChunksInFlight,
                                   .max_chunks_held = held_,
                                   .chunk_seconds = 0.01};
  }

  void prepare(batch::ChunkBuffers& b, uint64_t rows) const override {
    const auto began = std::chrono::steady_clock::now();
    // The failure word holds the row in its upper 32 bits.
    if (rows >> 32) internal_error("a GPU kernel launch covers fewer than 2^32 rows");
    batch::size_chunk(batch_, b, rows, batch::WordColumns::BackEnd);
    if (!b.resources) b.resources = std::make_unique<GpuChunk>(pool_, context_);
    GpuChunkState& g = *static_cast<GpuChunk&>(*b.resources).state;
    const plan::BatchPlan& p = batch_.plan;
    // Columns the caller's device memory takes need none here; a state made
    // for such a run is made again for one that needs them.
    const std::vector<uint8_t> direct = columns_written_to_caller(p, b.outputs_on_device);
    const auto needs_buffer = [&](size_t c) { return on_device_side_[c] && !direct[c]; };
    bool lacking = false;
    for (size_t c = 0; c < g.device.size(); ++c) {
      lacking |= needs_buffer(c) && g.device[c].address() == 0;
    }
    if (g.capacity < rows || lacking) {
      // At full capacity (the super-chunk size the memory budget allows), so
      // that chunks that grow (a device's first under --device all is small)
      // never free and reallocate while rows run; only a caller's larger
      // chunk_rows grows it again. A run into the caller's memory (one GPU,
      // its chunks all of one size) takes what its chunk needs: a small call
      // does not hold a budget's worth.
      const uint64_t capacity = std::max(rows, b.outputs_on_device.empty() ? chunk_rows_ : 0);
      g.device.clear();
      g.host.clear();
      g.packed.clear();
      g.packed.resize(p.column_types.size());
      g.rows = GpuChunkState::EncodedRows{};
      if (p.rows_on_device()) g.rows.scan = segment_scan(capacity);
      for (size_t c = 0; c < p.column_types.size(); ++c) {
        const uint32_t bound = p.text_bounds[c];
        const uint64_t bytes = capacity * (bound ? device_text_slot(bound) : 8);
        g.device.emplace_back(needs_buffer(c) ? DeviceBuffer(context_, bytes) : DeviceBuffer());
        g.host.emplace_back(on_host_side_[c] && !staged_for_host_only_[c] && !bound
                                ? PinnedBuffer(context_, bytes)
                                : PinnedBuffer());
        if (bound && on_host_side_[c]) g.packed[c] = packed_text(capacity, bound);
      }
      g.failure_words = DeviceBuffer(context_, p.steps.size() * 8);
      g.failure_words_on_host = PinnedBuffer(context_, p.steps.size() * 8);
      g.capacity = capacity;
    }
    for (size_t c = 0; c < p.column_types.size(); ++c) {
      if (on_host_side_[c] && !p.text_bounds[c]) b.column_pointers[c] = g.host[c].words();
    }
    // Staged here, where a chunk's time is not yet taken: page-locking is
    // slow (a few hundred ms a GiB), and a first chunk timed with it made
    // --device auto leave a fast GPU out.
    if (b.outputs_on_device.empty() && !(b.encode_rows && p.rows_on_device())) {
      stage_outputs_for_host(g, b);
    }
    if (ChunkTrace::enabled()) {
      if (!g.trace) g.trace = std::make_unique<ChunkTrace>(context_);
      g.trace->prepared(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began)
              .count(),
          g.pinned_bytes());
    }
  }

  // Host staging of the kernel-made outputs, made on the first run that
  // takes them to the host: a batch whose outputs stay on the device
  // (evaluate_to_device) or go as text rows encoded there pins nothing for
  // them.
  void stage_outputs_for_host(GpuChunkState& g, batch::ChunkBuffers& b) const {
    for (size_t c = 0; c < staged_for_host_only_.size(); ++c) {
      if (!staged_for_host_only_[c] || batch_.plan.text_bounds[c]) continue;
      if (g.host[c].bytes() < g.capacity * 8) g.host[c] = PinnedBuffer(context_, g.capacity * 8);
      b.column_pointers[c] = g.host[c].words();
    }
  }

  batch::ChunkFailure run(batch::ChunkBuffers& b, uint64_t first,
                          std::span<const uint64_t* const> coordinate_columns,
                          std::span<uint64_t* const>) const override {
    return run_chunk(b, first, coordinate_columns, {});
  }

  batch::ChunkFailure run_to_device(batch::ChunkBuffers& b, uint64_t first,
                                    std::span<const uint64_t* const> coordinate_columns,
                                    std::span<const uint64_t> device_targets) const override {
    return run_chunk(b, first, coordinate_columns, device_targets);
  }

  void append_text_to_device(batch::ChunkBuffers& b, size_t output, uint64_t row,
                             batch::HostText host, batch::DeviceText& text) const override {
    const CurrentContext current = context_.make_current();
    GpuChunkState& g = *static_cast<GpuChunk&>(*b.resources).state;
    const BatchValue& v = batch_.plan.outputs[output];
    const bool device_made = v.kind == BatchValue::Column && batch_.plan.text_bounds[v.index];
    const uint64_t rows = b.rows;
    const uint64_t chunk_bytes = device_made ? g.packed[v.index].scan.total.words()[0]
                                             : (uint64_t)(host.offsets[rows] - host.offsets[0]);
    reserve_text_bytes(g, text, row + rows, chunk_bytes);
    const cuda::CUdeviceptr offsets = text.offsets.address + row * 8;
    const cuda::CUdeviceptr bytes = text.bytes.address + text.size;
    if (device_made) {
      pack_text(g, v.index, rows, offsets, bytes, text.size);
    } else {
      // The host's offsets (from the call's bytes so far) and bytes, staged
      // page-locked.
      const uint64_t staged_bytes = (rows + 1) * 8 + chunk_bytes;
      if (g.text_staging.bytes() < staged_bytes) {
        g.text_staging = PinnedBuffer(context_, staged_bytes + staged_bytes / 2);
      }
      int64_t* rebased = reinterpret_cast<int64_t*>(g.text_staging.words());
      const int64_t shift = (int64_t)text.size - host.offsets[0];
      for (uint64_t r = 0; r <= rows; ++r) rebased[r] = host.offsets[r] + shift;
      char* staged = reinterpret_cast<char*>(rebased + rows + 1);
      if (chunk_bytes) std::memcpy(staged, host.bytes + host.offsets[0], chunk_bytes);
      const cuda::DriverApi& api = context_.driver().api();
      context_.check(api.cuMemcpyHtoDAsync(offsets, rebased, (rows + 1) * 8, g.stream.handle()),
                     "cuMemcpyHtoDAsync");
      if (chunk_bytes) {
        context_.check(api.cuMemcpyHtoDAsync(bytes, staged, chunk_bytes, g.stream.handle()),
                       "cuMemcpyHtoDAsync");
      }
    }
    // The next chunk appends on its own stream, and this chunk's buffers are
    // reused once it returns.
    g.stream.synchronize();
    text.size += chunk_bytes;
  }

  // Through bounded page-locked staging, on streams of their own.
  void copy_to_host(uint64_t address, void* out, uint64_t bytes) const override {
    copy_device_to_host(context_, address, out, bytes);
  }
  void copy_to_device(const void* in, uint64_t address, uint64_t bytes) const override {
    copy_host_to_device(context_, in, address, bytes);
  }

 private:
  // One chunk's run of the plan's steps: which columns the host and the
  // device have, the device-made texts the host waits for, each step's
  // failure.
  class ChunkRun {
   public:
    ChunkRun(const GpuBatchBackend& backend, batch::ChunkBuffers& b, GpuChunkState& g,
             uint64_t first)
        : backend_(backend),
          b_(b),
          g_(g),
          p_(backend.batch_.plan),
          first_(first),
          bytes_(b.rows * 8),
          on_host_(p_.column_types.size(), 0),
          on_device_(p_.column_types.size(), 0),
          results_(p_.steps.size()),
          launched_(p_.steps.size(), 0) {}

    // A kernel-made output column goes straight into the caller's device
    // memory: no chunk column and device-to-device copy (3x the traffic).
    void write_outputs_to(std::span<const uint64_t> device_targets) {
      g_.targets.assign(p_.column_types.size(), 0);
      for (size_t o = 0; o < device_targets.size(); ++o) {
        const uint32_t c = kernel_made_output(p_, o);
        if (c != kNoColumn && device_targets[o] && !g_.targets[c])
          g_.targets[c] = device_targets[o];
      }
    }

    void copy_coordinates(std::span<const uint64_t* const> coordinate_columns) {
      size_t next_input = 0;
      for (uint32_t c : p_.coordinate_columns) {
        if (c == ~0u) continue;
        std::memcpy(g_.host[c].words(), coordinate_columns[next_input++], bytes_);
        on_host_[c] = 1;
      }
    }

    void run_step(uint32_t s) {
      if (p_.steps[s].kind == plan::BatchStep::Kernel) {
        backend_.launch(g_, s, first_, b_.rows, on_host_, on_device_);
        launched_[s] = 1;
        return;
      }
      run_host_step(s);
    }

    // After the steps: the outputs to where they go (text rows counted on
    // the device, the host's staging, or the caller's device memory), then
    // the chunk's failure once everything queued is done.
    batch::ChunkFailure finish(bool encode, std::span<const uint64_t> device_targets) {
      if (encode) {
        backend_.count_row_bytes(g_, b_, first_);
      } else if (device_targets.empty()) {
        for (const BatchValue& v : p_.outputs) {
          if (v.kind == BatchValue::Column) to_host(v.index);
        }
        if (g_.trace) g_.trace->mark(g_.stream.handle(), "columns to host");
      } else {
        backend_.outputs_to_device(g_, b_, on_device_, device_targets);
        // Device-made text outputs: their bytes counted now, so that
        // append_text_to_device knows where they go when the chunk's turn comes.
        for (const BatchValue& v : p_.outputs) {
          if (v.kind == BatchValue::Column && p_.text_bounds[v.index])
            backend_.count_text_bytes(g_, v.index, b_.rows);
        }
      }
      collect();
      return failure_before((uint32_t)p_.steps.size());
    }

   private:
    // Column `c` to the host; device-made texts the host needs are
    // compacted and copied when it waits.
    void to_host(uint32_t c) {
      if (on_host_[c] || (is_payload(p_.column_types[c]) && !p_.text_bounds[c])) return;
      on_host_[c] = 1;
      if (p_.text_bounds[c]) {
        texts_to_host_.push_back(c);
        return;
      }
      backend_.context_.check(
          backend_.context_.driver().api().cuMemcpyDtoHAsync(
              g_.host[c].words(), g_.column_address(c), bytes_, g_.stream.handle()),
          "cuMemcpyDtoHAsync");
    }

    // Waits for what is queued: device-made texts wait for their kernels
    // and copies (and so for everything queued before them); else one
    // synchronize. Then the launched kernels' failures are known.
    void collect() {
      if (texts_to_host_.empty()) {
        g_.stream.synchronize();
      } else {
        backend_.texts_to_chunk(g_, b_, texts_to_host_);
        texts_to_host_.clear();
      }
      for (uint32_t s = 0; s < p_.steps.size(); ++s) {
        if (!launched_[s]) continue;
        results_[s] = p_.steps[s].fallible
                          ? decode_failure_word(g_.failure_words_on_host.words()[s])
                          : batch::KernelFailure{};
        launched_[s] = 0;
      }
    }

    batch::ChunkFailure failure_before(uint32_t step) const {
      batch::ChunkFailure f;
      for (uint32_t s = 0; s < step; ++s) batch::fold_failure(f, s, results_[s]);
      return f;
    }

    // A host step: its inputs on the host, every earlier failure known. The
    // first of a run of host steps brings down the kernel-made inputs of the
    // whole run in one batch of copies and one synchronize (not a round trip
    // per host step: lineitem has 16 in a row).
    void run_host_step(uint32_t s) {
      const plan::BatchStep& step = p_.steps[s];
      if (s == 0 || p_.steps[s - 1].kind == plan::BatchStep::Kernel) {
        for (uint32_t t = s; t < p_.steps.size() && p_.steps[t].kind != plan::BatchStep::Kernel;
             ++t) {
          for (const ir::Wire& w : backend_.batch_.graph().nodes[p_.steps[t].nodes[0]].inputs) {
            const BatchValue& v = p_.value_of(w);
            if (v.kind == BatchValue::Column && on_device_[v.index]) to_host(v.index);
          }
        }
        collect();
      }
      const uint64_t limit = failure_before(s).row;
      results_[s].row =
          b_.parts_on_every_core
              ? batch::run_host_step_in_parts(backend_.batch_, step, b_, first_, limit,
                                              batch::kPartRows, b_.parts_on_every_core)
              : batch::run_host_step(backend_.batch_, step, b_, first_, limit);
      for (uint32_t c : backend_.columns_[s]) {
        if (p_.column_steps[c] == s) {
          on_host_[c] = 1;
          on_device_[c] = 0;
        }
      }
    }

    const GpuBatchBackend& backend_;
    batch::ChunkBuffers& b_;
    GpuChunkState& g_;
    const plan::BatchPlan& p_;
    const uint64_t first_;
    const size_t bytes_;  // of a word column's rows
    std::vector<uint8_t> on_host_, on_device_;
    std::vector<uint32_t> texts_to_host_;  // device-made texts the host needs
    std::vector<batch::KernelFailure> results_;
    std::vector<uint8_t> launched_;
  };

  // The chunk's steps; its outputs end in host staging, or in the caller's
  // device memory when `device_targets` is not empty.
  batch::ChunkFailure run_chunk(batch::ChunkBuffers& b, uint64_t first,
                                std::span<const uint64_t* const> coordinate_columns,
                                std::span<const uint64_t> device_targets) const {
    const CurrentContext current = context_.make_current();
    b.encoded_rows.reset();
    batch::fill_generated_outputs(batch_, b, first);
    if (batch_.scalars_failed) return batch::ChunkFailure{0, 0, 0};
    GpuChunkState& g = *static_cast<GpuChunk&>(*b.resources).state;
    if (g.trace) g.trace->begin(g.stream.handle());
    ChunkRun run(*this, b, g, first);
    run.write_outputs_to(device_targets);
    run.copy_coordinates(coordinate_columns);
    for (uint32_t s = 0; s < batch_.plan.steps.size(); ++s) run.run_step(s);
    const bool encode = b.encode_rows && batch_.plan.rows_on_device() && device_targets.empty();
    const batch::ChunkFailure failure = run.finish(encode, device_targets);
    if (encode && failure.row == plan::kNoFailingRow) b.encoded_rows = write_rows(g, b);
    if (g.trace) std::fputs(g.trace->line(first, b.rows).c_str(), stderr);
    return failure;
  }

  // Queues the length pass of the chunk's text rows (b.encode_rows): the
  // fields' layout copied up, each segment's bytes, their scans, and the
  // total copied back (row_encoding_kernels.hpp).
  void count_row_bytes(GpuChunkState& g, const batch::ChunkBuffers& b, uint64_t first) const {
    const plan::BatchPlan& p = batch_.plan;
    const cuda::DriverApi& api = context_.driver().api();
    const cuda::CUstream stream = g.stream.handle();
    GpuChunkState::EncodedRows& e = g.rows;
    // Laid out for where it will be: the device buffer, grown first.
    const auto layout_of = [&] {
      return row_field_layout(
          p, *b.encode_rows, first, [&](uint32_t c) { return g.column_address(c); },
          e.layout.address());
    };
    std::string layout = layout_of();
    if (e.layout_capacity < layout.size()) {
      e.layout = DeviceBuffer(context_, layout.size());
      e.layout_on_host = PinnedBuffer(context_, layout.size());
      e.layout_capacity = layout.size();
      layout = layout_of();
    }
    std::memcpy(e.layout_on_host.words(), layout.data(), layout.size());
    context_.check(
        api.cuMemcpyHtoDAsync(e.layout.address(), e.layout_on_host.words(), layout.size(), stream),
        "cuMemcpyHtoDAsync");
    const uint64_t segments = segments_of(b.rows);
    launch_entry(g, shared_kernel(codegen::kRowsSegmentBytesKernel), segments,
                 KernelArguments({segments, e.layout.address(), row_field_count(p),
                                  (uint64_t)b.encode_rows->format, b.rows, segment_rows(b.rows),
                                  e.scan.sums.address()}));
    scan_segments(g, e.scan, segments);
  }

  // The write pass of the chunk's text rows, counted by count_row_bytes, and
  // their bytes copied to the host: the chunk's rows, encoded.
  std::string_view write_rows(GpuChunkState& g, const batch::ChunkBuffers& b) const {
    GpuChunkState::EncodedRows& e = g.rows;
    const uint64_t total = e.scan.total.words()[0];
    if (e.bytes_capacity < total) {
      // Half again as much: a chunk's bytes vary, and page-locked memory is
      // slow to allocate.
      const uint64_t capacity = total + total / 2;
      e.bytes = DeviceBuffer(context_, capacity);
      e.host_bytes = PinnedBuffer(context_, capacity);
      e.bytes_capacity = capacity;
    }
    const uint64_t segments = segments_of(b.rows);
    launch_entry(g, shared_kernel(codegen::kRowsWriteKernel), segments,
                 KernelArguments({segments, e.layout.address(), row_field_count(batch_.plan),
                                  (uint64_t)b.encode_rows->format, b.rows, segment_rows(b.rows),
                                  e.scan.sums.address(), codegen::kTextScanGroup,
                                  e.scan.group_sums.address(), e.bytes.address()}));
    if (total) {
      context_.check(context_.driver().api().cuMemcpyDtoHAsync(
                         e.host_bytes.words(), e.bytes.address(), total, g.stream.handle()),
                     "cuMemcpyDtoHAsync");
    }
    if (g.trace) g.trace->mark(g.stream.handle(), "rows to host");
    g.stream.synchronize();
    return {reinterpret_cast<const char*>(e.host_bytes.words()), total};
  }

  // Rows per thread of the text kernels (row encoding, text packing):
  // kTextSegmentRows where the chunk has that many rows for every thread
  // the device holds at once, fewer (down to one) in a smaller chunk, so the
  // length and write passes fill every SM instead of a few (a 170 k-row
  // chunk in segments of 32 gave a 132-SM device 21 blocks).
  uint64_t segment_rows(uint64_t rows) const {
    return std::clamp<uint64_t>((rows + resident_threads_ - 1) / resident_threads_, 1,
                                codegen::kTextSegmentRows);
  }
  // Segments of segment_rows rows, and groups of kTextScanGroup segments.
  uint64_t segments_of(uint64_t rows) const {
    const uint64_t each = segment_rows(rows);
    return (rows + each - 1) / each;
  }
  static uint64_t groups_of(uint64_t segments) {
    return (segments + codegen::kTextScanGroup - 1) / codegen::kTextScanGroup;
  }
  const LoadedKernel& step_kernel(uint32_t step) const {
    return loaded_->kernel(kernels_.entries[step]);
  }
  const LoadedKernel& shared_kernel(codegen::SharedKernel k) const {
    return shared_loaded_->kernel(shared_kernels_.entries[k]);
  }

  // Queues the exclusive scan of `segments` sums in `scan` (within groups,
  // then of the groups' totals, whose total follows them) and the copy of
  // that total to the host.
  void scan_segments(GpuChunkState& g, const SegmentScan& scan, uint64_t segments) const {
    const uint64_t groups = groups_of(segments);
    launch_entry(g, shared_kernel(codegen::kTextScanGroupKernel), groups,
                 KernelArguments({groups, scan.sums.address(), segments, codegen::kTextScanGroup,
                                  scan.group_sums.address()}));
    launch_entry(g, shared_kernel(codegen::kTextScanGroupsKernel), 1,
                 KernelArguments({1, scan.group_sums.address(), groups}));
    context_.check(
        context_.driver().api().cuMemcpyDtoHAsync(
            scan.total.words(), scan.group_sums.address() + groups * 8, 8, g.stream.handle()),
        "cuMemcpyDtoHAsync");
  }

  // Every output into the caller's device memory: kernel columns device to
  // device, host columns and generated outputs through page-locked staging.
  void outputs_to_device(GpuChunkState& g, const batch::ChunkBuffers& b,
                         const std::vector<uint8_t>& on_device,
                         std::span<const uint64_t> device_targets) const {
    const plan::BatchPlan& p = batch_.plan;
    const cuda::DriverApi& api = context_.driver().api();
    const cuda::CUstream stream = g.stream.handle();
    const size_t bytes = b.rows * 8;
    if (g.generated.size() < p.outputs.size()) g.generated.resize(p.outputs.size());
    for (size_t o = 0; o < p.outputs.size(); ++o) {
      const BatchValue& v = p.outputs[o];
      const cuda::CUdeviceptr to = device_targets[o];
      if (v.kind == BatchValue::None || v.kind == BatchValue::Register || !to) continue;
      if (v.kind == BatchValue::Column && on_device[v.index]) {
        // Written there by its kernel, or (an output named twice) copied.
        if (g.column_address(v.index) != to) {
          context_.check(api.cuMemcpyDtoDAsync(to, g.column_address(v.index), bytes, stream),
                         "cuMemcpyDtoDAsync");
        }
        continue;
      }
      const uint64_t* words =
          v.kind == BatchValue::Column ? b.column_pointers[v.index] : b.filled[o].data();
      if (v.kind != BatchValue::Column) {
        if (g.generated[o].bytes() < bytes) g.generated[o] = PinnedBuffer(context_, bytes);
        std::memcpy(g.generated[o].words(), words, bytes);
        words = g.generated[o].words();
      }
      context_.check(api.cuMemcpyHtoDAsync(to, words, bytes, stream), "cuMemcpyHtoDAsync");
    }
  }

  // The buffers of a device-made text the host reads, for `capacity` rows
  // of at most `bound` bytes (and the copies' 16-byte slack).
  GpuChunkState::PackedText packed_text(uint64_t capacity, uint32_t bound) const {
    const uint64_t text_bytes = capacity * bound + columns::kPadding;
    return {segment_scan(capacity), DeviceBuffer(context_, (capacity + 1) * 8),
            DeviceBuffer(context_, text_bytes), PinnedBuffer(context_, (capacity + 1) * 8),
            PinnedBuffer(context_, text_bytes)};
  }

  // The buffers of the scan of a chunk of up to `capacity` rows' segments.
  SegmentScan segment_scan(uint64_t capacity) const {
    // The most segments_of(rows) gives for rows up to `capacity`.
    const uint64_t segments =
        std::max(std::min(capacity, resident_threads_), capacity / codegen::kTextSegmentRows + 1);
    return {DeviceBuffer(context_, segments * 8),
            DeviceBuffer(context_, (segments / codegen::kTextScanGroup + 2) * 8),
            PinnedBuffer(context_, 8)};
  }

  // The device-made texts `columns` of the chunk as its str columns: packed
  // into their Arrow layout on the device, their byte counts copied back
  // (one synchronize), then their offsets and only their bytes, not their
  // slots (another).
  void texts_to_chunk(GpuChunkState& g, batch::ChunkBuffers& b,
                      const std::vector<uint32_t>& columns) const {
    const uint64_t rows = b.rows;
    const cuda::DriverApi& api = context_.driver().api();
    const cuda::CUstream stream = g.stream.handle();
    for (uint32_t c : columns) {
      const GpuChunkState::PackedText& t = g.packed[c];
      count_text_bytes(g, c, rows);
      pack_text(g, c, rows, t.offsets.address(), t.bytes.address(), 0);
    }
    g.stream.synchronize();
    for (uint32_t c : columns) {
      const GpuChunkState::PackedText& t = g.packed[c];
      context_.check(api.cuMemcpyDtoHAsync(t.host_offsets.words(), t.offsets.address(),
                                           (rows + 1) * 8, stream),
                     "cuMemcpyDtoHAsync");
      if (const uint64_t total = t.scan.total.words()[0]) {
        context_.check(
            api.cuMemcpyDtoHAsync(t.host_bytes.words(), t.bytes.address(), total, stream),
            "cuMemcpyDtoHAsync");
      }
    }
    if (g.trace) g.trace->mark(stream, "texts to host");
    g.stream.synchronize();
    for (uint32_t c : columns) {
      const GpuChunkState::PackedText& t = g.packed[c];
      adopt_packed_texts(reinterpret_cast<const int64_t*>(t.host_offsets.words()),
                         reinterpret_cast<const char*>(t.host_bytes.words()), rows, b.texts[c]);
    }
  }

  // Queues the count of device-made text column `c`'s bytes per segment,
  // their scan, and the copy of its total to the host (g.packed[c].scan).
  void count_text_bytes(GpuChunkState& g, uint32_t c, uint64_t rows) const {
    const SegmentScan& scan = g.packed[c].scan;
    const uint64_t segments = segments_of(rows);
    launch_entry(g, shared_kernel(codegen::kTextSegmentBytesKernel), segments,
                 KernelArguments({segments, g.column_address(c),
                                  device_text_slot(batch_.plan.text_bounds[c]), rows,
                                  segment_rows(rows), scan.sums.address()}));
    scan_segments(g, scan, segments);
  }

  // Queues the pack of device-made text column `c`, counted by
  // count_text_bytes, into Arrow's layout: `rows` + 1 offsets from `base`
  // at `offsets`, the bytes at `bytes`.
  void pack_text(GpuChunkState& g, uint32_t c, uint64_t rows, cuda::CUdeviceptr offsets,
                 cuda::CUdeviceptr bytes, uint64_t base) const {
    const SegmentScan& scan = g.packed[c].scan;
    const uint64_t segments = segments_of(rows);
    launch_entry(g, shared_kernel(codegen::kTextPackKernel), segments,
                 KernelArguments({segments, g.column_address(c),
                                  device_text_slot(batch_.plan.text_bounds[c]), rows,
                                  segment_rows(rows), scan.sums.address(), codegen::kTextScanGroup,
                                  scan.group_sums.address(), offsets, bytes, base}));
  }

  // Room in `text` for `more` bytes after its size, the call's rows up to
  // `rows_done` counted: where it must grow, to what the rows so far
  // extrapolate to over the call's rows (and at least a quarter more), its
  // bytes so far copied on the chunk's stream.
  void reserve_text_bytes(GpuChunkState& g, batch::DeviceText& text, uint64_t rows_done,
                          uint64_t more) const {
    const uint64_t needed = text.size + more;
    if (needed <= text.capacity && text.bytes.owner) return;
    const double extrapolated = (double)needed * (double)text.rows / (double)rows_done * 1.0625;
    const uint64_t capacity = std::max({needed, (uint64_t)std::min(extrapolated, 0x1p62),
                                        text.capacity + text.capacity / 4, uint64_t{1}});
    batch::DeviceMemory grown = allocate_device_memory(capacity);
    if (text.size) {
      context_.check(context_.driver().api().cuMemcpyDtoDAsync(grown.address, text.bytes.address,
                                                               text.size, g.stream.handle()),
                     "cuMemcpyDtoDAsync");
      // The old memory is freed only once its bytes are copied.
      g.stream.synchronize();
    }
    text.bytes = std::move(grown);
    text.capacity = capacity;
  }

  // Launches `kernel` on the chunk's stream for `threads` threads' work
  // (rows or segments). One wave: as many blocks as the SMs hold at once
  // (more would only queue behind them; the kernels' grid-stride loops
  // cover the rest).
  void launch_entry(GpuChunkState& g, const LoadedKernel& kernel, uint64_t threads,
                    KernelArguments&& arguments) const {
    const uint64_t wanted = (threads + codegen::kGpuBlockThreads - 1) / codegen::kGpuBlockThreads;
    const unsigned blocks = (unsigned)std::clamp<uint64_t>(
        wanted, 1, (uint64_t)context_.device().sms * kernel.blocks_per_sm);
    context_.check(context_.driver().api().cuLaunchKernel(
                       kernel.function, blocks, 1, 1, codegen::kGpuBlockThreads, 1, 1, 0,
                       g.stream.handle(), arguments.pointers(), nullptr),
                   "cuLaunchKernel");
    if (g.trace) g.trace->mark(g.stream.handle(), kernel.name, blocks);
  }

  void launch(GpuChunkState& g, uint32_t s, uint64_t first, uint64_t rows,
              std::vector<uint8_t>& on_host, std::vector<uint8_t>& on_device) const {
    const cuda::DriverApi& api = context_.driver().api();
    const cuda::CUstream stream = g.stream.handle();
    std::vector<uint64_t> columns;
    for (uint32_t c : columns_[s]) {
      if (batch_.plan.column_steps[c] != s && on_host[c] && !on_device[c]) {
        if (is_payload(batch_.plan.column_types[c]))
          internal_error("a kernel reads a host-made str");
        context_.check(
            api.cuMemcpyHtoDAsync(g.device[c].address(), g.host[c].words(), rows * 8, stream),
            "cuMemcpyHtoDAsync");
        on_device[c] = 1;
      }
      columns.push_back(g.column_address(c));
    }
    // A kernel with no fallible member never writes its failure word: it
    // needs neither the reset nor the copy back (two stream operations).
    const bool fallible = batch_.plan.steps[s].fallible;
    const cuda::CUdeviceptr failure_word = g.failure_words.address() + s * 8;
    // kNoFailureWord: every byte 0xff.
    if (fallible) {
      context_.check(api.cuMemsetD8Async(failure_word, 0xff, 8, stream), "cuMemsetD8Async");
    }
    launch_entry(g, step_kernel(s), rows,
                 KernelArguments(first, rows, scalars_.address(), columns, failure_word));
    for (uint32_t c : columns_[s]) {
      if (batch_.plan.column_steps[c] == s) {
        on_device[c] = 1;
        on_host[c] = 0;
      }
    }
    if (fallible) {
      context_.check(
          api.cuMemcpyDtoHAsync(g.failure_words_on_host.words() + s, failure_word, 8, stream),
          "cuMemcpyDtoHAsync");
    }
  }

  // The module of `kernels` and its entries, in the process-wide cache's
  // context; on the driver's test double, each entry's host twin (`twins`)
  // attached.
  LoadedKernels load(const GpuContext& context, const PtxKernels& kernels,
                     const std::function<HostTwinKernels()>& twins) const {
    LoadedKernels loaded;
    loaded.module = std::make_unique<GpuModule>(context, kernels.ptx, kernels.key);
    for (const std::string& entry : kernels.entries) {
      if (entry.empty()) continue;
      LoadedKernel& k = loaded.kernels[entry];
      k.function = loaded.module->function(entry);
      k.name = entry;
      int blocks = 0;
      context.check(context.driver().api().cuOccupancyMaxActiveBlocksPerMultiprocessor(
                        &blocks, k.function, (int)codegen::kGpuBlockThreads, 0),
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor");
      if (blocks <= 0) {
        int registers = 0;
        context.check(context.driver().api().cuFuncGetAttribute(
                          &registers, cuda::CU_FUNC_ATTRIBUTE_NUM_REGS, k.function),
                      "cuFuncGetAttribute");
        throw DeviceError("kernel " + entry + " cannot run " +
                          std::to_string(codegen::kGpuBlockThreads) +
                          " threads per block on this GPU (it uses " + std::to_string(registers) +
                          " registers per thread)");
      }
      k.blocks_per_sm = (unsigned)blocks;
    }
    auto attach =
        reinterpret_cast<AttachHostTwin>(::dlsym(context.driver().library(), kAttachHostTwin));
    if (!attach) return loaded;
    loaded.twins = twins();
    for (size_t s = 0; s < kernels.entries.size(); ++s) {
      if (kernels.entries[s].empty()) continue;
      if (attach(loaded.module->handle(), kernels.entries[s].c_str(),
                 reinterpret_cast<void*>(loaded.twins.per_step[s])) != 0) {
        throw DeviceError("the CUDA driver test double refused the host twin of " +
                          kernels.entries[s]);
      }
    }
    return loaded;
  }

  void upload_scalars() {
    const size_t bytes = batch_.scalar_words.size() * 8;
    scalars_ = DeviceBuffer(context_, bytes);
    copy_host_to_device(context_, batch_.scalar_words.data(), scalars_.address(), bytes);
  }

  // Which word columns need device memory (a kernel reads or writes them) and
  // which page-locked host memory (outputs, caller coordinates, what host
  // steps read or write); str columns live in the host's values only.
  void place_columns() {
    const plan::BatchPlan& p = batch_.plan;
    on_device_side_.assign(p.column_types.size(), 0);
    on_host_side_.assign(p.column_types.size(), 0);
    for (uint32_t s = 0; s < p.steps.size(); ++s) {
      auto& side = p.steps[s].kind == plan::BatchStep::Kernel ? on_device_side_ : on_host_side_;
      for (uint32_t c : columns_[s]) side[c] = 1;
    }
    for (uint32_t c : p.coordinate_columns) {
      if (c != ~0u) on_host_side_[c] = 1;
    }
    staged_for_host_only_.assign(p.column_types.size(), 0);
    for (const BatchValue& v : p.outputs) {
      if (v.kind != BatchValue::Column || on_host_side_[v.index]) continue;
      on_host_side_[v.index] = 1;
      staged_for_host_only_[v.index] = 1;
    }
    for (size_t c = 0; c < p.column_types.size(); ++c) {
      if (is_payload(p.column_types[c]) && !p.text_bounds[c]) {
        on_device_side_[c] = on_host_side_[c] = staged_for_host_only_[c] = 0;
      }
    }
  }

  // Chunk rows for runs to the host, and for runs whose every output the
  // caller's device memory takes (no staging, no kernel-made output column).
  void size_chunks() {
    const plan::BatchPlan& p = batch_.plan;
    const std::vector<uint8_t> direct =
        columns_written_to_caller(p, std::vector<uint8_t>(p.outputs.size(), 1));
    RowFootprint to_host, resident;
    for (size_t c = 0; c < on_device_side_.size(); ++c) {
      const uint32_t bound = p.text_bounds[c];
      // A device-made text: its slots, and when the host reads it, its
      // packed offsets and bytes on both sides.
      const uint64_t device = on_device_side_[c] * (bound ? device_text_slot(bound) : 8) +
                              on_host_side_[c] * (bound ? 8 + bound : 0);
      const uint64_t host = on_host_side_[c] * (bound ? 8 + bound : 8);
      to_host.device += device;
      to_host.host += host;
      resident.device += direct[c] ? 0 : device;
      resident.host += staged_for_host_only_[c] ? 0 : host;
    }
    size_t free_bytes = 0, total_bytes = 0;
    context_.check(context_.driver().api().cuMemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
    chunk_rows_ = rows_that_fit(to_host, held_, free_bytes, kPinnedBytesInFlight, kMaxChunkRows,
                                codegen::kGpuBlockThreads);
    resident_chunk_rows_ =
        rows_that_fit(resident, kGpuChunksInFlight, free_bytes, kPinnedBytesInFlight,
                      kMaxResidentChunkRows, codegen::kGpuBlockThreads);
  }

  batch::PreparedBatch batch_;
  GpuContext context_;
  size_t held_;
  uint64_t resident_threads_;  // threads the device holds at once
  PtxKernels kernels_;
  std::shared_ptr<const LoadedKernels> loaded_;  // shared with the process
  // The kernels no plan shapes (text compaction, row encoding), when the
  // plan has device text or rows on the device; shared with the process.
  PtxKernels shared_kernels_;
  std::shared_ptr<const LoadedKernels> shared_loaded_;
  std::vector<std::vector<uint32_t>> columns_;  // per step: the kernel's columns
  std::vector<uint8_t> on_device_side_;         // per column: has device memory
  std::vector<uint8_t> on_host_side_;           // per column: has page-locked host memory
  // per column: an output only kernels write, staged only for runs to the host
  std::vector<uint8_t> staged_for_host_only_;
  DeviceBuffer scalars_;
  uint64_t chunk_rows_ = codegen::kGpuBlockThreads;
  uint64_t resident_chunk_rows_ = codegen::kGpuBlockThreads;
  mutable ChunkPool pool_;
  std::string name_;
};

}  // namespace

std::unique_ptr<batch::BatchBackend> make_gpu_batch_backend(batch::PreparedBatch batch,
                                                            const CudaDriver& driver, int device,
                                                            bool alone) {
  if (device < 0 || (size_t)device >= driver.devices().size()) {
    throw DeviceError("no GPU " + std::to_string(device) + ": the CUDA driver found " +
                      std::to_string(driver.devices().size()) + " device(s)");
  }
  return std::make_unique<GpuBatchBackend>(std::move(batch), driver, device,
                                           alone ? kGpuChunksInFlight : kGpuChunksHeld);
}

}  // namespace polyrt::gpu

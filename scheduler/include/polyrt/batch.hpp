// Columnar bulk evaluation: the requested outputs over a coordinate range,
// column by column, on every core (link polyrt_scheduler).
//
//   polyrt::BatchOptions options;
//   options.outputs = {"user_id", "score"};
//   options.coordinates = {0, 42};           // coordinate 0 iterates, 1 is fixed
//   polyrt::BatchEvaluator batch(program, options);
//   std::vector<polyrt::Column> cols = batch.evaluate(0, 1'000'000);
//
// Values are bit-for-bit those of a per-state pull at each coordinate; a
// failure throws the EvalError that pull raises at the smallest failing
// coordinate.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "polyrt/device_kind.hpp"
#include "polyrt/polyrt.hpp"
#include "polyrt/row_format.hpp"

namespace polyrt {

// Rows per chunk of every bulk job unless chosen: four columns of 8192 words
// stay in the L2 cache (docs/architecture.md, "The batch tier", measures it).
inline constexpr uint64_t kDefaultChunkRows = 8192;

// A text row format's name, which is also its files' extension ("csv",
// "tsv", "jsonl"), and the format of a name (none for another name).
std::string_view row_format_name(RowFormat format);
std::optional<RowFormat> row_format_named(std::string_view name);

// Where a batch runs.
enum class BatchDevice : uint8_t {
  Cpu,  // the CPU batch tier: JIT kernels on every core
  Gpu,  // the GPU BatchOptions::gpu; DeviceError when it cannot be used
  // The CPU and every usable GPU, as All, until each device's speed on
  // this program is measured (a run's first rows); then the devices worth
  // their cost: a device under 10 % of the summed speed is left out
  // (device_choice says which and why). The CPU alone without a usable GPU.
  Auto,
  // Every usable GPU and the CPU cores on one range: chunks go to whichever
  // device has room, sized to its measured speed, and still reach the
  // consumer in coordinate order.
  All,
};

// The names the command line and the bindings give devices, and nullopt
// for any other text.
inline constexpr const char* kBatchDeviceNames = "cpu, gpu, auto, all";
std::optional<BatchDevice> batch_device_named(std::string_view name);

// Where a batch runs, as one value: a BatchDevice and, for BatchDevice::Gpu,
// which GPU (an index of `polyrt devices`). A BatchDevice converts to it
// (GPU 0 for Gpu). It has no ==: compare `kind` (and `gpu`) explicitly.
struct DeviceChoice {
  BatchDevice kind = BatchDevice::Cpu;
  int gpu = 0;
  constexpr DeviceChoice() = default;
  constexpr DeviceChoice(BatchDevice kind, int gpu = 0) : kind(kind), gpu(gpu) {}
};

// What one device of a batch evaluated (BatchEvaluator::device_shares).
struct DeviceShare {
  std::string device;         // as device_name() names it
  uint64_t rows = 0;          // rows it evaluated
  double active_seconds = 0;  // wall time it had at least one chunk running
};

struct BatchOptions {
  // Output columns, in order; empty: every output of the program.
  std::vector<std::string> outputs;
  // The coordinate that takes each row's value (first + row).
  size_t iterated = 0;
  // Values of the other coordinates (empty: all 0). The iterated entry, and
  // those of column_coordinates, are ignored.
  std::vector<uint64_t> coordinates;
  // Coordinates whose values are supplied per row (one array per call).
  std::vector<size_t> column_coordinates;
  // Extern values for the batch (others keep their defaults); Value::none() unsets.
  std::vector<std::pair<std::string, Value>> externs;
  // Rows per chunk, the unit of parallel work and of streaming (0:
  // kDefaultChunkRows, or fewer when the outputs' fixed-size vectors would
  // take more than 64 MiB a chunk: 256 rows of hash_vec(c, 65536)).
  uint64_t chunk_rows = 0;
  size_t threads = 0;   // 0: every core (host steps and consumers on a GPU)
  DeviceChoice device;  // default: the CPU
  // When set, every call polls it before issuing each chunk; once it reads
  // true the call waits for the chunks in flight and throws StoppedError
  // (how another thread cancels a long evaluate). Must outlive the evaluator.
  const std::atomic<bool>* stop = nullptr;
};

// A column of one chunk, valid during the callback that receives it. str
// columns are in Arrow's LargeString layout (an Arrow array or a polars
// Series can be built on them without a copy): row r is the bytes
// [offsets[r], offsets[r + 1]) of `bytes`, offsets[0] == 0.
struct ColumnView {
  Type type = Type::U64;
  LogicalType logical;               // Program::output_logical_type: how writers show it
  bool is_none = false;              // None for every row (an unset extern feeds it)
  const uint64_t* words = nullptr;   // scalar types: u64, f64 bit pattern, bool 0/1
  const int64_t* offsets = nullptr;  // str columns: rows + 1 offsets ...
  const char* bytes = nullptr;       // ... into these bytes
  // A nullable output (Program::output_nullable): per row 1 where it has a
  // value, 0 where it is null (its words or text there are a placeholder).
  const uint64_t* present = nullptr;

  std::string_view text(uint64_t row) const {
    return {bytes + offsets[row], (size_t)(offsets[row + 1] - offsets[row])};
  }
  bool is_null(uint64_t row) const { return is_none || (present && present[row] == 0); }
};

struct ColumnChunk {
  uint64_t first = 0;  // coordinate of row 0
  uint64_t rows = 0;
  std::vector<ColumnView> columns;  // one per output, in order
};

// An owned column of a whole range; str columns in the layout of ColumnView.
struct Column {
  std::string name;
  Type type = Type::U64;
  bool is_none = false;
  std::vector<uint64_t> words;
  std::vector<int64_t> offsets;   // str: rows + 1
  std::string bytes;              // str
  LogicalType logical;            // Program::output_logical_type
  std::vector<uint64_t> present;  // a nullable output: ColumnView::present's words

  std::string_view text(size_t row) const {
    return std::string_view(bytes).substr((size_t)offsets[row],
                                          (size_t)(offsets[row + 1] - offsets[row]));
  }
  // Row `row` as a Value (None when the column is None, or the row null).
  Value value(size_t row) const;

  // A column of no rows (str columns: their first offset).
  static Column empty(std::string name, Type type, LogicalType logical = {});
  // Appends a chunk's `rows` rows of `view` (a column of this type): a None
  // view makes the column None.
  void append(const ColumnView& view, uint64_t rows);
  // Room for `rows` rows in all, a text's bytes extrapolated from a first
  // chunk (`view`, `view_rows` rows): appended chunk by chunk, the column is
  // then copied once rather than about twice by doubling (with its fresh
  // pages faulted in each time). A failed reservation is left to growth.
  void reserve(uint64_t rows, const ColumnView& view, uint64_t view_rows);
};

// The bytes to reserve for `rows` rows of a text column whose first chunk
// (`view`, `view_rows` rows) shows its bytes a row: that rate and a
// sixteenth more, for rows a little longer, and 4 KiB.
uint64_t text_bytes_to_reserve(const ColumnView& view, uint64_t view_rows, uint64_t rows);

// An output column in device memory that the caller owns
// (evaluate_to_device): `rows` 8-byte words (u64; f64 bit patterns; bool
// 0/1) at `address` on device `device` of kind `kind`, what DLPack needs
// (for a GPU: kDLCUDA, its CUDA ordinal, a CUdeviceptr in its primary
// context); address 0 for an output that is None on every row. A text
// output (str, json, bytes) is in Arrow's large layout: `rows` + 1 int64
// offsets at `address` into `text_bytes` bytes at `text_address`. `memory`
// is an opaque handle: the memory is freed with its last copy.
struct DeviceColumn {
  std::string name;
  Type type = Type::U64;
  DeviceKind kind = DeviceKind::Gpu;
  int device = 0;
  uint64_t address = 0;
  uint64_t rows = 0;
  uint64_t text_address = 0;
  uint64_t text_bytes = 0;
  std::shared_ptr<const void> memory;
};

class BatchEvaluator {
 public:
  // Plans and compiles the batch for its device (CPU: vectorized JIT kernels;
  // GPU: PTX kernels) plus host steps. Throws WriteError for unknown outputs,
  // externs or coordinates, RefusedError for programs the batch tier cannot
  // run (side channels), and DeviceError when BatchDevice::Gpu cannot be used
  // (the message says why).
  BatchEvaluator(std::shared_ptr<const Program> program, BatchOptions options);
  ~BatchEvaluator();

  const std::vector<std::string>& output_names() const;
  const std::vector<Type>& output_types() const;
  // Per output: a vector output's fixed dimension (Program::output_dimension).
  const std::vector<std::optional<uint64_t>>& output_dimensions() const;
  // Per output: its logical type (Program::output_logical_type).
  const std::vector<LogicalType>& output_logical_types() const;
  // Whether output `index` may be null (Program::output_nullable): its
  // columns' ColumnView::present say which rows are.
  bool output_nullable(size_t index) const;
  // Where the batch runs: "cpu", "gpu 0 (NVIDIA H200, sm_90, 132 SMs)"; with
  // BatchDevice::Auto and no usable GPU, "cpu" and why not.
  std::string device_name() const;

  // Whether output `index` is None for every row (an unset extern feeds it).
  bool output_is_none(size_t index) const;
  // The externs that are None for this batch, having neither a value nor a
  // default: what can make an output None.
  std::vector<std::string> unset_externs() const;

  // Rows [first, first + count): chunks are evaluated in parallel and handed
  // to `consumer` one at a time, in coordinate order. `columns` holds, per
  // column coordinate, `count` values. A failure is thrown after every chunk
  // before the failing one was delivered.
  void stream(uint64_t first, uint64_t count,
              const std::function<void(const ColumnChunk&)>& consumer,
              std::span<const uint64_t* const> columns = {}) const;

  // Two stages: `encode` runs on the worker that evaluated the chunk (any
  // order) and appends to an empty byte buffer; `write` gets the chunk and its
  // bytes in coordinate order (the buffer is then emptied and reused).
  // `encode` must be thread-safe and row-local: a large chunk (a GPU's) is
  // encoded as consecutive parts at once, each a ColumnChunk of its own
  // (its `first`, `rows` and views at its first row; str offsets are the
  // chunk's, so a part's first offset need not be 0), and its bytes are the
  // parts' bytes in order.
  void stream_encoded(
      uint64_t first, uint64_t count,
      const std::function<void(const ColumnChunk&, std::string& bytes)>& encode,
      const std::function<void(const ColumnChunk& chunk, std::string& bytes)>& write,
      std::span<const uint64_t* const> columns = {}) const;

  // Rows [first, first + count) as text rows of `format` (the bytes
  // `polyrt run --format csv|tsv|jsonl` writes, without a header line),
  // handed to `write` in coordinate order with each chunk's first coordinate
  // and row count. A GPU whose plan allows it (`polyrt plan --device gpu`
  // says) encodes its chunks' rows where it made them and copies only their
  // bytes back; other chunks are encoded on the CPU workers: the bytes are
  // the same. Throws EvalError when an output is None (as the row writers do).
  void stream_rows(
      uint64_t first, uint64_t count, RowFormat format,
      const std::function<void(uint64_t first, uint64_t rows, std::string_view bytes)>& write,
      std::span<const uint64_t* const> columns = {}) const;

  // The whole range in owned columns.
  std::vector<Column> evaluate(uint64_t first, uint64_t count,
                               std::span<const uint64_t* const> columns = {}) const;
  // Into caller arrays: one pointer per output, `count` 8-byte words each
  // (an f64 output's words are IEEE doubles: a double array's storage may be
  // passed; bools are 0/1; i64 two's complement), except that an output of a
  // narrower type (u8..u32, i8..i32, f32) takes native_width(type) bytes a
  // row: pass an int32_t or float array's storage for an i32 or f32 output.
  // str outputs are refused with WriteError; None outputs fill nothing. The
  // kernels write 8-byte columns straight into them, with no copy.
  void evaluate_into(uint64_t first, uint64_t count, std::span<uint64_t* const> destinations,
                     std::span<const uint64_t* const> columns = {}) const;

  // Device-resident output, for consumers on the GPU (BatchDevice::Gpu, or
  // Auto on a GPU): one device address per output (a CUdeviceptr on the
  // batch's GPU, in its primary context; under Auto its first usable GPU,
  // which runs these rows alone) with room for `count` 8-byte words.
  // Kernels write their columns there directly, never through the host. The
  // columns are complete when the call returns (its own streams are
  // synchronized: that is the sync point). str outputs are refused with
  // WriteError (evaluate_to_device sizes and allocates text columns), as is
  // a batch on the CPU. On a failure, rows before the
  // smallest failing coordinate are written; the rest are unspecified.
  void evaluate_on_device(uint64_t first, uint64_t count, std::span<const uint64_t> device_columns,
                          std::span<const uint64_t* const> columns = {}) const;

  // evaluate_on_device into memory allocated here on the batch's GPU (one
  // column per output): for consumers that take ownership (DLPack, CUDA
  // array interface). Text and vector outputs too: each in Arrow's large
  // layout, its bytes appended chunk after chunk in device memory (a
  // device-made text or vector is compacted there from its kernel's slots
  // and never crosses to the host; a host step's is copied up; a vector of
  // a fixed dimension's bytes are a dense rows x dim array). Refused with
  // WriteError like evaluate_on_device (but for text and vector outputs);
  // DeviceError when the device is out of memory.
  std::vector<DeviceColumn> evaluate_to_device(uint64_t first, uint64_t count,
                                               std::span<const uint64_t* const> columns = {}) const;

  // A column evaluate_to_device made, copied back to the host (a check, or
  // a consumer on the CPU after all). WriteError for a column on another
  // device.
  Column to_host(const DeviceColumn& column) const;

  // Per device, the rows it evaluated and how long it was active, over every
  // call on this evaluator so far (one entry unless BatchDevice::All).
  std::vector<DeviceShare> device_shares() const;

  // Under BatchDevice::Auto, the devices it chose and their measured speeds
  // ("chose gpu 0 (...) (measured: cpu 4.1e+07 rows/s, gpu 0 (...) 6e+08
  // rows/s); left out cpu: ..."); empty until chosen.
  std::string device_choice() const;

  // Under BatchDevice::All or Auto, each GPU that faulted during a call ("gpu
  // 0 (...): cuStreamSynchronize failed: CUDA_ERROR_LAUNCH_FAILED ..."): it
  // took no more rows, the CPU ran the ones it had taken, and the call's
  // result is complete. Empty when none did. (On BatchDevice::Gpu, or
  // writing to device memory, a fault is a DeviceError; a faulted GPU is
  // unusable for the rest of the process.)
  std::vector<std::string> device_faults() const;

  // Under BatchDevice::All or Auto, why each usable device was left out
  // because polyrt could not generate its code (a polyrt bug: the message
  // says so); the other devices run the batch. Empty when none was.
  const std::vector<std::string>& left_out_devices() const;

  // The batch plan: kernels, host steps, columns, scalars.
  std::string describe() const;

 private:
  struct Impl;  // the back end and what the evaluator resolved from the options
  std::unique_ptr<Impl> impl_;
};

}  // namespace polyrt

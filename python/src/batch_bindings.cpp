// Program.batch's native half: a BatchEvaluator whose results become numpy
// arrays that own the buffers polyrt filled (no copy at the handover).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "columns/native_columns.hpp"
#include "io/buffer_sizes.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/numeric_types.hpp"
#include "polyrt/stats.hpp"
#include "python/src/bindings.hpp"
#include "python/src/buffer_pool.hpp"
#include "python/src/interruptible.hpp"
#include "python/src/native_batch.hpp"
#include "python/src/native_program.hpp"
#include "python/src/numpy_columns.hpp"
#include "python/src/values.hpp"
#include "scheduler/encoding/row_format.hpp"

namespace nb = nanobind;

namespace polyrt::python {
namespace {

size_t input_index(const Program& p, const std::string& name, const char* what) {
  const std::vector<std::string>& inputs = p.input_names();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == name) return i;
  }
  std::string known;
  for (const std::string& n : inputs) known += (known.empty() ? "" : ", ") + n;
  throw WriteError(
      std::string(what) + " names '" + name +
      "', which is not an input of the program; its inputs: " + (known.empty() ? "(none)" : known));
}

NativeBatch make_batch(const NativeProgram& native, const std::vector<std::string>& outputs,
                       const nb::dict& externs, const nb::dict& inputs, const nb::object& iterate,
                       const std::string& device, int gpu, size_t threads, uint64_t chunk_rows) {
  const Program& p = *native.program;
  BatchOptions options;
  for (size_t k = 0; k < outputs.size(); ++k) {
    for (size_t before = 0; before < k; ++before) {
      if (outputs[before] == outputs[k]) {
        throw WriteError("outputs name '" + outputs[k] +
                         "' twice; name each column once (a dict, a table or a file cannot "
                         "hold two columns of one name)");
      }
    }
  }
  options.outputs = outputs;
  const std::optional<BatchDevice> device_value = batch_device_named(device);
  if (!device_value) {
    throw WriteError("unknown device '" + device + "'; valid: " + kBatchDeviceNames);
  }
  options.device = DeviceChoice(*device_value, gpu);
  options.threads = threads;
  options.chunk_rows = chunk_rows;
  options.coordinates.assign(p.input_names().size(), 0);
  if (!iterate.is_none()) {
    options.iterated = input_index(p, name_from_python(iterate, "iterate"), "iterate");
  }
  for (auto [key, value] : inputs) {
    const std::string name = name_from_python(key, "a name in inputs");
    const size_t index = input_index(p, name, "inputs");
    if (index == options.iterated) {
      throw WriteError("input '" + name + "' is the one that iterates; it cannot also be fixed");
    }
    options.coordinates[index] =
        coordinate_from_python(value, [&] { return "inputs['" + name + "']"; });
  }
  for (auto [key, value] : externs) {
    const std::string name = name_from_python(key, "a name in externs");
    options.externs.emplace_back(name, extern_from_python(p, name, value));
  }
  auto stop = std::make_unique<std::atomic<bool>>(false);
  options.stop = stop.get();
  nb::gil_scoped_release release;
  auto evaluator = std::make_unique<BatchEvaluator>(native.program, options);
  return NativeBatch{native.program, std::move(stop), std::move(evaluator), std::move(options)};
}

// stop - start, refused when stop is before start (`call` names the variant).
uint64_t row_count(uint64_t start, uint64_t stop, const char* call) {
  if (stop < start) {
    throw WriteError("evaluate(" + std::to_string(start) + ", " + std::to_string(stop) + call +
                     "): stop is before start");
  }
  return stop - start;
}

// Every buffer evaluate() allocates, its size checked before the first is
// allocated: a wrapped size would be written far past its end.
void check_evaluate_sizes(const BatchEvaluator& evaluator, uint64_t start, uint64_t stop,
                          uint64_t count) {
  const std::vector<Type>& types = evaluator.output_types();
  io::BufferSizes sizes("evaluate(" + std::to_string(start) + ", " + std::to_string(stop) + ")");
  for (size_t o = 0; o < types.size(); ++o) {
    if (evaluator.output_is_none(o)) continue;
    if (evaluator.output_nullable(o)) sizes.add(count, 1);
    if (is_payload(types[o])) {
      sizes.add(count, sizeof(int64_t));
      sizes.add(1, sizeof(int64_t));
    } else {
      sizes.add(count, types[o] == Type::Bool ? 1 : native_width(types[o]));
    }
  }
  sizes.check_memory();
}

// evaluate()'s destinations, one per output, and the buffers behind them:
// freed with this unless handed to numpy (release()).
struct EvaluateBuffers {
  std::vector<Destination> out;
  std::vector<std::unique_ptr<void, decltype(&give_buffer)>> words;
  std::vector<std::unique_ptr<PooledText>> texts;

  EvaluateBuffers(const BatchEvaluator& evaluator, uint64_t count) {
    const std::vector<Type>& types = evaluator.output_types();
    out.resize(types.size());
    for (size_t o = 0; o < types.size(); ++o) {
      Destination& d = out[o];
      d.type = types[o];
      d.is_none = evaluator.output_is_none(o);
      if (d.is_none) continue;
      if (evaluator.output_nullable(o)) {
        d.present = allocate<bool>(count);
        words.emplace_back(d.present, &give_buffer);
      }
      if (is_payload(d.type)) {
        texts.push_back(std::make_unique<PooledText>(count));
        d.text = texts.back().get();
      } else {
        // Every number at its native width (bools as numpy bools).
        d.words = d.type == Type::Bool        ? (void*)allocate<bool>(count)
                  : native_width(d.type) == 8 ? (void*)allocate<uint64_t>(count)
                  : native_width(d.type) == 4 ? (void*)allocate<uint32_t>(count)
                  : native_width(d.type) == 2 ? (void*)allocate<uint16_t>(count)
                                              : (void*)allocate<uint8_t>(count);
        words.emplace_back(d.words, &give_buffer);
      }
    }
  }
  // Whether every output is a number evaluate_into can fill in place.
  bool words_only() const {
    return std::all_of(out.begin(), out.end(), [](const Destination& d) {
      return !d.is_none && !is_payload(d.type) && d.type != Type::Bool && !d.present;
    });
  }
  // After put_column: numpy owns the buffers.
  void release() {
    for (auto& w : words) w.release();
    texts.clear();
  }
};

// On the worker that evaluated the chunk: its numbers, bools and presence
// straight to their place in the arrays (row chunk.first - start).
void copy_numbers(const ColumnChunk& chunk, uint64_t start, const std::vector<Destination>& out) {
  const uint64_t at = chunk.first - start;
  for (size_t o = 0; o < out.size(); ++o) {
    const ColumnView& v = chunk.columns[o];
    const Destination& d = out[o];
    if (d.present && !d.is_none) {
      for (uint64_t r = 0; r < chunk.rows; ++r) d.present[at + r] = v.present[r] != 0;
    }
    if (d.is_none || is_payload(d.type)) continue;
    if (d.type == Type::Bool) {
      bool* to = static_cast<bool*>(d.words) + at;
      for (uint64_t r = 0; r < chunk.rows; ++r) to[r] = v.words[r] != 0;
    } else {
      columns::copy_native(d.type, v.words, chunk.rows,
                           static_cast<char*>(d.words) + at * native_width(d.type));
    }
  }
}

// In coordinate order: the chunk's texts appended (rows [start, start +
// count) in all).
void append_texts(const ColumnChunk& chunk, uint64_t start, uint64_t count,
                  const std::vector<Destination>& out) {
  for (size_t o = 0; o < out.size(); ++o) {
    const Destination& d = out[o];
    if (d.is_none || !is_payload(d.type)) continue;
    const ColumnView& v = chunk.columns[o];
    if (chunk.first == start && chunk.rows > 0) {
      // Room for all rows, as Column::reserve makes it; where that is more
      // than memory holds, growth will tell.
      try {
        d.text->reserve(text_bytes_to_reserve(v, chunk.rows, count));
      } catch (const std::bad_alloc&) {
      }
    }
    d.text->append(v.offsets, chunk.rows, v.bytes);
  }
}

// Rows [start, stop) of every output: number and bool columns as numpy
// arrays, str, bytes and json columns as (offsets, bytes) arrays in Arrow's
// LargeString/LargeBinary layout, None for outputs that are None on every row.
nb::dict evaluate(const NativeBatch& batch, uint64_t start, uint64_t stop) {
  const uint64_t count = row_count(start, stop, "");
  const BatchEvaluator& evaluator = *batch.evaluator;
  check_evaluate_sizes(evaluator, start, stop, count);
  EvaluateBuffers buffers(evaluator, count);
  const std::vector<Destination>& out = buffers.out;
  run_interruptible(
      [&] {
        if (buffers.words_only()) {
          std::vector<uint64_t*> into;
          for (const Destination& d : out) into.push_back(static_cast<uint64_t*>(d.words));
          evaluator.evaluate_into(start, count, into);
          return;
        }
        evaluator.stream_encoded(
            start, count,
            [&](const ColumnChunk& chunk, std::string&) { copy_numbers(chunk, start, out); },
            [&](const ColumnChunk& chunk, std::string&) {
              append_texts(chunk, start, count, out);
            });
      },
      *batch.stop, count <= kDefaultChunkRows);
  nb::dict result;
  for (size_t o = 0; o < out.size(); ++o) {
    put_column(result, evaluator.output_names()[o], out[o], count);
  }
  buffers.release();  // numpy owns them now
  return result;
}

// Rows [start, stop) as the bytes `polyrt run --format` writes: text rows
// of `format` ("csv", "tsv", "jsonl"), after the format's header line when
// `header` (on a GPU whose plan allows it, encoded on the device).
nb::bytes text_rows(const NativeBatch& batch, uint64_t start, uint64_t stop,
                    const std::string& format, bool header) {
  if (stop < start) {
    throw WriteError("text(" + std::to_string(start) + ", " + std::to_string(stop) +
                     "): stop is before start");
  }
  const std::optional<RowFormat> rows = row_format_named(format);
  if (!rows) {
    throw WriteError("no text row format '" + format +
                     "' (valid: " + scheduler::row_format_names() + ")");
  }
  const uint64_t count = stop - start;
  std::string out;
  run_interruptible(
      [&] {
        batch.evaluator->stream_rows(
            start, count, *rows, [&](uint64_t, uint64_t, std::string_view bytes) { out += bytes; });
      },
      *batch.stop, count <= kDefaultChunkRows);
  if (header) {
    out.insert(0, scheduler::header_line(*rows, batch.evaluator->output_names()));
  }
  return nb::bytes(out.data(), out.size());
}

// A DLPack-capable array over a device column's memory, `shape` elements of
// `dtype` at `address`, keeping the memory alive.
nb::object device_tensor(const DeviceColumn& c, uint64_t address,
                         std::initializer_list<size_t> shape, nb::dlpack::dtype dtype) {
  auto* keep = new std::shared_ptr<const void>(c.memory);
  nb::capsule owner(keep,
                    [](void* p) noexcept { delete static_cast<std::shared_ptr<const void>*>(p); });
  return nb::cast(nb::ndarray<nb::array_api>(reinterpret_cast<void*>(address), shape, owner, {},
                                             dtype, nb::device::cuda::value, c.device));
}

// The DLPack type of a vector type's elements.
nb::dlpack::dtype element_dtype(Type vector) {
  switch (vector) {
    case Type::VecF32:
      return nb::dtype<float>();
    case Type::VecF64:
      return nb::dtype<double>();
    case Type::VecI32:
      return nb::dtype<int32_t>();
    case Type::VecI64:
      return nb::dtype<int64_t>();
    default:
      return nb::dtype<uint64_t>();
  }
}

// Rows [start, stop) in memory on the batch's GPU: per output (name, type,
// gpu, address, rows, tensor, text_address, text_bytes, text_tensor,
// matrix, dim), the tensors DLPack-capable nanobind arrays that keep the
// memory alive (None for an output None on every row). A text or vector
// output's tensor is its rows + 1 int64 offsets, its text_tensor its bytes
// (uint8); a vector of a fixed dimension `dim` has its elements as a rows x
// dim array in matrix (they are dense), else matrix and dim are None.
nb::list evaluate_to_device(const NativeBatch& batch, uint64_t start, uint64_t stop) {
  const uint64_t count = row_count(start, stop, ", on_device=True");
  std::vector<DeviceColumn> columns;
  run_interruptible([&] { columns = batch.evaluator->evaluate_to_device(start, count); },
                    *batch.stop, count <= kDefaultChunkRows);
  nb::list out;
  for (size_t o = 0; o < columns.size(); ++o) {
    const DeviceColumn& c = columns[o];
    nb::object tensor = nb::none(), text_tensor = nb::none(), matrix = nb::none(),
               dimension = nb::none();
    if (c.memory && is_payload(c.type)) {
      tensor = device_tensor(c, c.address, {(size_t)c.rows + 1}, nb::dtype<int64_t>());
      text_tensor = device_tensor(c, c.text_address, {(size_t)c.text_bytes}, nb::dtype<uint8_t>());
      if (const std::optional<uint64_t> dim = batch.evaluator->output_dimensions()[o];
          is_vector(c.type) && dim) {
        matrix =
            device_tensor(c, c.text_address, {(size_t)c.rows, (size_t)*dim}, element_dtype(c.type));
        dimension = nb::int_(*dim);
      }
    } else if (c.memory) {
      tensor = device_tensor(c, c.address, {(size_t)c.rows},
                             c.type == Type::F64   ? nb::dtype<double>()
                             : c.type == Type::I64 ? nb::dtype<int64_t>()
                                                   : nb::dtype<uint64_t>());
    }
    out.append(nb::make_tuple(c.name, std::string(type_name(c.type)), c.device, c.address, c.rows,
                              tensor, c.text_address, c.text_bytes, text_tensor, matrix,
                              dimension));
  }
  return out;
}

// A device column (evaluate_to_device's fields) copied to the host: its
// words as uint64, or a text column's (offsets, bytes).
nb::object device_to_host(const NativeBatch& batch, const std::string& name,
                          const std::string& type, int gpu, uint64_t address, uint64_t rows,
                          uint64_t text_address, uint64_t text_bytes) {
  Type column_type = Type::U64;
  if (!parse_type_name(type, column_type)) throw WriteError("no type named '" + type + "'");
  const DeviceColumn column{name, column_type,  DeviceKind::Gpu, gpu,    address,
                            rows, text_address, text_bytes,      nullptr};
  Column host;
  {
    nb::gil_scoped_release release;
    host = batch.evaluator->to_host(column);
  }
  if (host.is_none) return nb::none();
  if (!is_payload(column.type)) {
    auto* words = allocate<uint64_t>(rows);
    std::memcpy(words, host.words.data(), rows * 8);
    return numpy_owning(words, rows);
  }
  const Destination d = destination_of(std::move(host), false);
  const std::unique_ptr<PooledText> text(d.text);
  return column_object(d, rows);
}

// Python str objects for a str column (for evaluate's numpy object arrays).
nb::list str_objects(nb::ndarray<const int64_t, nb::ndim<1>> offsets,
                     nb::ndarray<const uint8_t, nb::ndim<1>> bytes) {
  nb::list out;
  const int64_t* at = offsets.data();
  const char* text = reinterpret_cast<const char*>(bytes.data());
  for (size_t r = 0; r + 1 < offsets.shape(0); ++r) {
    out.append(text_to_python(std::string_view(text + at[r], (size_t)(at[r + 1] - at[r]))));
  }
  return out;
}

// Python bytes objects for a bytes column.
nb::list bytes_objects(nb::ndarray<const int64_t, nb::ndim<1>> offsets,
                       nb::ndarray<const uint8_t, nb::ndim<1>> bytes) {
  nb::list out;
  const int64_t* at = offsets.data();
  const char* data = reinterpret_cast<const char*>(bytes.data());
  for (size_t r = 0; r + 1 < offsets.shape(0); ++r) {
    out.append(nb::bytes(data + at[r], (size_t)(at[r + 1] - at[r])));
  }
  return out;
}

}  // namespace

void bind_batch(nb::module_& m) {
  nb::class_<NativeBatch>(m, "NativeBatch")
      .def_prop_ro("output_names", [](const NativeBatch& b) { return b.evaluator->output_names(); })
      .def_prop_ro("output_types",
                   [](const NativeBatch& b) {
                     std::vector<std::string> types;
                     for (Type t : b.evaluator->output_types()) types.emplace_back(type_name(t));
                     return types;
                   })
      .def_prop_ro("output_dimensions",
                   [](const NativeBatch& b) { return b.evaluator->output_dimensions(); })
      // Per output: "timestamp", "timestamp_us", "date", "decimal(p, s)", or "".
      .def_prop_ro("output_logical_types",
                   [](const NativeBatch& b) {
                     std::vector<std::string> names;
                     for (LogicalType t : b.evaluator->output_logical_types()) {
                       names.push_back(logical_type_name(t));
                     }
                     return names;
                   })
      // Per output: whether it may hold nulls (nullable, or None on every row).
      .def_prop_ro(
          "output_nullable",
          [](const NativeBatch& b) {
            std::vector<bool> nullable;
            for (size_t o = 0; o < b.evaluator->output_names().size(); ++o) {
              nullable.push_back(b.evaluator->output_nullable(o) || b.evaluator->output_is_none(o));
            }
            return nullable;
          })
      .def_prop_ro("device", [](const NativeBatch& b) { return b.evaluator->device_name(); })
      .def("describe", [](const NativeBatch& b) { return b.evaluator->describe(); })
      .def("device_shares",
           [](const NativeBatch& b) {
             nb::list shares;
             for (const DeviceShare& s : b.evaluator->device_shares()) {
               shares.append(nb::make_tuple(s.device, s.rows, s.active_seconds));
             }
             return shares;
           })
      .def("device_faults", [](const NativeBatch& b) { return b.evaluator->device_faults(); })
      .def("evaluate", &evaluate, nb::arg("start"), nb::arg("stop"))
      .def(
          "stats_json",
          [](const NativeBatch& b, uint64_t start, uint64_t stop) {
            if (stop < start) {
              throw WriteError("stats(" + std::to_string(start) + ", " + std::to_string(stop) +
                               "): stop is before start");
            }
            nb::gil_scoped_release release;
            return stats_json(compute_stats(b.program, b.options, start, stop - start));
          },
          nb::arg("start"), nb::arg("stop"))
      .def("evaluate_to_device", &evaluate_to_device, nb::arg("start"), nb::arg("stop"))
      .def("device_to_host", &device_to_host)
      .def("text", &text_rows, nb::arg("start"), nb::arg("stop"), nb::arg("format"),
           nb::arg("header"));
  m.def("make_batch", &make_batch, nb::arg("program"), nb::arg("outputs"), nb::arg("externs"),
        nb::arg("inputs"), nb::arg("iterate").none(), nb::arg("device"), nb::arg("gpu"),
        nb::arg("threads"), nb::arg("chunk_rows"));
  m.def("str_objects", &str_objects);
  m.def("bytes_objects", &bytes_objects);
  m.def("set_buffer_cache_limit", &set_buffer_cache_limit, nb::arg("bytes"));
}

}  // namespace polyrt::python

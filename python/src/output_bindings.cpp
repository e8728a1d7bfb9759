// Files the Python package writes (write_parquet) follow the command's
// rules: the same refusals (a source file of the program, a symbolic link,
// a read-only file), a temporary named after its owner (removed by a later
// run once that owner is gone) with a new file's mode, renamed into place;
// Parquet is written by the command's own writer (write_columnar).
// And Arrow's string columns are always valid UTF-8; a long write shows the
// command's progress line (scheduler/jobs/progress_bar.hpp) on a terminal.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/error.hpp"
#include "python/src/bindings.hpp"
#include "python/src/interruptible.hpp"
#include "python/src/native_batch.hpp"
#include "rtlib/utf8.hpp"
#include "rtlib/web_encoding.hpp"
#include "scheduler/jobs/progress_bar.hpp"
#include "scheduler/output/columnar_format.hpp"
#include "scheduler/output/compression.hpp"
#include "scheduler/output/output_format.hpp"
#include "scheduler/output/output_target.hpp"

namespace nb = nanobind;

namespace polyrt::python {
namespace {

// The command's refusals (check_output_target), and a target that is not a
// regular file: `call` writes a file.
void refuse_unwritable(const std::string& path, const std::vector<std::string>& protected_files,
                       const std::string& call) {
  if (scheduler::check_output_target(path, protected_files, call)) {
    throw OutputError(call + " " + path + " is not a regular file (a device, pipe or directory); " +
                      call + " writes a file");
  }
}

// The temporary file to write `path` through (closed: the writer opens it).
std::string begin_output(const std::string& path, const std::vector<std::string>& protected_files,
                         const std::string& call) {
  refuse_unwritable(path, protected_files, call);
  const scheduler::OutputTemporary temporary = scheduler::create_output_temporary(path);
  ::close(temporary.fd);
  return temporary.path;
}

// Rows [start, stop) of the batch's outputs written to `path` in a columnar
// format by the command's own writer (scheduler/output/columnar_format.cpp,
// the Arrow module: for Parquet, row groups encoded on every core): the file
// `polyrt run --format FORMAT --compress COMPRESSION` writes, atomically,
// with the command's progress line. An output None on every row is nulls.
void write_columnar(const NativeBatch& batch, const std::string& path, uint64_t start,
                    uint64_t stop, const std::string& format, const std::string& compression,
                    uint64_t row_group_rows, const std::vector<std::string>& protected_files,
                    const std::string& call) {
  const scheduler::OutputFormat* writes = scheduler::find_output_format(format);
  if (!writes) throw OutputError(call + ": no columnar format '" + format + "'");
  const scheduler::Compression codec = scheduler::parse_compression(compression);
  const std::vector<scheduler::Codec> codecs = writes->codecs();
  if (std::find(codecs.begin(), codecs.end(), codec.codec) == codecs.end()) {
    throw OutputError(call + ": " + format + " takes compression " +
                      scheduler::codec_names(codecs) + ", not '" + compression + "'");
  }
  refuse_unwritable(path, protected_files, call);
  const BatchEvaluator& evaluator = *batch.evaluator;
  const uint64_t count = stop - start;
  scheduler::OutputColumns columns{.names = evaluator.output_names(),
                                   .types = evaluator.output_types(),
                                   .first = start,
                                   .rows = count,
                                   .compression = codec,
                                   .row_group_rows = row_group_rows,
                                   .dimensions = evaluator.output_dimensions(),
                                   .logical_types = evaluator.output_logical_types()};
  for (size_t o = 0; o < columns.names.size(); ++o) {
    columns.nullable.push_back(evaluator.output_nullable(o) || evaluator.output_is_none(o));
  }
  run_interruptible(
      [&] {
        const std::unique_ptr<scheduler::FormatWriter> writer = writes->open(
            scheduler::OutputPlace{
                .path = path, .protected_files = protected_files, .stop = batch.stop.get()},
            columns);
        scheduler::ProgressBar progress(count, call);
        evaluator.stream_encoded(
            start, count,
            [&](const ColumnChunk& chunk, std::string& bytes) { writer->encode(chunk, bytes); },
            [&](const ColumnChunk& chunk, std::string& bytes) {
              writer->write_taking(bytes);
              progress.advance(chunk.rows);
            });
        progress.finish();
        writer->commit();
      },
      *batch.stop, count <= kDefaultChunkRows);
}

// A text column (Arrow LargeString offsets and bytes) as valid UTF-8: None
// when it already is (the common case: no copy; checked eight ASCII bytes at
// a time, rt::valid_utf8), else (offsets, bytes,
// rows changed) with each invalid sequence replaced by U+FFFD, by the text
// nodes' one rule (rt::utf8_lossy).
nb::object valid_utf8(nb::ndarray<const int64_t, nb::ndim<1>> offsets,
                      nb::ndarray<const uint8_t, nb::ndim<1>> bytes) {
  const int64_t* at = offsets.data();
  const size_t rows = offsets.shape(0) == 0 ? 0 : offsets.shape(0) - 1;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()),
                              rows == 0 ? 0 : (size_t)at[rows]);
  if (rt::valid_utf8(text)) return nb::none();
  auto* new_offsets = new std::vector<int64_t>{0};
  auto* new_bytes = new std::string;
  new_offsets->reserve(rows + 1);
  new_bytes->reserve(text.size() + text.size() / 8);
  size_t changed = 0;
  for (size_t r = 0; r < rows; ++r) {
    const std::string_view row = text.substr((size_t)at[r], (size_t)(at[r + 1] - at[r]));
    if (rt::valid_utf8(row)) {
      new_bytes->append(row);
    } else {
      new_bytes->append(rt::utf8_lossy(row));
      ++changed;
    }
    new_offsets->push_back((int64_t)new_bytes->size());
  }
  nb::capsule offsets_owner(new_offsets,
                            [](void* p) noexcept { delete static_cast<std::vector<int64_t>*>(p); });
  nb::capsule bytes_owner(new_bytes, [](void* p) noexcept { delete static_cast<std::string*>(p); });
  return nb::make_tuple(
      nb::ndarray<nb::numpy, int64_t, nb::ndim<1>>(new_offsets->data(), {new_offsets->size()},
                                                   offsets_owner),
      nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>>(reinterpret_cast<uint8_t*>(new_bytes->data()),
                                                   {new_bytes->size()}, bytes_owner),
      changed);
}

}  // namespace

void bind_output(nb::module_& m) {
  m.def("begin_output", &begin_output, nb::arg("path"), nb::arg("protected_files"),
        nb::arg("call"));
  m.def("commit_output", &scheduler::commit_output_temporary, nb::arg("temporary"),
        nb::arg("path"));
  m.def("columnar_module_error", &scheduler::ColumnarFormat::module_error);
  m.def("write_columnar", &write_columnar, nb::arg("batch"), nb::arg("path"), nb::arg("start"),
        nb::arg("stop"), nb::arg("format"), nb::arg("compression"), nb::arg("row_group_rows"),
        nb::arg("protected_files"), nb::arg("call"));
  m.def("valid_utf8", &valid_utf8, nb::arg("offsets"), nb::arg("bytes"));
  // rows, percent, rows/s and the time left on stderr when it is a terminal
  // and the job has run a second; cleared when finished or collected.
  nb::class_<scheduler::ProgressBar>(m, "Progress")
      .def(nb::init<uint64_t, std::string>(), nb::arg("total_rows"), nb::arg("label") = "")
      .def("advance", &scheduler::ProgressBar::advance, nb::arg("rows"))
      .def("finish", &scheduler::ProgressBar::finish);
}

}  // namespace polyrt::python

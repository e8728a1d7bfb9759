// Files the Python package writes (write_parquet) follow the command's
// rules: the same refusals (a source file of the program, a symbolic link,
// a read-only file), a temporary named after its owner (removed by a later
// run once that owner is gone) with a new file's mode, renamed into place.
// And Arrow's string columns are always valid UTF-8.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "polyrt/error.hpp"
#include "python/src/bindings.hpp"
#include "scheduler/output_target.hpp"

namespace nb = nanobind;

namespace polyrt::python {
namespace {

// The temporary file to write `path` through (closed: the writer opens it).
std::string begin_output(const std::string& path, const std::vector<std::string>& protected_files,
                         const std::string& call) {
  if (scheduler::check_output_target(path, protected_files, call)) {
    throw UsageError(call + " " + path +
                     " is not a regular file (a device, pipe or directory); write_parquet "
                     "writes a file");
  }
  const scheduler::OutputTemporary temporary = scheduler::create_output_temporary(path);
  ::close(temporary.fd);
  return temporary.path;
}

// Length of the valid UTF-8 sequence at `s` (of `n` bytes), 0 when invalid.
size_t utf8_sequence(const unsigned char* s, size_t n) {
  const unsigned char c = s[0];
  if (c < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;   // no overlong forms
    if (c == 0xED) high = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (n < length || s[1] < low || s[1] > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (s[k] < 0x80 || s[k] > 0xBF) return 0;
  }
  return length;
}

// A text column (Arrow LargeString offsets and bytes) as valid UTF-8: None
// when it already is (the common case: no copy), else (offsets, bytes,
// rows changed) with each invalid byte replaced by U+FFFD.
nb::object valid_utf8(nb::ndarray<const int64_t, nb::ndim<1>> offsets,
                      nb::ndarray<const uint8_t, nb::ndim<1>> bytes) {
  const int64_t* at = offsets.data();
  const unsigned char* data = bytes.data();
  const size_t rows = offsets.shape(0) == 0 ? 0 : offsets.shape(0) - 1;
  const size_t end = rows == 0 ? 0 : (size_t)at[rows];
  size_t first_bad = end;
  for (size_t i = 0; i < end;) {
    if (data[i] < 0x80) {
      ++i;
      continue;
    }
    const size_t n = utf8_sequence(data + i, end - i);
    if (n == 0) {
      first_bad = i;
      break;
    }
    i += n;
  }
  if (first_bad == end) return nb::none();
  static constexpr char kReplacement[] = "\xEF\xBF\xBD";
  auto* new_offsets = new std::vector<int64_t>{0};
  auto* new_bytes = new std::string;
  new_offsets->reserve(rows + 1);
  new_bytes->reserve(end + end / 8);
  size_t changed = 0;
  for (size_t r = 0; r < rows; ++r) {
    bool row_changed = false;
    for (size_t i = (size_t)at[r]; i < (size_t)at[r + 1];) {
      const size_t n = utf8_sequence(data + i, (size_t)at[r + 1] - i);
      if (n == 0) {
        new_bytes->append(kReplacement, 3);
        row_changed = true;
        ++i;
      } else {
        new_bytes->append(reinterpret_cast<const char*>(data + i), n);
        i += n;
      }
    }
    changed += row_changed;
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
  m.def("valid_utf8", &valid_utf8, nb::arg("offsets"), nb::arg("bytes"));
}

}  // namespace polyrt::python

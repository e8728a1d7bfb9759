// Text rows (CSV, TSV, JSON Lines) encoded on the GPU (kernels of
// codegen/row_encoding_kernels.cpp), from the fields' writers that the host's
// row writers use (row_fields.h): the same bytes on every tier. One thread
// per segment of `segment_rows` rows: a length pass sums each segment's
// bytes (counting integers' digits without writing them), the text compaction's scans
// (device_text.cpp) turn the sums into offsets, and a write pass writes each segment's rows at its
// offset.
#include "device_rows.h"

#include "row_fields.h"
#include "rtlib.h"
#include "text_writers.h"
#include "word_writer.h"

namespace {

using polyrt::rt::DeviceRowField;
using polyrt::rt::DeviceRowValue;
using polyrt::rt::RowFormat;

// A number field written into local room, then put: the digit writers
// store past their text's end, which must not reach the next segment's.
template <typename Out, typename Write>
void put_number(Out& out, const Write& write) {
  char room[polyrt::rt::kNumberFieldText];
  out.put(room, (uint64_t)(write(room) - room));
}

// Integers and bools: the length pass counts their digits (a bit width and
// a table), the write pass writes them.
template <typename Out>
void put_u64(Out& out, uint64_t x) {
  put_number(out, [&](char* p) { return polyrt::rt::write_u64(p, x); });
}
void put_u64(polyrt::rt::ByteCounter& out, uint64_t x) {
  out.n += (uint64_t)polyrt::rt::u64_digits(x);
}
template <typename Out>
void put_i64(Out& out, int64_t x) {
  put_number(out, [&](char* p) { return polyrt::rt::write_i64(p, x); });
}
void put_i64(polyrt::rt::ByteCounter& out, int64_t x) {
  out.n +=
      (x < 0 ? 1 : 0) + (uint64_t)polyrt::rt::u64_digits(x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
}
template <typename Out>
void put_bool(Out& out, bool b) {
  put_number(out, [&](char* p) { return polyrt::rt::write_bool_field(p, b); });
}
void put_bool(polyrt::rt::ByteCounter& out, bool b) {
  out.n += b ? 4 : 5;  // true, false
}

// Bytes as their lowercase hex, a JSON string in JSON Lines (hex needs no
// escape in any format).
template <typename Out>
void put_hex_field(Out& out, RowFormat format, const char* bytes, uint64_t n) {
  if (format == RowFormat::Jsonl) out.put('"');
  for (uint64_t k = 0; k < n; ++k) {
    char pair[2];
    polyrt::rt::write_hex_bytes(pair, (const unsigned char*)bytes + k, 1);
    out.put(pair, 2);
  }
  if (format == RowFormat::Jsonl) out.put('"');
}

template <typename Out>
void put_row(Out& out, const DeviceRowField* fields, uint64_t count, RowFormat format,
             uint64_t row) {
  for (uint64_t k = 0; k < count; ++k) {
    const DeviceRowField& f = fields[k];
    out.put(reinterpret_cast<const char*>(f.prefix), f.prefix_bytes);
    const char* at = reinterpret_cast<const char*>(f.values) + row * f.stride;
    uint64_t word = 0;
    if (f.kind != DeviceRowValue::None && f.kind != DeviceRowValue::Lane) {
      __builtin_memcpy(&word, at, 8);
    }
    switch (f.kind) {
      case DeviceRowValue::None:
        break;
      case DeviceRowValue::U64:
        put_u64(out, word);
        break;
      case DeviceRowValue::I64:
        put_i64(out, (int64_t)word);
        break;
      case DeviceRowValue::F64:
        put_number(out, [&](char* p) {
          return polyrt::rt::write_f64_field(p, format, __builtin_bit_cast(double, word));
        });
        break;
      case DeviceRowValue::F32:
        put_number(out, [&](char* p) {
          return polyrt::rt::write_f32_field(p, format, __builtin_bit_cast(double, word));
        });
        break;
      case DeviceRowValue::Bool:
        put_bool(out, word != 0);
        break;
      case DeviceRowValue::Text:
      case DeviceRowValue::JsonText:
      case DeviceRowValue::Bytes: {
        // The slot's length, never past its room (every kernel writes it).
        const uint32_t length = pd_device_text_length(at);
        const uint32_t room = f.stride - PD_DEVICE_TEXT_LENGTH - PD_DEVICE_TEXT_SLACK;
        const char* text = at + PD_DEVICE_TEXT_LENGTH;
        const uint32_t n = length < room ? length : room;
        if (f.kind == DeviceRowValue::Bytes) {
          put_hex_field(out, format, text, n);
        } else if (f.kind == DeviceRowValue::JsonText && format == RowFormat::Jsonl) {
          out.put(text, n);  // a JSON value embedded as itself
        } else {
          polyrt::rt::put_text_field(out, format, text, n);
        }
        break;
      }
      case DeviceRowValue::Lane:
        put_u64(out, f.values + row);
        break;
    }
  }
}

}  // namespace

PD_API void pd_rows_segment_bytes(const void* fields, uint64_t count, uint64_t format,
                                  uint64_t rows, uint64_t segment_rows, uint64_t* sums,
                                  uint64_t segment) {
  const uint64_t begin = segment * segment_rows;
  polyrt::rt::ByteCounter bytes;
  for (uint64_t r = begin; r < pd_segment_end(begin, segment_rows, rows); ++r) {
    put_row(bytes, static_cast<const DeviceRowField*>(fields), count, (RowFormat)format, r);
  }
  sums[segment] = bytes.n;
}

PD_API void pd_rows_write_segment(const void* fields, uint64_t count, uint64_t format,
                                  uint64_t rows, uint64_t segment_rows, const uint64_t* sums,
                                  uint64_t group_segments, const uint64_t* group_sums, char* out,
                                  uint64_t segment) {
  const uint64_t begin = segment * segment_rows;
  polyrt::rt::WordWriter bytes(out + group_sums[segment / group_segments] + sums[segment]);
  for (uint64_t r = begin; r < pd_segment_end(begin, segment_rows, rows); ++r) {
    put_row(bytes, static_cast<const DeviceRowField*>(fields), count, (RowFormat)format, r);
  }
  bytes.finish();
}

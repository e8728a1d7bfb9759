// The fields of text rows (CSV, TSV, JSON Lines), freestanding (see
// text_writers.h): the host's row writers (scheduler/encoding/row_format.cpp)
// and the GPU's row encoding kernels (device_rows.cpp) write the same bytes
// from this one source. The text escapes put their bytes into an Out:
// ByteWriter stores them, ByteCounter counts them (the GPU's length pass).
#pragma once

#include "pd_rt.h"
#include "polyrt/row_format.hpp"
#include "shortest_double.hpp"
#include "utf8_decode.h"

namespace polyrt::rt {

using RowFormat = ::polyrt::RowFormat;

struct ByteWriter {
  char* p;
  void put(char c) { *p++ = c; }
  void put(const char* s, uint64_t n) {
    __builtin_memcpy(p, s, n);
    p += n;
  }
};

struct ByteCounter {
  uint64_t n = 0;
  void put(char) { ++n; }
  void put(const char*, uint64_t k) { n += k; }
};

// Whether byte c makes a CSV field need quotes (RFC 4180). polydat's tiles
// quote a field for , " and a newline only (tile_csv: true).
inline bool csv_special(unsigned char c, bool tile_csv = false) {
  return c == ',' || c == '"' || (c == '\r' && !tile_csv) || c == '\n';
}

// The letter of the backslash escape TSV and JSON share for c, or 0.
inline char backslash_letter(unsigned char c) {
  switch (c) {
    case '\\':
      return '\\';
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    case '\t':
      return 't';
    default:
      return 0;
  }
}

// Whether byte c needs a JSON escape or a UTF-8 check.
inline bool json_special(unsigned char c) {
  return c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
}

// A CSV field: as it is, or quoted with its quotes doubled when a byte needs
// (csv_special).
template <typename Out>
void put_csv_text(Out& out, const char* s, uint64_t n, bool tile_csv = false) {
  uint64_t i = 0;
  while (i < n && !csv_special((unsigned char)s[i], tile_csv)) ++i;
  if (i == n) return out.put(s, n);
  out.put('"');
  for (i = 0; i < n; ++i) {
    if (s[i] == '"') out.put('"');
    out.put(s[i]);
  }
  out.put('"');
}

// A TSV field: backslash, newline, return and tab as \\ \n \r \t.
template <typename Out>
void put_tsv_text(Out& out, const char* s, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    if (const char letter = backslash_letter((unsigned char)s[i])) {
      out.put('\\');
      out.put(letter);
    } else {
      out.put(s[i]);
    }
  }
}

// Text as the inside of a JSON string, valid whatever the bytes: the short
// escapes, \u00XX for other control bytes, valid UTF-8 as it is, and a byte
// of no valid sequence as the lone surrogate \udcXX (Python's
// surrogateescape: the bytes can be recovered). serde_json writes backspace
// and form feed as \b and \f; polydat's tiles as \u0008 and \u000c
// (letters_bf: false).
template <typename Out>
void put_json_escaped(Out& out, const char* s, uint64_t n, bool letters_bf = true) {
  // Plain text (most of it) goes out in one copy.
  uint64_t plain = 0;
  while (plain < n && !json_special((unsigned char)s[plain])) ++plain;
  out.put(s, plain);
  s += plain;
  n -= plain;
  const char* hex = "0123456789abcdef";
  const auto escaped = [&](const char* prefix, unsigned char c) {
    out.put(prefix, 4);
    out.put(hex[c >> 4]);
    out.put(hex[c & 15]);
  };
  for (uint64_t i = 0; i < n;) {
    const auto c = (unsigned char)s[i];
    if (c >= 0x80) {
      const Utf8Sequence at = utf8_sequence((const unsigned char*)s + i, n - i);
      if (at.valid) {
        out.put(s + i, at.size);
        i += at.size;
      } else {
        escaped("\\udc", c);
        ++i;
      }
      continue;
    }
    ++i;
    const char letter = c == '"'                  ? '"'
                        : c == '\b' && letters_bf ? 'b'
                        : c == '\f' && letters_bf ? 'f'
                                                  : backslash_letter(c);
    if (letter) {
      out.put('\\');
      out.put(letter);
    } else if (c < 0x20) {
      escaped("\\u00", c);
    } else {
      out.put((char)c);
    }
  }
}

// A str field of `format`: CSV's quoting, TSV's escapes, a JSON string.
template <typename Out>
void put_text_field(Out& out, RowFormat format, const char* s, uint64_t n) {
  switch (format) {
    case RowFormat::Csv:
      return put_csv_text(out, s, n);
    case RowFormat::Tsv:
      return put_tsv_text(out, s, n);
    case RowFormat::Jsonl:
      out.put('"');
      put_json_escaped(out, s, n);
      out.put('"');
      return;
  }
}

// The longest number field (an f64's shortest text and the writer's room).
inline constexpr uint64_t kNumberFieldText = 48;

// NaN, inf, -inf: polyrt's words. JSON has no such numbers, so JSON Lines
// carries them as the strings "NaN", "inf", "-inf" (lossless, unlike null).
[[gnu::noinline]] inline char* write_non_finite_field(char* p, RowFormat format, double d) {
  if (format == RowFormat::Jsonl) *p++ = '"';
  p = write_literal(p, special_f64(d));
  if (format == RowFormat::Jsonl) *p++ = '"';
  return p;
}

// An f64 field: the shortest text that reads back to it.
inline char* write_f64_field(char* p, RowFormat format, double d) {
  if (d - d == 0.0) return write_shortest_finite(p, d);
  return write_non_finite_field(p, format, d);
}

// An f32 field (its word holds the f32 as a double): the shortest text that
// reads back to the f32.
inline char* write_f32_field(char* p, RowFormat format, double d) {
  if (d - d == 0.0) return write_f32_shortest_finite(p, (float)d);
  return write_non_finite_field(p, format, d);
}

inline char* write_bool_field(char* p, bool b) {
  if (b) {
    __builtin_memcpy(p, "true", 4);
    return p + 4;
  }
  __builtin_memcpy(p, "false", 5);
  return p + 5;
}

}  // namespace polyrt::rt

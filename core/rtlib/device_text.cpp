// The text of string nodes as GPU kernels write it (DESIGN.md section 5, the
// device text of the GPU tier): each writes one row's text at `out` and
// returns its length in bytes. They wrap the writers the host's text nodes
// use (text_writers.h), so a row's bytes are the same on every tier. `out`
// has the node's bound plus PD_DEVICE_TEXT_SLACK bytes of room.
#include "digest_blocks.h"
#include "fixed_decimal.h"
#include "row_fields.h"
#include "rtlib.h"
#include "shortest_double.hpp"
#include "text_writers.h"
#include "utf8_decode.h"
#include "vector_writers.h"
#include "word_writer.h"

PD_API uint64_t pd_text_copy(char* out, const char* text, uint64_t length) {
  for (uint64_t k = 0; k < length; ++k) out[k] = text[k];
  return length;
}

PD_API uint64_t pd_text_pick(char* out, uint64_t index, const int64_t* offsets, const char* bytes) {
  const int64_t begin = offsets[index];
  return pd_text_copy(out, bytes + begin, (uint64_t)(offsets[index + 1] - begin));
}

PD_API uint64_t pd_text_select(char* out, uint64_t cond, const char* then_text,
                               uint64_t then_length, const char* else_text, uint64_t else_length) {
  return cond != 0 ? pd_text_copy(out, then_text, then_length)
                   : pd_text_copy(out, else_text, else_length);
}

PD_API uint64_t pd_text_u64(char* out, uint64_t x) {
  return (uint64_t)(polyrt::rt::write_u64(out, x) - out);
}

PD_API uint64_t pd_text_i64(char* out, uint64_t x) {
  return (uint64_t)(polyrt::rt::write_i64(out, (int64_t)x) - out);
}

PD_API uint64_t pd_text_bool(char* out, uint64_t x) {
  return pd_text_copy(out, x ? "true" : "false", x ? 4 : 5);
}

PD_API uint64_t pd_text_u64_radix(char* out, uint64_t x, uint64_t radix) {
  return (uint64_t)(polyrt::rt::write_u64_radix(out, x, (int)radix, true) - out);
}

PD_API uint64_t pd_text_zero_pad_u64(char* out, uint64_t x, uint64_t width) {
  return (uint64_t)(polyrt::rt::write_u64_zero_pad(out, x, width) - out);
}

PD_API uint64_t pd_vec_hash(char* out, uint64_t seed, uint64_t dim) {
  polyrt::rt::write_hash_vec(seed, dim, out);
  return 4 * dim;
}

PD_API uint64_t pd_vec_unit(char* out, const char* a, uint64_t a_bytes) {
  polyrt::rt::write_unit_f32(a, a_bytes / 4, out);
  return a_bytes / 4 * 4;
}

PD_API uint64_t pd_vec_scale(char* out, const char* a, uint64_t a_bytes, uint64_t k_bits) {
  polyrt::rt::write_scaled_f32(a, a_bytes / 4, (float)pd_bits_to_f64(k_bits), out);
  return a_bytes / 4 * 4;
}

PD_API uint64_t pd_vec_xxhash3(char* out, uint64_t seed, uint64_t dim) {
  polyrt::rt::write_xxhash3_vec(seed, dim, out);
  return 4 * dim;
}

PD_API uint64_t pd_vec_add(char* out, const char* a, uint64_t a_bytes, const char* b, uint64_t) {
  polyrt::rt::write_sum_f32(a, b, a_bytes / 4, out);
  return a_bytes / 4 * 4;
}

// The reductions of two vectors of one length (the plan makes sure of it):
// their f64 word, not a text (DeviceTextKind::Word).
PD_API double pd_vec_dot(const char* a, uint64_t a_bytes, const char* b, uint64_t) {
  return (double)polyrt::rt::dot_f32(a, b, a_bytes / 4);
}

PD_API double pd_vec_l2(const char* a, uint64_t a_bytes, const char* b, uint64_t) {
  return polyrt::rt::l2_distance(a, b, a_bytes / 4);
}

PD_API double pd_vec_cosine(const char* a, uint64_t a_bytes, const char* b, uint64_t) {
  return polyrt::rt::cosine_similarity(a, b, a_bytes / 4);
}

PD_API double pd_vec_lid_mle(const char* distances, uint64_t bytes, uint64_t k_bits) {
  return polyrt::rt::lid_mle(distances, bytes / 4, pd_bits_to_f64(k_bits));
}

// str_length: the characters of a text (rt::utf8_char_count).
PD_API uint64_t pd_text_char_count(const char* text, uint64_t length) {
  return polyrt::rt::utf8_char_count(text, length);
}

// 1 when the two texts are byte-equal (str_eq; str_ne is its complement).
PD_API uint64_t pd_text_equal(const char* a, uint64_t a_length, const char* b, uint64_t b_length) {
  if (a_length != b_length) return 0;
  for (uint64_t k = 0; k < a_length; ++k) {
    if (a[k] != b[k]) return 0;
  }
  return 1;
}

PD_API uint64_t pd_text_unequal(const char* a, uint64_t a_length, const char* b,
                                uint64_t b_length) {
  return 1 - pd_text_equal(a, a_length, b, b_length);
}

PD_API uint64_t pd_text_u64_digits(char* out, uint64_t x, uint64_t radix, uint64_t upper) {
  return (uint64_t)(polyrt::rt::write_u64_radix(out, x, (int)radix, false, upper != 0) - out);
}

PD_API uint64_t pd_text_pad(char* field, uint64_t length, uint64_t width, uint64_t zero_pad) {
  return (uint64_t)(polyrt::rt::pad_field(field, field + length, (int)width, zero_pad != 0) -
                    field);
}

PD_API uint64_t pd_text_combinations(char* out, uint64_t x, const void* counts, const void* digits,
                                     const void* groups, const char* alphabet) {
  const auto& c = *static_cast<const polyrt::rt::CombinationCounts*>(counts);
  return (uint64_t)(polyrt::rt::write_combinations(
                        out, x, c, static_cast<const polyrt::rt::CombinationDigit*>(digits),
                        static_cast<const polyrt::rt::CombinationGroup*>(groups), alphabet) -
                    out);
}

// Compaction of a device-made str column into Arrow's layout (offsets and
// bytes), by segments of `segment_rows` consecutive rows, one thread per
// segment (kernels of codegen/text_compaction.cpp): each segment's bytes;
// their exclusive scan within groups of `group_segments` segments (a thread
// per group), then of the groups' totals (one thread: a 4 Mi-row chunk has
// 512 groups, where a scan of its 131,072 segments would be one thread's
// long chain); then each segment's offsets and bytes. The offsets start at
// `base` (0 for a chunk's own column; the bytes before the chunk when it is
// appended to a column of many chunks), the bytes at `bytes`.
PD_API void pd_text_segment_bytes(const char* slots, uint64_t slot_bytes, uint64_t rows,
                                  uint64_t segment_rows, uint64_t* sums, uint64_t segment) {
  const uint64_t begin = segment * segment_rows;
  const uint64_t end = pd_segment_end(begin, segment_rows, rows);
  uint64_t total = 0;
  for (uint64_t r = begin; r < end; ++r) total += pd_device_text_length(slots + r * slot_bytes);
  sums[segment] = total;
}

namespace {

// sums[begin, end) in place by their exclusive scan; returns their total.
uint64_t exclusive_scan(uint64_t* sums, uint64_t begin, uint64_t end) {
  uint64_t total = 0;
  for (uint64_t s = begin; s < end; ++s) {
    const uint64_t size = sums[s];
    sums[s] = total;
    total += size;
  }
  return total;
}

}  // namespace

PD_API void pd_text_scan_group(uint64_t* sums, uint64_t segments, uint64_t group_segments,
                               uint64_t* group_sums, uint64_t group) {
  const uint64_t begin = group * group_segments;
  const uint64_t end = pd_segment_end(begin, group_segments, segments);
  group_sums[group] = exclusive_scan(sums, begin, end);
}

PD_API void pd_text_scan_groups(uint64_t* group_sums, uint64_t groups, uint64_t thread) {
  if (thread == 0) group_sums[groups] = exclusive_scan(group_sums, 0, groups);
}

PD_API void pd_text_pack_segment(const char* slots, uint64_t slot_bytes, uint64_t rows,
                                 uint64_t segment_rows, const uint64_t* sums,
                                 uint64_t group_segments, const uint64_t* group_sums,
                                 int64_t* offsets, char* bytes, uint64_t base, uint64_t segment) {
  const uint64_t begin = segment * segment_rows;
  const uint64_t end = pd_segment_end(begin, segment_rows, rows);
  uint64_t at = group_sums[segment / group_segments] + sums[segment];
  if (segment == 0) offsets[0] = (int64_t)base;
  polyrt::rt::WordWriter out(bytes + at);
  for (uint64_t r = begin; r < end; ++r) {
    const uint32_t length = pd_device_text_length(slots + r * slot_bytes);
    out.put(slots + r * slot_bytes + PD_DEVICE_TEXT_LENGTH, length);
    at += length;
    offsets[r + 1] = (int64_t)(base + at);
  }
  out.finish();
}

PD_API uint64_t pd_text_f64_display(char* out, double x) {
  return (uint64_t)(polyrt::rt::write_f64_display(out, x) - out);
}

PD_API uint64_t pd_text_f64_debug(char* out, double x) {
  return (uint64_t)(polyrt::rt::write_f64_debug(out, x) - out);
}

PD_API uint64_t pd_text_f32_display(char* out, double x) {
  return (uint64_t)(polyrt::rt::write_f32_display(out, x) - out);
}

PD_API uint64_t pd_text_f32_debug(char* out, double x) {
  return (uint64_t)(polyrt::rt::write_f32_debug(out, x) - out);
}

PD_API uint64_t pd_text_hex(char* out, const char* bytes, uint64_t length) {
  return (uint64_t)(polyrt::rt::write_hex_bytes(out, (const unsigned char*)bytes, length) - out);
}

PD_API uint64_t pd_text_sha256(char* out, const char* bytes, uint64_t length) {
  polyrt::rt::write_sha256((unsigned char*)out, (const unsigned char*)bytes, length);
  return polyrt::rt::kSha256Bytes;
}

PD_API uint64_t pd_text_md5(char* out, const char* bytes, uint64_t length) {
  polyrt::rt::write_md5((unsigned char*)out, (const unsigned char*)bytes, length);
  return polyrt::rt::kMd5Bytes;
}

// JSON values of a json object's members (json_with, json_object).
PD_API uint64_t pd_text_json_f64(char* out, double x) {
  return (uint64_t)(polyrt::rt::write_f64_json(out, x) - out);
}

PD_API uint64_t pd_text_json_string(char* out, const char* text, uint64_t length) {
  polyrt::rt::ByteWriter w{out};
  w.put('"');
  polyrt::rt::put_json_escaped(w, text, length);
  w.put('"');
  return (uint64_t)(w.p - out);
}

PD_API uint64_t pd_text_tile_escaped(char* out, const char* text, uint64_t length,
                                     uint64_t escape) {
  polyrt::rt::ByteWriter w{out};
  if (escape == 3) {
    polyrt::rt::put_csv_text(w, text, length, true);
  } else {
    if (escape == 1) w.put('"');
    polyrt::rt::put_json_escaped(w, text, length, false);
    if (escape == 1) w.put('"');
  }
  return (uint64_t)(w.p - out);
}

// printf's {:.N} and format_f64 of an f64 (its bits), N <= kDeviceFixedDecimals.
PD_API uint64_t pd_text_f64_fixed(char* out, uint64_t bits, uint64_t precision) {
  uint32_t limbs[polyrt::rt::fixed_decimal_limbs(polyrt::rt::kDeviceFixedDecimals)];
  return (uint64_t)(polyrt::rt::write_fixed_decimal(out, __builtin_bit_cast(double, bits),
                                                    (int)precision, limbs) -
                    out);
}

PD_API uint64_t pd_text_base64(char* out, const char* bytes, uint64_t length) {
  return (uint64_t)(polyrt::rt::write_groups(out, (const unsigned char*)bytes, length,
                                             polyrt::rt::kBase64Alphabet, 3, 4, 6) -
                    out);
}

PD_API uint64_t pd_text_base32(char* out, const char* bytes, uint64_t length) {
  return (uint64_t)(polyrt::rt::write_groups(out, (const unsigned char*)bytes, length,
                                             polyrt::rt::kBase32Alphabet, 5, 8, 5) -
                    out);
}

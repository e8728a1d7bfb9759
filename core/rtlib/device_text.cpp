// The text of string nodes as GPU kernels write it (DESIGN.md section 5, the
// device text of the GPU tier): each writes one row's text at `out` and
// returns its length in bytes. They wrap the writers the host's text nodes
// use (text_writers.h), so a row's bytes are the same on every tier. `out`
// has the node's bound plus PD_DEVICE_TEXT_SLACK bytes of room.
#include "rtlib.h"
#include "text_writers.h"

PD_API uint64_t pd_text_copy(char* out, const char* text, uint64_t length) {
  for (uint64_t k = 0; k < length; ++k) out[k] = text[k];
  return length;
}

PD_API uint64_t pd_text_pick(char* out, uint64_t index, const int64_t* offsets, const char* bytes) {
  const int64_t begin = offsets[index];
  return pd_text_copy(out, bytes + begin, (uint64_t)(offsets[index + 1] - begin));
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

// The native-capable node implementations: one definition each, compiled into
// the library for the interpreter and (later) to bitcode for the JIT and GPU.
// Fallible functions return PD_OK or PD_FAIL and write their result through
// `out`; the host builds the failure message from the inputs.
#pragma once

#include "pd_rt.h"

// Hashing and hash-derived values.
PD_API uint64_t pd_hash(uint64_t x);
// XXH3-64 of x's eight little-endian bytes (polydat's xxh3 and xxhash3).
PD_API uint64_t pd_xxh3(uint64_t x);
PD_API uint64_t pd_hash_range(uint64_t x, uint64_t max);
PD_API double pd_unit_interval(uint64_t x);
PD_API double pd_hash_interval(uint64_t x, double min, double max);
PD_API double pd_scale_range(uint64_t x, double min, double max);
PD_API uint64_t pd_fair_coin(uint64_t x);
PD_API uint64_t pd_unfair_coin(uint64_t x, double p);
// unfair_coin as the bit pattern of 1.0 or 0.0.
PD_API uint64_t pd_chance(uint64_t x, double p);
// 1 for exactly n of every m consecutive x (windows of m, ranked by hash).
PD_API uint64_t pd_n_of(uint64_t x, uint64_t n, uint64_t m);

// u64 arithmetic: wrapping, shift counts masked, wire division by 0 gives 0.
PD_API uint64_t pd_u64_add(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_sub(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_mul(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_div(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_mod(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_and(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_or(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_xor(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_shl(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_shr(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_not(uint64_t a);
PD_API uint64_t pd_u64_eq(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_ne(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_lt(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_le(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_gt(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_ge(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_min(uint64_t a, uint64_t b);
PD_API uint64_t pd_u64_max(uint64_t a, uint64_t b);
PD_API uint64_t pd_select_u64(uint64_t c, uint64_t a, uint64_t b);
PD_API uint64_t pd_interleave(uint64_t a, uint64_t b);
// Digit k of x in the mixed radix; a radix of 0 (last only) takes the rest.
PD_API void pd_mixed_radix(uint64_t x, const uint64_t* radices, uint64_t count, uint64_t* digits);
PD_API uint64_t pd_clamp_u64(uint64_t x, uint64_t lo, uint64_t hi);

// PCG-RXS-M-XS 64/64 output at `position` of the sequence that starts at
// state `seed` with increment 2 * stream + 1 (O(log position)).
PD_API uint64_t pd_pcg(uint64_t position, uint64_t seed, uint64_t stream);
// A bijection of [0, range) (range > 0): a Feistel network keyed by the PCG,
// cycle-walked into range. The state (range, half width, round keys) is
// built once by the setup.
#define PD_CYCLE_WALK_ROUNDS 6
#define PD_CYCLE_WALK_STATE (2 + PD_CYCLE_WALK_ROUNDS)
PD_API void pd_cycle_walk_setup(uint64_t range, uint64_t seed, uint64_t stream, uint64_t* state);
PD_API uint64_t pd_cycle_walk(uint64_t position, const uint64_t* state);
// shuffle over [min, min + size): with a feedback polynomial, polydat's
// Galois LFSR walk; with feedback 0, cycle_walk's bijection (its state
// first). The state's last three words are min, feedback and size.
#define PD_SHUFFLE_MIN PD_CYCLE_WALK_STATE
#define PD_SHUFFLE_FEEDBACK (PD_CYCLE_WALK_STATE + 1)
#define PD_SHUFFLE_SIZE (PD_CYCLE_WALK_STATE + 2)
PD_API uint64_t pd_shuffle(uint64_t position, const uint64_t* state);

// Coherent noise at u64 coordinates times `frequency`, through a permutation
// of 0..255 (`perm`, 256 words) the node prepares from its seed: Perlin in
// [-1, 1], simplex, and fractal Brownian motion over `octaves` (1..64).
PD_API double pd_perlin_1d(uint64_t x, double frequency, const uint64_t* perm);
PD_API double pd_perlin_2d(uint64_t x, uint64_t y, double frequency, const uint64_t* perm);
PD_API double pd_simplex_2d(uint64_t x, uint64_t y, double frequency, const uint64_t* perm);
PD_API double pd_fractal_noise_1d(uint64_t x, double frequency, uint64_t octaves,
                                  const uint64_t* perm);
PD_API double pd_fractal_noise_2d(uint64_t x, uint64_t y, double frequency, uint64_t octaves,
                                  const uint64_t* perm);

// Epoch milliseconds as year, month (1-12), day (1-31), hour, minute,
// second, millisecond (out[0..6]); UTC, proleptic Gregorian.
PD_API void pd_date_components(uint64_t epoch_ms, uint64_t* out);

// Wire-operand helpers: the smallest multiple of `multiple` >= value
// (saturating; value itself for a multiple of 0), how many multiples that
// is (0 for 0), and `current` unless it is 0.
PD_API uint64_t pd_ceil_to_multiple(uint64_t value, uint64_t multiple);
PD_API uint64_t pd_multiples_at_least(uint64_t value, uint64_t multiple);
PD_API uint64_t pd_set_or_get(uint64_t current, uint64_t fallback);
// polydat's checked arithmetic: 0 when a + b or a * b overflows; a - b
// saturates at 0.
PD_API uint64_t pd_checked_add(uint64_t a, uint64_t b);
PD_API uint64_t pd_checked_sub(uint64_t a, uint64_t b);
PD_API uint64_t pd_checked_mul(uint64_t a, uint64_t b);
// One step of a Galois LFSR shifting right (polydat's lfsr_step): the
// register shifted, XORed with feedback when the bit shifted out was 1.
PD_API uint64_t pd_lfsr_step(uint64_t input, uint64_t feedback);

// Arithmetic that fails on a zero divisor (constant or wire).
PD_API int32_t pd_mod(uint64_t x, uint64_t k, uint64_t* out);
PD_API int32_t pd_div(uint64_t x, uint64_t k, uint64_t* out);

// Predicates: pass the value through or fail.
PD_API int32_t pd_in_range(uint64_t v, uint64_t lo, uint64_t hi, uint64_t* out);
PD_API int32_t pd_is_positive(uint64_t v, uint64_t* out);
PD_API int32_t pd_is_one_of(uint64_t v, const uint64_t* allowed, uint64_t count, uint64_t* out);

// f64 arithmetic and comparisons (IEEE; division and fmod by 0.0 give 0.0).
PD_API double pd_f64_add(double a, double b);
PD_API double pd_f64_sub(double a, double b);
PD_API double pd_f64_mul(double a, double b);
PD_API double pd_f64_div(double a, double b);
PD_API double pd_f64_mod(double a, double b);
PD_API uint64_t pd_f64_eq(double a, double b);
PD_API uint64_t pd_f64_ne(double a, double b);
PD_API uint64_t pd_f64_lt(double a, double b);
PD_API uint64_t pd_f64_le(double a, double b);
PD_API uint64_t pd_f64_gt(double a, double b);
PD_API uint64_t pd_f64_ge(double a, double b);
PD_API double pd_select_f64(uint64_t c, double a, double b);
PD_API double pd_clamp_f64(double x, double lo, double hi);
PD_API double pd_lerp(double t, double a, double b);
// (x - a) / (b - a) clamped to [0, 1] (NaN stays NaN); the linear map of
// [in_min, in_max] onto [out_min, out_max], unclamped; x rounded (half away
// from zero) to a multiple of step.
PD_API double pd_inv_lerp(double x, double a, double b);
PD_API double pd_remap(double x, double in_min, double in_max, double out_min, double out_max);
PD_API double pd_quantize(double x, double step);
PD_API double pd_abs_f64(double x);

// Conversions (saturating: NaN and negatives give 0, >= 2^64 gives 2^64-1).
PD_API double pd_to_f64(uint64_t x);
PD_API uint64_t pd_f64_to_u64(double x);
PD_API uint64_t pd_round_to_u64(double x);
PD_API uint64_t pd_floor_to_u64(double x);
PD_API uint64_t pd_ceil_to_u64(double x);

// Ordinals inside a partition [start, start + card) (polydat's partition
// nodes, with the partition's start and cardinality as numbers): mod_in
// wraps n into it, clamp_in saturates n at its ends, random_in picks the
// ordinal hash(seed) mod card; all three give start for an empty partition.
// pd_at is start + i, failing when i >= card.
PD_API uint64_t pd_mod_in(uint64_t n, uint64_t start, uint64_t card);
PD_API uint64_t pd_clamp_in(uint64_t n, uint64_t start, uint64_t card);
PD_API uint64_t pd_random_in(uint64_t seed, uint64_t start, uint64_t card);
PD_API int32_t pd_at(uint64_t i, uint64_t start, uint64_t card, uint64_t* out);

// Signed integers, as their sign-extended words: i64 division truncates
// toward zero; by 0 gives 0, INT64_MIN / -1 wraps to INT64_MIN; the remainder
// takes the dividend's sign (by 0 or -1 gives 0). Comparisons give 1 or 0.
PD_API uint64_t pd_identity_word(uint64_t x);  // a word as another type
PD_API uint64_t pd_i64_div(uint64_t a, uint64_t b);
PD_API uint64_t pd_i64_mod(uint64_t a, uint64_t b);
PD_API uint64_t pd_i64_lt(uint64_t a, uint64_t b);
PD_API uint64_t pd_i64_le(uint64_t a, uint64_t b);
PD_API uint64_t pd_i64_gt(uint64_t a, uint64_t b);
PD_API uint64_t pd_i64_ge(uint64_t a, uint64_t b);
PD_API uint64_t pd_i64_neg(uint64_t a);
PD_API double pd_i64_to_f64(uint64_t x);
// The f32 nearest the value (one rounding), as the f64 that holds it exactly;
// past the f32 range +-inf, NaN stays NaN.
PD_API double pd_f64_to_f32(double x);
PD_API double pd_u64_to_f32(uint64_t x);
PD_API double pd_i64_to_f32(uint64_t x);
// To i64, saturating at its range, NaN to 0: truncated, or rounded half away
// from zero.
PD_API uint64_t pd_f64_to_i64(double x);
PD_API uint64_t pd_round_to_i64(double x);
// A range-checked integer conversion: x, a word of a signed or unsigned
// integer, as an integer of `to_bits` bits, signed or not (the same word when
// the value fits, which is the only case that succeeds).
PD_API int32_t pd_int_convert(uint64_t x, uint64_t from_signed, uint64_t to_bits,
                              uint64_t to_signed, uint64_t* out);

// The logical types' conversions (logical_types.cpp). A decimal is its
// unscaled value (an i64 word) with `scale` decimals and at most `precision`
// digits; each fails when the result has more digits. x * 10^scale exactly,
// rounded half to even (NaN and infinities fail):
PD_API int32_t pd_decimal_from_f64(double x, uint64_t scale, uint64_t precision, uint64_t* out);
// A decimal at another scale, rounded half to even when it loses decimals:
PD_API int32_t pd_decimal_rescale(uint64_t n, uint64_t from_scale, uint64_t to_scale,
                                  uint64_t precision, uint64_t* out);
PD_API double pd_decimal_to_f64(uint64_t n, uint64_t scale);
// floor(t * multiplier / divisor) over i64 words (divisor > 0); fails when
// the product overflows: times and dates between units.
PD_API int32_t pd_time_rescale(uint64_t t, uint64_t multiplier, uint64_t divisor, uint64_t* out);

// Transcendentals built only from + - * / and sqrt (docs/nodes.md gives accuracy).
PD_API double pd_sqrt(double x);
PD_API double pd_exp(double x);
PD_API double pd_ln(double x);
PD_API double pd_pow(double x, double y);
PD_API double pd_sin(double x);
PD_API double pd_cos(double x);
PD_API double pd_tan(double x);
PD_API double pd_atan(double x);
// atan2(y, x) with C99's special cases (signed zeros, infinities).
PD_API double pd_atan2(double y, double x);
PD_API double pd_asin(double x);
PD_API double pd_acos(double x);

// polydat's round numbers (round_numbers.cpp): a positive finite x snapped
// down, up or to the closest (ties down) power of ten, multiple of its power
// of ten ("decade"), Fibonacci number or power of two ("binomial"); 0 for
// any other x. round_*: x to a multiple of interval (x when the interval is
// not positive and finite).
PD_API double pd_floor_base10(double x);
PD_API double pd_ceiling_base10(double x);
PD_API double pd_closest_base10(double x);
PD_API double pd_floor_decade(double x);
PD_API double pd_ceiling_decade(double x);
PD_API double pd_closest_decade(double x);
PD_API double pd_floor_fibonacci(double x);
PD_API double pd_ceiling_fibonacci(double x);
PD_API double pd_closest_fibonacci(double x);
PD_API double pd_floor_binomial(double x);
PD_API double pd_ceiling_binomial(double x);
PD_API double pd_closest_binomial(double x);
PD_API double pd_round_floor(double x, double interval);
PD_API double pd_round_ceiling(double x, double interval);
PD_API double pd_round_nearest(double x, double interval);

// Exact-tail samplers (quantiles.cpp): the inverse CDF at u over the whole
// open interval (0, 1); u <= 0 and u >= 1 give the support's ends.
PD_API double pd_normal_quantile(double u);
PD_API double pd_sample_normal(double u, double mean, double stddev);
PD_API double pd_sample_lognormal(double u, double mu, double sigma);
PD_API double pd_sample_exponential(double u, double rate);
PD_API double pd_sample_pareto(double u, double scale, double shape);
PD_API double pd_sample_weibull(double u, double shape, double scale);
// Zipf on ranks 1..n with exponent s, exact to the rounding of each rank's
// probability. Up to PD_ZIPF_TABLE_RANKS ranks, a Walker alias table of
// `table_size` = n words (pd_zipf_table_word): one lookup a row, which
// vectorizes. Beyond, rejection-inversion for any n and s > 0 (table_size
// 0); `constants` are pd_zipf_constants(n, s)'s three.
#define PD_ZIPF_TABLE_RANKS 262144
PD_API void pd_zipf_constants(uint64_t n, double s, double* out);
// An alias slot as one word: the slot keeps its own rank when the row's
// fraction's top 44 bits are below `threshold` (its bias times 2^44, at
// most 2^44 - 1), else takes rank alias + 1.
PD_API uint64_t pd_zipf_table_word(uint64_t threshold, uint64_t alias);
PD_API uint64_t pd_sample_zipf(uint64_t x, const double* constants, const uint64_t* table,
                               uint64_t table_size, uint64_t n, double s);
// Gamma (Marsaglia and Tsang), beta (a ratio of two gammas), Poisson
// (inversion below lambda 10, Hoermann's PTRS above) and binomial
// (inversion below n p 10, Hoermann's BTRS above), exact, their uniforms
// from SplitMix64 at x's next states.
PD_API double pd_sample_gamma(uint64_t x, double shape, double scale);
PD_API double pd_sample_beta(uint64_t x, double a, double b);
PD_API uint64_t pd_sample_poisson(uint64_t x, double lambda);
PD_API uint64_t pd_sample_binomial(uint64_t x, uint64_t n, double p);

// The bucket (0..buckets-1) of x over [0, range): floor(x / range * buckets),
// NaN and x <= 0 in the first, x >= range in the last.
PD_API uint64_t pd_discretize(double x, double range, uint64_t buckets);

// Sampling from tables built at compile time.
// Linear interpolation in a table of `count` >= 2 points at p = i/(count-1),
// as polydat's LutF64 samples: u clamped to [0, 1] (NaN passes through).
PD_API double pd_table_sample(const double* table, uint64_t count, double u);
// First index whose cumulative weight is >= hash(x)*2^-64.
PD_API uint64_t pd_weighted_index(uint64_t x, const double* cumulative, uint64_t count);
// Vose alias table lookup (no internal hash): slot = x mod n, coin =
// (x >> 32) / (2^32 - 1); the slot's own value when coin < bias[slot], else
// its alias's. values holds (own, alias) value pairs, one per slot.
PD_API uint64_t pd_alias_pick(uint64_t x, const double* bias, const uint64_t* values,
                              uint64_t count);
// pd_alias_pick of pd_hash(x): a per-locale list's pick, its input hashed.
PD_API uint64_t pd_hashed_alias_pick(uint64_t x, const double* bias, const uint64_t* values,
                                     uint64_t count);
// Entry x mod count of a table of count >= 1 values (fixed_values_*).
PD_API uint64_t pd_table_u64(const uint64_t* table, uint64_t count, uint64_t x);
PD_API double pd_table_f64(const double* table, uint64_t count, uint64_t x);
// 1 when x < threshold[0], else 0 (coin_flip: the threshold precomputed).
PD_API uint64_t pd_below_threshold(uint64_t x, const uint64_t* threshold);

// Device text (device_text.cpp): one row's text at `out`, its length returned;
// `out` has the node's bound plus PD_DEVICE_TEXT_SLACK bytes of room. A
// device-made column's row slot holds the length (PD_DEVICE_TEXT_LENGTH
// bytes, a u32), then the text.
#define PD_DEVICE_TEXT_SLACK 8
#define PD_DEVICE_TEXT_LENGTH 4
PD_INLINE uint32_t pd_device_text_length(const char* slot) {
  uint32_t length;
  __builtin_memcpy(&length, slot, PD_DEVICE_TEXT_LENGTH);
  return length;
}
// The end of the segment of `segment_rows` rows from `begin`, among `rows`
// (the compaction's and the row encoding's kernels work by segments of
// rows, and scan groups of segments).
PD_INLINE uint64_t pd_segment_end(uint64_t begin, uint64_t segment_rows, uint64_t rows) {
  return begin + segment_rows < rows ? begin + segment_rows : rows;
}
PD_API uint64_t pd_text_copy(char* out, const char* text, uint64_t length);
// select_str: the one text cond picks.
PD_API uint64_t pd_text_select(char* out, uint64_t cond, const char* then_text,
                               uint64_t then_length, const char* else_text, uint64_t else_length);
// entries[index] of a table whose entry k is bytes [offsets[k], offsets[k + 1]).
PD_API uint64_t pd_text_pick(char* out, uint64_t index, const int64_t* offsets, const char* bytes);
PD_API uint64_t pd_text_u64(char* out, uint64_t x);
PD_API uint64_t pd_text_i64(char* out, uint64_t x);
PD_API uint64_t pd_text_bool(char* out, uint64_t x);
PD_API uint64_t pd_text_u64_radix(char* out, uint64_t x, uint64_t radix);
PD_API uint64_t pd_text_zero_pad_u64(char* out, uint64_t x, uint64_t width);
// The f32 vectors of the vector nodes as GPU kernels write them
// (vector_writers.h): hash_vec(seed, dim), vec_norm(a), vec_scale(a, k)
// with k an f64's bits, xxhash3_vec(seed, dim), vec_add(a, b) of one
// length; each returns the bytes it wrote.
PD_API uint64_t pd_vec_hash(char* out, uint64_t seed, uint64_t dim);
PD_API uint64_t pd_vec_unit(char* out, const char* a, uint64_t a_bytes);
PD_API uint64_t pd_vec_scale(char* out, const char* a, uint64_t a_bytes, uint64_t k_bits);
PD_API uint64_t pd_vec_xxhash3(char* out, uint64_t seed, uint64_t dim);
PD_API uint64_t pd_vec_add(char* out, const char* a, uint64_t a_bytes, const char* b, uint64_t);
// The words GPU kernels compute from texts (DeviceTextKind::Word): the
// reductions of two vectors of one length, lid_mle(distances, k) with k an
// f64's bits, str_length, and str_eq / str_ne (1 or 0).
PD_API double pd_vec_dot(const char* a, uint64_t a_bytes, const char* b, uint64_t);
PD_API double pd_vec_l2(const char* a, uint64_t a_bytes, const char* b, uint64_t);
PD_API double pd_vec_cosine(const char* a, uint64_t a_bytes, const char* b, uint64_t);
PD_API double pd_vec_lid_mle(const char* distances, uint64_t bytes, uint64_t k_bits);
PD_API uint64_t pd_text_char_count(const char* text, uint64_t length);
PD_API uint64_t pd_text_equal(const char* a, uint64_t a_length, const char* b, uint64_t b_length);
PD_API uint64_t pd_text_unequal(const char* a, uint64_t a_length, const char* b, uint64_t b_length);
// x's digits in radix 2, 8 or 16 (upper case when `upper`), no prefix.
PD_API uint64_t pd_text_u64_digits(char* out, uint64_t x, uint64_t radix, uint64_t upper);
// The field [field, field + length) padded to `width` in place (printf's
// {:N} and {:0N}); its new length.
PD_API uint64_t pd_text_pad(char* field, uint64_t length, uint64_t width, uint64_t zero_pad);
// combinations' text of x from its compiled pattern (rt::CombinationCounts,
// CombinationDigit and CombinationGroup arrays, and the alphabet).
PD_API uint64_t pd_text_combinations(char* out, uint64_t x, const void* counts, const void* digits,
                                     const void* groups, const char* alphabet);
// A device-made str column's slots (rows of slot_bytes: a u32 length, then the
// bytes) compacted into Arrow's layout by segments of segment_rows rows:
// sums[segment] = the segment's bytes; then, per group of group_segments
// segments, their exclusive scan in place and the group's total in
// group_sums[group]; then (thread 0 alone) the groups' exclusive scan, the
// total in group_sums[groups]; then the segment's offsets[r + 1] (from
// `base`, offsets[0] = base) and bytes.
PD_API void pd_text_segment_bytes(const char* slots, uint64_t slot_bytes, uint64_t rows,
                                  uint64_t segment_rows, uint64_t* sums, uint64_t segment);
PD_API void pd_text_scan_group(uint64_t* sums, uint64_t segments, uint64_t group_segments,
                               uint64_t* group_sums, uint64_t group);
PD_API void pd_text_scan_groups(uint64_t* group_sums, uint64_t groups, uint64_t thread);
PD_API void pd_text_pack_segment(const char* slots, uint64_t slot_bytes, uint64_t rows,
                                 uint64_t segment_rows, const uint64_t* sums,
                                 uint64_t group_segments, const uint64_t* group_sums,
                                 int64_t* offsets, char* bytes, uint64_t base, uint64_t segment);
// An f64's Display (str_concat) and Debug (printf's {}) text, as the host's
// rt::write_f64_display and rt::write_f64_debug write it.
PD_API uint64_t pd_text_f64_display(char* out, double x);
PD_API uint64_t pd_text_f64_debug(char* out, double x);
// The same for an f32 held as a double (its own shortest digits).
PD_API uint64_t pd_text_f32_display(char* out, double x);
PD_API uint64_t pd_text_f32_debug(char* out, double x);
// Lowercase hex of bytes, and their SHA-256 and MD5 digests (to_hex, sha256,
// md5; digest_blocks.h).
PD_API uint64_t pd_text_hex(char* out, const char* bytes, uint64_t length);
PD_API uint64_t pd_text_sha256(char* out, const char* bytes, uint64_t length);
PD_API uint64_t pd_text_md5(char* out, const char* bytes, uint64_t length);
// A json object's member values: an f64's JSON number (null for NaN and
// +-inf) and a str as a JSON string.
PD_API uint64_t pd_text_json_f64(char* out, double x);
PD_API uint64_t pd_text_json_string(char* out, const char* text, uint64_t length);
// A tile hole's str under its escape (rt::TextEscape: 1 a JSON string, 2
// the inside of one, 3 a CSV field), by polydat's tile rules.
PD_API uint64_t pd_text_tile_escaped(char* out, const char* text, uint64_t length, uint64_t escape);
// An f64's (its bits') fixed decimals, at most rt::kDeviceFixedDecimals of
// them (fixed_decimal.h).
PD_API uint64_t pd_text_f64_fixed(char* out, uint64_t bits, uint64_t precision);
// RFC 4648 base64 and base32 of bytes, padded (to_base64, to_base32).
PD_API uint64_t pd_text_base64(char* out, const char* bytes, uint64_t length);
PD_API uint64_t pd_text_base32(char* out, const char* bytes, uint64_t length);

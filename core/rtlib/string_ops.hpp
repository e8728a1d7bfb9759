// Host-only string nodes beyond formatting: numbers in English words,
// deterministic character strings, and reading numbers back out of text
// (UUIDs: rtlib/identifiers.hpp). Their meanings are polydat's (same names, same outputs).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace polyrt::rt {

// 0 -> "zero", 42 -> "forty-two", 1001 -> "one thousand one"; every u64.
std::string number_to_words(uint64_t n);

// The characters of a charset spec: ranges "A-Z" and single characters, by
// code point; "" (or a spec that yields none) means a-z. Each as UTF-8.
std::vector<std::string> expand_charset(std::string_view spec);
// `length` characters, each charset[h % size] for h = xxh3 chained from
// `seed`.
std::string char_buf(uint64_t seed, const std::vector<std::string>& charset, uint64_t length);

// text without its leading and trailing whitespace: Rust's str::trim over
// ASCII (space, \t, \n, \v, \f, \r).
std::string_view trim_space(std::string_view text);
// The u64 the whole (trimmed) string spells in decimal, else 0.
uint64_t str_to_u64(std::string_view text);
// The run of decimal digits that ends the string (trailing whitespace
// ignored), else 0; 0 too when the run does not fit a u64.
uint64_t str_digit_suffix(std::string_view text);

// Characters of UTF-8 text: each valid sequence is one, and so is each
// maximal invalid piece (what a lossy decoder turns into one U+FFFD).
uint64_t char_count(std::string_view text);
// The `length` characters from character `start` (fewer at the end; "" from
// past it). Counted as char_count counts, so a cut never splits a character.
std::string substring(std::string_view text, uint64_t start, uint64_t length);
// Every non-overlapping occurrence of `from` (non-empty) replaced, left to right.
std::string replace_all(std::string_view text, std::string_view from, std::string_view to);

// The inside of a JSON string literal for text, as serde_json writes it:
// '"' and '\\' backslashed, \b \f \n \r \t, other bytes below 0x20 as
// \u00xx; UTF-8 as it is. No quotes around it. A byte that is not UTF-8
// (which a Rust string cannot hold) becomes the lone surrogate \udcXX (PEP
// 383's surrogateescape: `.encode("utf-8", "surrogateescape")` gives the
// bytes back), so the result is always valid JSON text. The one JSON
// escaper (put_json_escaped, row_fields.h): the escape_json node and the
// JSON Lines writers of the host and of GPU kernels use it.
std::string escape_json(std::string_view text);
// At most this many bytes out per byte in.
inline constexpr size_t kJsonEscapedBytesPerByte = 6;
// escape_json written at p (room for kJsonEscapedBytesPerByte per byte);
// returns the end.
char* write_json_escaped(char* p, std::string_view text);

}  // namespace polyrt::rt

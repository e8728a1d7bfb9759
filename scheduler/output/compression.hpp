// Compressed text output: a codec, chosen by --compress or by the output
// file's suffix (.gz, .zst), and one block of bytes compressed as a
// self-contained gzip member or zstd frame. Members and frames concatenate
// into one valid file (RFC 1952 section 2.2; the zstd format's frames), which
// is what lets blocks be compressed on every core and written in order.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyrt::scheduler {

// Snappy only inside Parquet files (OutputFormat::codecs says which take what).
enum class Codec { None, Gzip, Zstd, Snappy };

struct Compression {
  Codec codec = Codec::None;
  int level = 0;  // 0: the codec's default (1 for both: speed first)
};

// "none", "gzip", "zstd" or "snappy", gzip and zstd with an optional
// ":LEVEL" (gzip 1-9, zstd 1-19); OutputError naming the valid forms
// otherwise.
Compression parse_compression(std::string_view text);
inline constexpr const char* kCodecNames = "none, gzip, zstd, snappy";

// The codec a file's name asks for: ".gz" gzip, ".zst" zstd, else none.
Codec codec_of_path(std::string_view path);
// The suffix of a file the codec writes: ".gz", ".zst" or "".
std::string_view codec_suffix(Codec codec);
std::string_view codec_name(Codec codec);
// The codecs' names as a sentence says them: "none, gzip or zstd".
std::string codec_names(const std::vector<Codec>& codecs);

// Appends `input` to `out` as one gzip member or zstd frame (or as it is,
// for none).
void compress_block(const Compression& compression, std::string_view input, std::string& out);

}  // namespace polyrt::scheduler

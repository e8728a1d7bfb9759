// Compressed output: blocks compressed on a pool of threads come out whole
// and in order (one gzip member or zstd frame each, which gzip, zstd and
// every reader decode as one stream); `polyrt run` compresses by --out's
// suffix or --compress, names parts so, and refuses what cannot be.
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>

#include "polyrt/error.hpp"
#include "scheduler/output/block_compressor.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

using scheduler::Codec;
using scheduler::Compression;

// Every gzip member of `data`, decoded and concatenated (as gzip -d does).
std::string gunzip(std::string_view data) {
  std::string out;
  while (!data.empty()) {
    z_stream z{};
    EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = (uInt)data.size();
    int status = Z_OK;
    char buffer[1 << 16];
    while (status != Z_STREAM_END) {
      z.next_out = reinterpret_cast<Bytef*>(buffer);
      z.avail_out = sizeof buffer;
      status = inflate(&z, Z_NO_FLUSH);
      if (status != Z_OK && status != Z_STREAM_END) {
        ADD_FAILURE() << "inflate status " << status;
        inflateEnd(&z);
        return out;
      }
      out.append(buffer, sizeof buffer - z.avail_out);
    }
    data.remove_prefix(data.size() - z.avail_in);
    inflateEnd(&z);
  }
  return out;
}

// Every zstd frame of `data`, decoded and concatenated.
std::string unzstd(std::string_view data) {
  std::string out;
  ZSTD_DStream* stream = ZSTD_createDStream();
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  std::string buffer(ZSTD_DStreamOutSize(), '\0');
  while (in.pos < in.size) {
    ZSTD_outBuffer o{buffer.data(), buffer.size(), 0};
    const size_t status = ZSTD_decompressStream(stream, &o, &in);
    if (ZSTD_isError(status)) {
      ADD_FAILURE() << ZSTD_getErrorName(status);
      break;
    }
    out.append(buffer.data(), o.pos);
  }
  ZSTD_freeDStream(stream);
  return out;
}

std::string decode(Codec codec, std::string_view data) {
  return codec == Codec::Gzip ? gunzip(data) : unzstd(data);
}

// Text of `bytes` bytes, compressible but not trivially.
std::string sample_text(size_t bytes) {
  std::mt19937_64 random(7);
  std::string text;
  while (text.size() < bytes) text += "row," + std::to_string(random() % 100000) + ",x\n";
  text.resize(bytes);
  return text;
}

TEST(Compression, BlocksComeOutWholeAndInOrderOnAnyThreadCount) {
  const std::string text = sample_text(scheduler::BlockCompressor::kBlockBytes * 5 + 12345);
  for (const Codec codec : {Codec::Gzip, Codec::Zstd}) {
    for (const size_t threads : {1, 3}) {
      std::string out;
      size_t blocks = 0;
      {
        scheduler::BlockCompressor compressor(
            Compression{codec, 0},
            [&](std::string_view b) {
              out.append(b);
              ++blocks;
            },
            threads);
        // Written in pieces of uneven size, across block edges.
        for (size_t at = 0; at < text.size(); at += 777777) {
          compressor.write(std::string_view(text).substr(at, 777777));
        }
        compressor.finish();
      }
      EXPECT_EQ(blocks, 6u);
      EXPECT_LT(out.size(), text.size() / 2);
      EXPECT_TRUE(decode(codec, out) == text) << (int)codec << " threads " << threads;
    }
  }
}

TEST(Compression, ACompressorDroppedBeforeFinishHandsNothingOnAfterward) {
  std::string out;
  {
    scheduler::BlockCompressor compressor(
        Compression{Codec::Zstd, 0}, [&](std::string_view b) { out.append(b); }, 2);
    compressor.write(sample_text(scheduler::BlockCompressor::kBlockBytes * 3));
  }
  // What was handed on (the writer may have waited on a block) is whole frames.
  EXPECT_TRUE(sample_text(scheduler::BlockCompressor::kBlockBytes * 3).starts_with(unzstd(out)));
}

TEST(Compression, CodecsByNameLevelAndSuffix) {
  EXPECT_EQ(scheduler::parse_compression("zstd").codec, Codec::Zstd);
  EXPECT_EQ(scheduler::parse_compression("gzip:9").level, 9);
  EXPECT_EQ(scheduler::parse_compression("none").codec, Codec::None);
  EXPECT_EQ(scheduler::codec_of_path("a/b.csv.gz"), Codec::Gzip);
  EXPECT_EQ(scheduler::codec_of_path("b.jsonl.zst"), Codec::Zstd);
  EXPECT_EQ(scheduler::codec_of_path(".gz"), Codec::None);
  EXPECT_EQ(scheduler::codec_of_path("b.csv"), Codec::None);
  EXPECT_EQ(thrown_message<OutputError>([] { scheduler::parse_compression("lz4"); }),
            "unknown compression 'lz4' (valid: none, gzip, zstd, snappy; gzip and zstd with an "
            "optional :LEVEL)");
  EXPECT_EQ(thrown_message<OutputError>([] { scheduler::parse_compression("gzip:10"); }),
            "compression 'gzip:10' has no such level (gzip takes 1-9)");
  EXPECT_EQ(thrown_message<OutputError>([] { scheduler::parse_compression("none:1"); }),
            "compression 'none:1' has no such level (none takes no level)");
  EXPECT_EQ(thrown_message<OutputError>([] { scheduler::parse_compression("zstd:"); }),
            "compression 'zstd:' has no such level (zstd takes 1-19)");
}

std::string slurp_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(Compression, RunCompressesBySuffixOrFlagIntoTheSameRows) {
  const std::string dir = temp_dir();
  const std::string example = std::string(POLYRT_SOURCE_DIR) + "/examples/users.polydat";
  const std::string run = "run " + example + " --cycles 0..40000 ";
  ASSERT_EQ(run_polyrt(run + "--out " + dir + "/u.csv").status, 0);
  const std::string plain = slurp_file(dir + "/u.csv");
  ASSERT_GT(plain.size(), scheduler::BlockCompressor::kBlockBytes);  // more than one block
  for (const auto& [file, codec] :
       {std::pair{"u.csv.gz", Codec::Gzip}, {"u.csv.zst", Codec::Zstd}}) {
    const CommandResult r = run_polyrt(run + "--out " + dir + "/" + file);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(decode(codec, slurp_file(dir + "/" + file)) == plain) << file;
  }
  // --compress for standard output, and over a suffix; jsonl and text too.
  ASSERT_EQ(run_polyrt(run + "--compress zstd:5", dir + "/stdout.zst").status, 0);
  EXPECT_TRUE(unzstd(slurp_file(dir + "/stdout.zst")) == plain);
  ASSERT_EQ(run_polyrt(run + "--compress none --out " + dir + "/raw.gz").status, 0);
  EXPECT_TRUE(slurp_file(dir + "/raw.gz") == plain);
  for (const char* format : {"jsonl", "text --outputs email"}) {
    const std::string args = run + "--format " + format;
    ASSERT_EQ(run_polyrt(args + " --out " + dir + "/f").status, 0);
    ASSERT_EQ(run_polyrt(args + " --out " + dir + "/f.gz").status, 0);
    EXPECT_TRUE(gunzip(slurp_file(dir + "/f.gz")) == slurp_file(dir + "/f")) << format;
  }
  // Parts are named with the codec's suffix and concatenate to the rows.
  ASSERT_EQ(run_polyrt(run + "--parts 3 --compress gzip --out " + dir + "/parts").status, 0);
  std::string joined;
  for (int k = 1; k <= 3; ++k) {
    joined += gunzip(slurp_file(dir + "/parts/users." + std::to_string(k) + ".csv.gz"));
  }
  EXPECT_EQ(std::count(joined.begin(), joined.end(), '\n'), 40003);  // a header per part
}

TEST(Compression, RunRefusesWhatCannotBeCompressed) {
  const std::string dir = temp_dir();
  const std::string example = std::string(POLYRT_SOURCE_DIR) + "/examples/ladder.polydat";
  const auto refused = [&](const std::string& args, const std::string& fragment) {
    const CommandResult r = run_polyrt("run " + example + " --cycles 0..10 " + args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
  };
  refused("--compress lz4", "--compress: unknown compression 'lz4' (valid: none, gzip, zstd");
  refused("--compress snappy", "--format csv takes --compress none, gzip or zstd, not snappy");
  refused("--compress zstd:20", "zstd takes 1-19");
  refused("--compress zsdt", "(did you mean 'zstd'?)");
  refused("--format npy --out " + dir + "/d.gz", "--format npy is not compressed");
  refused("--format npy --compress zstd --out " + dir + "/d", "--format npy is not compressed");
  EXPECT_EQ(entries(dir), 0u);
  // Compressed bytes never go to a terminal (script(1) gives the command one).
  const std::string typescript = dir + "/typescript";
  const std::string users = std::string(POLYRT_SOURCE_DIR) + "/examples/users.polydat";
  const std::string command = "script -qec '" + std::string(POLYRT_BINARY) + " run " + users +
                              " --cycles 0..10 --compress zstd' " + typescript + " >/dev/null";
  EXPECT_NE(std::system(command.c_str()), 0);  // script -e: the command's status
  EXPECT_NE(slurp_file(typescript).find("zstd-compressed output is not written to a terminal"),
            std::string::npos)
      << slurp_file(typescript);
}

}  // namespace
}  // namespace polyrt::test

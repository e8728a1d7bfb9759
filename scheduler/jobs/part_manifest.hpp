// The summary of a job written in parts by the ranks of an MPI launch:
// DIR/_manifest.json, written by rank 0 last, once every rank succeeded. It
// names the program (bytes and CRC-32 of its source), the range, the format
// and outputs, and each part with its first coordinate, rows, bytes and
// CRC-32 (zlib's, as Python's zlib.crc32 computes it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace polyrt::scheduler {

struct FileSummary {
  uint64_t bytes = 0;
  uint32_t crc32 = 0;
};

// Files (a written part's, as OutputFormat::files_of lists them), in order,
// as one byte stream.
FileSummary summarize_files(const std::vector<std::string>& files);

struct ManifestPart {
  uint64_t part = 0;  // 1-based
  std::string path;   // relative to the manifest's directory
  uint64_t first = 0;
  uint64_t rows = 0;
  FileSummary files;
};

struct Manifest {
  std::string program_path;
  FileSummary program;
  uint64_t first = 0, count = 0;  // the coordinates
  std::string format;
  std::vector<std::string> outputs;  // every column the parts hold
  std::vector<ManifestPart> parts;
};

inline constexpr const char* kManifestName = "_manifest.json";

// Writes DIR/_manifest.json atomically.
void write_manifest(const std::string& dir, const Manifest& manifest);

}  // namespace polyrt::scheduler

#include "scheduler/jobs/part_manifest.hpp"

#include <zlib.h>

#include <cstdio>
#include <fstream>

#include "polyrt/error.hpp"
#include "scheduler/encoding/row_format.hpp"
#include "scheduler/jobs/interruption.hpp"
#include "scheduler/output/output_sink.hpp"

namespace polyrt::scheduler {

namespace {

void add_file(FileSummary& summary, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw OutputError("cannot read back " + path + " to checksum it");
  std::vector<char> buffer(1 << 20);
  uLong crc = summary.crc32;
  while (in) {
    Interruption::stop_if_requested();  // a part may be gigabytes: a signal stops the read
    in.read(buffer.data(), (std::streamsize)buffer.size());
    const auto n = (size_t)in.gcount();
    crc = crc32_z(crc, reinterpret_cast<const Bytef*>(buffer.data()), n);
    summary.bytes += n;
  }
  summary.crc32 = (uint32_t)crc;
}

std::string hex32(uint32_t v) {
  char text[9];
  std::snprintf(text, sizeof text, "%08x", v);
  return text;
}

// A `"key":value` member after `out`'s last one.
void member(std::string& out, const std::string& key, const std::string& json_value) {
  if (out.back() != '{') out += ',';
  out += json_string(key) + ':' + json_value;
}

}  // namespace

FileSummary summarize_files(const std::vector<std::string>& files) {
  FileSummary summary;
  for (const std::string& file : files) add_file(summary, file);
  return summary;
}

void write_manifest(const std::string& dir, const Manifest& m) {
  std::string out = "{";
  member(out, "program", json_string(m.program_path));
  member(out, "program_bytes", std::to_string(m.program.bytes));
  member(out, "program_crc32", json_string(hex32(m.program.crc32)));
  member(out, "first", std::to_string(m.first));
  // The rows written: one per coordinate, or a traversal's row per tuple.
  uint64_t rows = 0;
  for (const ManifestPart& p : m.parts) rows += p.rows;
  member(out, "coordinates", std::to_string(m.count));
  member(out, "rows", std::to_string(rows));
  member(out, "format", json_string(m.format));
  std::string outputs = "[";
  for (const std::string& name : m.outputs)
    outputs += (outputs.size() > 1 ? "," : "") + json_string(name);
  member(out, "outputs", outputs + "]");
  std::string parts = "[";
  for (const ManifestPart& p : m.parts) {
    std::string part = "{";
    member(part, "part", std::to_string(p.part));
    member(part, "path", json_string(p.path));
    member(part, "first", std::to_string(p.first));
    member(part, "rows", std::to_string(p.rows));
    member(part, "bytes", std::to_string(p.files.bytes));
    member(part, "crc32", json_string(hex32(p.files.crc32)));
    parts += (parts.size() > 1 ? "," : "") + part + "}";
  }
  member(out, "parts", parts + "]");
  out += "}\n";
  OutputSink sink(OutputPlace{.path = dir + "/" + kManifestName});
  sink.write(out);
  sink.commit();
}

}  // namespace polyrt::scheduler

#include "scheduler/jobs/job_parts.hpp"

#include "polyrt/error.hpp"

namespace polyrt::scheduler {

PartRange part_range(uint64_t first, uint64_t count, uint64_t parts, uint64_t part) {
  if (parts == 0 || part == 0 || part > parts) {
    internal_error("part " + std::to_string(part) + " of " + std::to_string(parts) +
                   " requested (callers check 1 <= part <= parts)");
  }
  // 128-bit products: count * part may pass 2^64.
  __extension__ using Wide = unsigned __int128;
  const auto start = (uint64_t)((Wide)count * (part - 1) / parts);
  const auto end = (uint64_t)((Wide)count * part / parts);
  return PartRange{first + start, end - start};
}

std::string part_path(const std::string& dir, const std::string& table, uint64_t part,
                      const OutputFormat& format, const std::optional<Compression>& compression) {
  if (format.writes_directory()) return dir + "/part-" + std::to_string(part);
  return dir + "/" + table + "." + std::to_string(part) + "." + std::string(format.name()) +
         std::string(
             format.compressed_as_a_whole() && compression ? codec_suffix(compression->codec) : "");
}

}  // namespace polyrt::scheduler

// Opens a job's output file: the format's writer at the job's target,
// stopped by the job's signals, and what the interruption message reports
// of it (whether its bytes stay when the job stops).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "scheduler/output/output_format.hpp"

namespace polyrt::scheduler {

// `protected_files`: the program's sources, never replaced.
std::unique_ptr<FormatWriter> open_job_output(const OutputFormat& format, const std::string& target,
                                              const OutputColumns& columns,
                                              std::span<const std::string> protected_files);

}  // namespace polyrt::scheduler

#include "scheduler/jobs/job_output.hpp"

#include "scheduler/jobs/interruption.hpp"

namespace polyrt::scheduler {

std::unique_ptr<FormatWriter> open_job_output(const OutputFormat& format, const std::string& target,
                                              const OutputColumns& columns,
                                              std::span<const std::string> protected_files) {
  std::unique_ptr<FormatWriter> writer = format.open(
      OutputPlace{
          .path = target, .protected_files = protected_files, .stop = Interruption::stop_flag()},
      columns);
  Interruption::set_partial_output_kept(writer->keeps_partial_output());
  return writer;
}

}  // namespace polyrt::scheduler

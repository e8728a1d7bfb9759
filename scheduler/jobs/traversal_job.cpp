#include "scheduler/jobs/traversal_job.hpp"

#include <set>

#include "polyrt/traversal.hpp"
#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/progress_bar.hpp"
#include "scheduler/jobs/rate_pacer.hpp"

namespace polyrt::scheduler {

namespace {

// The columns of a traversal's rows: the iterated input, the elements, then
// `body_outputs`. Throws WriteError when a name would appear twice.
std::vector<std::string> traversal_columns(const Program& program,
                                           const std::vector<std::string>& body_outputs) {
  std::vector<std::string> columns{program.input_names().at(0)};
  const TraversalInfo t = traversal_info(program, 0);
  columns.insert(columns.end(), t.names.begin(), t.names.end());
  columns.insert(columns.end(), body_outputs.begin(), body_outputs.end());
  std::set<std::string> seen;
  for (const std::string& c : columns) {
    if (!seen.insert(c).second) {
      throw WriteError("a traversal's rows would hold two columns named '" + c +
                       "' (the iterated input, the elements and the body's outputs share names)");
    }
  }
  return columns;
}

}  // namespace

void run_traversal_job(const RangeJob& job, const std::string& target) {
  const Program& program = *job.program;
  if (program.traversal_count() != 1) {
    throw RefusedError("polyrt runs the rows of one traversal at a time; this program has " +
                       std::to_string(program.traversal_count()));
  }
  const std::optional<RowFormat> format = job.format->text_rows();
  if (!format) {
    throw RefusedError("a traversal's rows are written as text (csv, tsv, jsonl), not " +
                       std::string(job.format->name()));
  }
  const std::vector<std::string> columns = traversal_columns(program, job.outputs);
  const std::unique_ptr<FormatWriter> writer = job.format->open(
      target, OutputColumns{.names = columns, .types = {}, .first = job.first, .rows = job.count},
      program.source_files());
  std::vector<size_t> outputs;
  const TraversalInfo info = traversal_info(program, 0);
  for (const std::string& name : job.outputs) outputs.push_back(info.body->require_output(name));
  std::vector<uint64_t> coordinates = job.coordinates;
  coordinates.resize(program.input_names().size(), 0);
  ProgressBar progress(job.count);
  RatePacer pacer(job.rate);
  std::string text;
  for_each_opening(program, 0, job.first, job.count, coordinates, job.externs,
                   [&](uint64_t coordinate, const Traversal& t) {
                     Interruption::stop_if_requested();
                     text.clear();
                     for (size_t a = 0; a < t.tuples().size(); ++a) {
                       State body = t.activation(a);
                       begin_row(text, *format);
                       append_field(text, *format, columns[0], Value::u64(coordinate), coordinate);
                       for (size_t k = 0; k < t.names().size(); ++k) {
                         field_separator(text, *format);
                         append_field(text, *format, columns[1 + k], t.tuples()[a][k], coordinate);
                       }
                       for (size_t o = 0; o < outputs.size(); ++o) {
                         field_separator(text, *format);
                         append_field(text, *format, job.outputs[o], body.pull_at(outputs[o]),
                                      coordinate);
                       }
                       end_row(text, *format);
                     }
                     pacer.write(*writer, text, t.tuples().size());
                     progress.advance(1);
                   });
  progress.finish();
  writer->commit();
}

}  // namespace polyrt::scheduler

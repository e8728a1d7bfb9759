#include "scheduler/jobs/traversal_job.hpp"

#include <cstdio>
#include <optional>
#include <set>

#include "polyrt/batch.hpp"
#include "polyrt/cancellation.hpp"
#include "polyrt/traversal.hpp"
#include "scheduler/jobs/batch_job.hpp"
#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/job_output.hpp"
#include "scheduler/jobs/progress_bar.hpp"
#include "scheduler/jobs/rate_pacer.hpp"

namespace polyrt::scheduler {

std::vector<std::string> traversal_columns(const Program& program,
                                           const std::vector<std::string>& body_outputs) {
  std::vector<std::string> columns{program.input_names().at(0)};
  const TraversalInfo t = flattened_traversal_info(program, 0);
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

namespace {

// Where a failing row of a traversal is, the same on every path: the parent
// coordinate, every level's elements and, in a body with a cursor, the
// body's cycle ("cycle=7; a=50, f=0.5").
std::string row_place(const Program& program, uint64_t coordinate,
                      const std::vector<std::string>& elements, std::span<const Value> values,
                      std::optional<uint64_t> body_cycle) {
  std::string out = program.input_names().at(0) + "=" + std::to_string(coordinate) + ";";
  for (size_t k = 0; k < elements.size() && k < values.size(); ++k) {
    out += (k ? ", " : " ") + elements[k] + "=" + values[k].to_string();
  }
  if (body_cycle) out += "; body cycle=" + std::to_string(*body_cycle);
  return out;
}

// `e` with its coordinates line (the body's: its cycle, or the lattice
// body's row) naming `place` instead.
[[noreturn]] void fail_at(const EvalError& e, const std::string& place) {
  std::string message = e.what();
  const std::string line = "\n  coordinates: ";
  const size_t at = message.find(line);
  if (at == std::string::npos) {
    message += line + place;
  } else {
    const size_t end = message.find('\n', at + 1);
    message.replace(at, (end == std::string::npos ? message.size() : end) - at, line + place);
  }
  throw EvalError(message, e.node());
}

// Every row of the job from the traversal's lattice body, in the batch
// tier: global row r is parent coordinate first + r / tuples and tuple
// r mod tuples (the body's rows depend on the tuple alone). The parent
// coordinate column is made per chunk; the others are the program's.
uint64_t run_lattice_rows(const RangeJob& job, const TraversalInfo& info,
                          const std::vector<std::string>& columns, const std::string& target) {
  const uint64_t tuples = info.lattice_tuples;
  if (job.count > ~uint64_t{0} / tuples) {
    throw WriteError(std::to_string(job.count) + " parent coordinates of " +
                     std::to_string(tuples) + " tuples each are more than 2^64 - 1 rows");
  }
  BatchOptions options;
  options.outputs.assign(columns.begin() + 1, columns.end());
  options.coordinates = {0, 0};
  options.threads = job.threads;
  options.chunk_rows = job.chunk_rows;
  options.device = job.device;
  options.stop = Interruption::stop_flag();
  const BatchEvaluator batch(info.lattice_body, options);
  warn_of_left_out_devices(batch);
  if (job.verbose) {
    std::fprintf(stderr,
                 "polyrt: the traversal's %llu tuples per coordinate run in the batch tier on %s\n",
                 (unsigned long long)tuples, batch.device_name().c_str());
  }
  std::vector<Type> types{Type::U64};
  types.insert(types.end(), batch.output_types().begin(), batch.output_types().end());
  std::vector<LogicalType> logical_types{LogicalType{}};
  logical_types.insert(logical_types.end(), batch.output_logical_types().begin(),
                       batch.output_logical_types().end());
  std::vector<bool> nullable{false};
  for (size_t o = 0; o < batch.output_names().size(); ++o) {
    nullable.push_back(batch.output_nullable(o));
  }
  const uint64_t rows = job.count * tuples;
  const std::unique_ptr<FormatWriter> writer =
      open_job_output(*job.format, target,
                      OutputColumns{.names = columns,
                                    .types = types,
                                    .first = 0,
                                    .rows = rows,
                                    .compression = job.compression,
                                    .dimensions = {},
                                    .logical_types = logical_types,
                                    .nullable = nullable},
                      job.program->source_files());
  try {
    write_batch_rows(
        batch, 0, rows, *writer, job.rate, [&](const ColumnChunk& chunk, std::string& bytes) {
          std::vector<uint64_t> parents(chunk.rows);
          for (uint64_t r = 0; r < chunk.rows; ++r) {
            parents[r] = job.first + (chunk.first + r) / tuples;
          }
          ColumnChunk with_parent{chunk.first, chunk.rows, {}};
          with_parent.columns.push_back(ColumnView{.type = Type::U64, .words = parents.data()});
          with_parent.columns.insert(with_parent.columns.end(), chunk.columns.begin(),
                                     chunk.columns.end());
          writer->encode(with_parent, bytes);
        });
  } catch (const EvalError& e) {
    if (e.coordinates().empty()) throw;
    // Row r of the lattice body is tuple r mod tuples of coordinate
    // first + r / tuples; its elements are the lattice body's first outputs.
    const uint64_t r = e.coordinates()[0];
    BatchOptions at_row;
    at_row.outputs = info.names;
    at_row.coordinates = {0, 0};
    at_row.threads = 1;
    std::vector<Value> elements;
    for (const Column& c : BatchEvaluator(info.lattice_body, at_row).evaluate(r, 1)) {
      elements.push_back(c.value(0));
    }
    fail_at(e, row_place(*job.program, job.first + r / tuples, info.names, elements, {}));
  }
  return rows;
}

// An activation of at least this many cycles (a body's cursor over a
// large slice) runs as one batch, on the job's device: the tuple's values
// are its scalars.
constexpr uint64_t kBatchActivationCycles = 4096;

// `rows` copies of `v` as a column view (over storage it owns).
struct ConstantColumn {
  std::vector<uint64_t> words;
  std::vector<int64_t> offsets;
  std::string bytes;
  ColumnView view;

  ConstantColumn(const Value& v, uint64_t rows) {
    view.type = v.type();
    if (!is_payload(v.type())) {
      words.assign(rows, word_of(v));
      view.words = words.data();
      return;
    }
    const std::string& text = v.text();
    offsets.resize(rows + 1);
    for (uint64_t r = 0; r <= rows; ++r) offsets[r] = (int64_t)(r * text.size());
    bytes.reserve(rows * text.size());
    for (uint64_t r = 0; r < rows; ++r) bytes += text;
    view.offsets = offsets.data();
    view.bytes = bytes.data();
  }
};

// Activation `a`'s rows through the batch tier: the body over its cycles,
// its values as scalars, the coordinate and the elements (the enclosing
// levels' `outer`, then its own) prepended per chunk. The same bytes as
// append_activation_rows.
void write_activation_in_batch(FormatWriter& writer, RatePacer& pacer, const RangeJob& job,
                               uint64_t coordinate, std::span<const Value> outer,
                               const Traversal& t, size_t a) {
  BatchOptions options;
  options.outputs = job.outputs;
  options.coordinates = {0};
  options.externs = t.activation_externs(a);
  options.threads = job.threads;
  options.device = job.device;
  options.stop = Interruption::stop_flag();
  const BatchEvaluator batch(t.body().shared_from_this(), options);
  warn_of_left_out_devices(batch);
  if (job.verbose) {
    std::fprintf(stderr, "polyrt: activation %zu (%llu cycles) runs in the batch tier on %s\n", a,
                 (unsigned long long)t.cycles(a), batch.device_name().c_str());
  }
  batch.stream_encoded(
      0, t.cycles(a),
      [&](const ColumnChunk& chunk, std::string& bytes) {
        std::vector<ConstantColumn> constants;
        constants.emplace_back(Value::u64(coordinate), chunk.rows);
        for (const Value& v : outer) constants.emplace_back(v, chunk.rows);
        for (const Value& v : t.tuples()[a]) constants.emplace_back(v, chunk.rows);
        ColumnChunk rows{chunk.first, chunk.rows, {}};
        for (const ConstantColumn& c : constants) rows.columns.push_back(c.view);
        rows.columns.insert(rows.columns.end(), chunk.columns.begin(), chunk.columns.end());
        writer.encode(rows, bytes);
      },
      [&](const ColumnChunk& chunk, std::string& bytes) {
        Interruption::stop_if_requested();
        pacer.write(writer, bytes, chunk.rows);
      });
}

// The rows of activation `a` of the opening at `coordinate`, one per cycle
// of the activation (one state, its cycle advanced): the coordinate, the
// enclosing levels' elements `outer`, the tuple's elements and the body's
// `outputs` (indexes into its outputs, named by columns after the
// elements). Returns how many.
uint64_t append_activation_rows(std::string& text, const RowFormat& format,
                                const std::vector<std::string>& columns,
                                const std::vector<size_t>& outputs, uint64_t coordinate,
                                std::span<const Value> outer, const Traversal& t, size_t a) {
  const uint64_t cycles = t.cycles(a);
  State body = t.activation(a);
  const size_t first_output = 1 + outer.size() + t.names().size();
  for (uint64_t cycle = 0; cycle < cycles; ++cycle) try {
      Interruption::stop_if_requested();
      if (cycle) body.set_inputs(std::vector<uint64_t>{cycle});
      begin_row(text, format);
      append_field(text, format, columns[0], Value::u64(coordinate), coordinate);
      for (size_t k = 0; k < outer.size(); ++k) {
        field_separator(text, format);
        append_field(text, format, columns[1 + k], outer[k], coordinate);
      }
      for (size_t k = 0; k < t.names().size(); ++k) {
        field_separator(text, format);
        append_field(text, format, columns[1 + outer.size() + k], t.tuples()[a][k], coordinate);
      }
      for (size_t o = 0; o < outputs.size(); ++o) {
        field_separator(text, format);
        append_field(text, format, columns[first_output + o], body.pull_at(outputs[o]), coordinate,
                     t.body().output_logical_type(outputs[o]),
                     t.body().output_nullable(outputs[o]));
      }
      end_row(text, format);
    } catch (const EvalError& e) {
      throw EvalError(e.what(), e.node(), {cycle});  // the body's coordinates
    }
  return cycles;
}

}  // namespace

uint64_t run_traversal_job(const RangeJob& job, const std::string& target, bool batch) {
  const Program& program = *job.program;
  if (program.traversal_count() != 1) {
    throw RefusedError("polyrt runs the rows of one traversal at a time; this program has " +
                       std::to_string(program.traversal_count()));
  }
  if (const TraversalInfo info = flattened_traversal_info(program, 0); batch && info.lattice_body) {
    return run_lattice_rows(job, info, traversal_columns(program, job.outputs), target);
  }
  const std::optional<RowFormat> format = job.format->text_rows();
  if (!format) {
    throw RefusedError("a traversal's rows are written as text (csv, tsv, jsonl), not " +
                       std::string(job.format->name()));
  }
  const std::vector<std::string> columns = traversal_columns(program, job.outputs);
  const std::unique_ptr<FormatWriter> writer =
      open_job_output(*job.format, target,
                      OutputColumns{.names = columns,
                                    .types = {},
                                    .first = job.first,
                                    .rows = job.count,
                                    .compression = job.compression},
                      program.source_files());
  std::vector<size_t> outputs;
  const TraversalInfo info = flattened_traversal_info(program, 0);
  for (const std::string& name : job.outputs) outputs.push_back(info.body->require_output(name));
  std::vector<uint64_t> coordinates = job.coordinates;
  coordinates.resize(program.input_names().size(), 0);
  ProgressBar progress(job.count);
  RatePacer pacer(job.rate);
  std::string text;
  uint64_t written = 0;
  // A signal stops the job between rows, and inside an opening's
  // materialization (up to 2^24 tuples) or a partition list's peeling.
  const CancellationScope cancellable(Interruption::stop_flag());
  Interruption::stopping_on_signals([&] {
    for_each_opening(
        program, 0, job.first, job.count, coordinates, job.externs,
        [&](uint64_t coordinate, const Traversal& t) {
          for_each_innermost_activation(
              t, [&](std::span<const Value> outer, const Traversal& innermost, size_t a) {
                Interruption::stop_if_requested();
                try {
                  if (batch && innermost.cycles(a) >= kBatchActivationCycles) {
                    write_activation_in_batch(*writer, pacer, job, coordinate, outer, innermost, a);
                    written += innermost.cycles(a);
                    return;
                  }
                  text.clear();
                  const uint64_t rows = append_activation_rows(text, *format, columns, outputs,
                                                               coordinate, outer, innermost, a);
                  pacer.write(*writer, text, rows);
                  written += rows;
                } catch (const EvalError& e) {
                  std::vector<Value> elements(outer.begin(), outer.end());
                  const std::vector<Value>& tuple = innermost.tuples()[a];
                  elements.insert(elements.end(), tuple.begin(), tuple.end());
                  const bool cursor = info.cursors && !e.coordinates().empty();
                  fail_at(e, row_place(program, coordinate, info.names, elements,
                                       cursor ? std::optional(e.coordinates()[0]) : std::nullopt));
                }
              });
          progress.advance(1);
        });
  });
  progress.finish();
  writer->commit();
  return written;
}

}  // namespace polyrt::scheduler

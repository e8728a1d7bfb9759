#include "cli/run_parts.hpp"

#include <cstdio>
#include <filesystem>

#include "cli/usage_error.hpp"
#include "polyrt/error.hpp"
#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/job_parts.hpp"
#include "scheduler/jobs/part_manifest.hpp"
#include "scheduler/jobs/traversal_job.hpp"
#include "scheduler/output/output_target.hpp"
#include "scheduler/output/temporary_files.hpp"

namespace polyrt::cli {

namespace {

void make_directory(const std::string& dir, const char* why) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!std::filesystem::is_directory(dir)) {
    throw UsageError("polyrt run: --out " + dir + " must be a directory " + why +
                     (error ? " (" + error.message() + ")" : ""));
  }
}

scheduler::RangeJob part_job(const scheduler::RangeJob& job, uint64_t parts, uint64_t part) {
  scheduler::RangeJob one = job;
  const scheduler::PartRange range = scheduler::part_range(job.first, job.count, parts, part);
  one.first = range.first;
  one.count = range.count;
  return one;
}

// The status `polyrt` exits with for an error (as main reports it).
int exit_status_of(const std::exception& e) {
  if (const auto* interrupted = dynamic_cast<const scheduler::InterruptedError*>(&e)) {
    return interrupted->exit_status();
  }
  if (dynamic_cast<const UsageError*>(&e) || dynamic_cast<const OutputError*>(&e)) return 2;
  return dynamic_cast<const Error*>(&e) ? 1 : 3;
}

}  // namespace

void run_parts(const scheduler::RangeJob& job, uint64_t parts, std::optional<uint64_t> only,
               const PartsTarget& target, const RunTo& run_to) {
  make_directory(target.dir, "for --parts");
  // Every part of a whole run is first written under a staging name and
  // renamed into place only when all of them succeeded: a failure leaves
  // the previous run's parts as they were. (A directory format's parts need
  // no staging: an existing part directory is refused, never replaced.)
  const bool staged = !only && !job.format->writes_directory();
  std::vector<std::string> written;                            // removed on failure
  std::vector<std::pair<std::string, std::string>> to_rename;  // staged -> final
  try {
    for (uint64_t k = only.value_or(1); k <= only.value_or(parts); ++k) {
      const std::string path =
          scheduler::part_path(target.dir, target.table, k, *job.format, job.compression);
      const std::string name = std::filesystem::path(path).filename().string();
      scheduler::remove_stale_temporaries(target.dir, name);  // a killed run's staged parts
      const std::string write_to =
          staged ? target.dir + "/" + scheduler::temporary_name(name) : path;
      run_to(part_job(job, parts, k), write_to);
      written.push_back(write_to);
      if (staged) to_rename.emplace_back(write_to, path);
    }
    scheduler::Interruption::stop_if_requested();
  } catch (...) {
    std::error_code ignored;
    for (const std::string& path : written) std::filesystem::remove_all(path, ignored);
    throw;
  }
  for (const auto& [from, to] : to_rename) scheduler::commit_output_temporary(from, to);
  if (!only) {
    // Parts past N of an earlier run with more parts would read as part of this one.
    std::error_code ignored;
    for (uint64_t k = parts + 1;; ++k) {
      const std::string stale =
          scheduler::part_path(target.dir, target.table, k, *job.format, job.compression);
      if (!std::filesystem::exists(stale, ignored)) break;
      std::filesystem::remove_all(stale, ignored);
    }
  }
}

namespace {

// The columns a part holds: a traversal's rows hold the iterated input and
// the elements beside the body's outputs.
std::vector<std::string> written_columns(const scheduler::RangeJob& job) {
  if (!job.program->traversal_count()) return job.outputs;
  return TraversalRows(job.program, scheduler::traversal_rows_options(job, true)).names();
}

}  // namespace

int run_as_rank(scheduler::Ranks& ranks, const scheduler::RangeJob& job, const PartsTarget& target,
                const RunTo& run_to) {
  const auto parts = (uint64_t)ranks.size();
  const uint64_t part = (uint64_t)ranks.rank() + 1;
  const std::string manifest = target.dir + "/" + scheduler::kManifestName;
  std::error_code ignored;
  make_directory(target.dir, "for the parts of an MPI launch");
  // A manifest of an earlier run would describe parts this run replaces.
  if (part == 1) std::filesystem::remove(manifest, ignored);
  const std::string path =
      scheduler::part_path(target.dir, target.table, part, *job.format, job.compression);
  const scheduler::RangeJob mine = part_job(job, parts, part);
  scheduler::RankOutcome outcome;
  try {
    outcome.rows = run_to(mine, path);
    const scheduler::FileSummary files =
        scheduler::summarize_files(job.format->files_of(path, written_columns(job)));
    outcome.bytes = files.bytes;
    outcome.crc32 = files.crc32;
  } catch (const std::exception& e) {
    // Every rank reaches the exchange below, whatever went wrong here: the
    // others wait for it.
    if (ranks.stopped()) {
      outcome.stopped = true;
    } else {
      outcome.failed = true;
      outcome.exit_status = exit_status_of(e);
      outcome.message = e.what();
      // A signal to this rank (not the stop check) stops every rank.
      ranks.announce_failure(dynamic_cast<const scheduler::InterruptedError*>(&e) != nullptr);
    }
  }
  const std::vector<scheduler::RankOutcome> outcomes = ranks.exchange(outcome);
  for (size_t r = 0; r < outcomes.size(); ++r) {
    if (!outcomes[r].failed) continue;
    std::filesystem::remove_all(path, ignored);
    if (ranks.rank() == 0) {
      std::fprintf(
          stderr, "%s\n(rank %zu of %d, part %zu: rows from %llu)\n", outcomes[r].message.c_str(),
          r, ranks.size(), r + 1,
          (unsigned long long)scheduler::part_range(job.first, job.count, parts, r + 1).first);
    }
    return outcomes[r].exit_status;
  }
  if (ranks.rank() != 0) return 0;
  try {
    scheduler::Manifest m{.program_path = target.program_file,
                          .program = scheduler::summarize_files({target.program_file}),
                          .first = job.first,
                          .count = job.count,
                          .format = std::string(job.format->name()),
                          .outputs = written_columns(job),
                          .parts = {}};
    for (uint64_t k = 1; k <= parts; ++k) {
      const scheduler::RankOutcome& o = outcomes[k - 1];
      m.parts.push_back(scheduler::ManifestPart{
          .part = k,
          .path = std::filesystem::path(scheduler::part_path(target.dir, target.table, k,
                                                             *job.format, job.compression))
                      .filename()
                      .string(),
          .first = scheduler::part_range(job.first, job.count, parts, k).first,
          .rows = o.rows,
          .files = {o.bytes, o.crc32}});
    }
    scheduler::Interruption::stop_if_requested();
    scheduler::write_manifest(target.dir, m);
  } catch (...) {
    // Parts without their manifest are not a result: all of them or none.
    for (uint64_t k = 1; k <= parts; ++k) {
      std::filesystem::remove_all(
          scheduler::part_path(target.dir, target.table, k, *job.format, job.compression), ignored);
    }
    throw;
  }
  return 0;
}

}  // namespace polyrt::cli

// The processes of one MPI launch (mpirun, or srun with PMI), each writing one
// part of a job (see job_parts.hpp). polyrt links MPI when the build finds it
// (Open MPI from Debian); without it, or outside an MPI launch, a run is one
// process.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace polyrt::scheduler {

// What one rank did with its part.
struct RankOutcome {
  bool failed = false;           // its own part failed (an error of its rows, a signal, ...)
  bool stopped = false;          // stopped because another rank failed (announce_failure)
  int exit_status = 0;           // when failed: the status the command exits with
  std::string message;           // when failed: the error
  uint64_t rows = 0, bytes = 0;  // when it succeeded: what its part holds
  uint32_t crc32 = 0;
};

class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Called when this rank's part failed. An error of its rows: every rank
  // with later rows stops at its next chunk (Interruption's stop check),
  // since its rows can no longer reach the output; ranks with earlier rows
  // go on, so the failure reported is the smallest failing coordinate of
  // all. An interruption (a signal to this rank): every other rank stops at
  // its next chunk, for nothing of the job can be kept.
  virtual void announce_failure(bool interrupted) = 0;
  // Whether the stop check stopped this rank (announce_failure of another
  // rank).
  virtual bool stopped() const = 0;
  // Called once by every rank after its part: every rank's outcome, in rank
  // order, on every rank.
  virtual std::vector<RankOutcome> exchange(const RankOutcome& mine) = 0;
};

// The ranks of the MPI launch this process belongs to (MPI_Init here,
// MPI_Finalize when destroyed), or null outside one or without MPI support.
std::unique_ptr<Ranks> join_mpi_launch();

}  // namespace polyrt::scheduler

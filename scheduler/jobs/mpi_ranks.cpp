// Ranks over MPI. Every MPI call holds one mutex, so MPI_THREAD_SERIALIZED
// suffices although the stop check runs on the job's worker threads.
#include <mpi.h>

#include <cstdlib>
#include <mutex>

#include "polyrt/error.hpp"
#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/ranks.hpp"

namespace polyrt::scheduler {

namespace {

constexpr int kStopTag = 0x706f;  // "stop": another rank failed
// What a rank announced (the stop message's value).
constexpr int kFailed = 1;       // an error of its rows: later ranks stop
constexpr int kInterrupted = 2;  // a signal: every other rank stops

// Whether this process was started by an MPI launcher: Open MPI's mpirun, or
// a PMI / PMIx launcher such as Slurm's srun.
bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(variable)) return true;
  }
  return false;
}

class MpiRanks final : public Ranks {
 public:
  MpiRanks() {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
      throw DeviceError("MPI_Init_thread failed: the MPI launch cannot be joined");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    Interruption::set_stop_check([this] { return earlier_rank_failed(); });
  }

  ~MpiRanks() override {
    Interruption::set_stop_check({});
    MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void announce_failure(bool interrupted) override {
    const std::lock_guard lock(mutex_);
    announced_ = interrupted ? kInterrupted : kFailed;
    for (int r = interrupted ? 0 : rank_ + 1; r < size_; ++r) {
      if (r != rank_) MPI_Send(&announced_, 1, MPI_INT, r, kStopTag, MPI_COMM_WORLD);
    }
  }

  bool stopped() const override {
    const std::lock_guard lock(mutex_);
    return stop_;
  }

  std::vector<RankOutcome> exchange(const RankOutcome& mine) override {
    const std::lock_guard lock(mutex_);
    // Every rank learns which failed, to receive each stop message meant for
    // it (a message never received would be left pending at MPI_Finalize).
    std::vector<int> announced(size_);
    MPI_Allgather(&announced_, 1, MPI_INT, announced.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int expected = 0;
    for (int r = 0; r < size_; ++r) {
      expected +=
          (announced[r] == kFailed && r < rank_) || (announced[r] == kInterrupted && r != rank_);
    }
    for (; received_ < expected; ++received_) {
      int ignored = 0;
      MPI_Recv(&ignored, 1, MPI_INT, MPI_ANY_SOURCE, kStopTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    const uint64_t fields[6] = {mine.failed, mine.stopped, (uint64_t)mine.exit_status,
                                mine.rows,   mine.bytes,   mine.crc32};
    std::vector<uint64_t> all_fields(6 * (size_t)size_);
    MPI_Allgather(fields, 6, MPI_UINT64_T, all_fields.data(), 6, MPI_UINT64_T, MPI_COMM_WORLD);
    const int length = (int)mine.message.size();
    std::vector<int> lengths(size_), displacements(size_);
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (size_t r = 0; r < lengths.size(); ++r) {
      displacements[r] = total;
      total += lengths[r];
    }
    std::string messages((size_t)total, '\0');
    MPI_Allgatherv(mine.message.data(), length, MPI_CHAR, messages.data(), lengths.data(),
                   displacements.data(), MPI_CHAR, MPI_COMM_WORLD);
    std::vector<RankOutcome> outcomes;
    for (size_t r = 0; r < lengths.size(); ++r) {
      const uint64_t* f = &all_fields[6 * r];
      outcomes.push_back(RankOutcome{.failed = f[0] != 0,
                                     .stopped = f[1] != 0,
                                     .exit_status = (int)f[2],
                                     .message = messages.substr(displacements[r], lengths[r]),
                                     .rows = f[3],
                                     .bytes = f[4],
                                     .crc32 = (uint32_t)f[5]});
    }
    return outcomes;
  }

 private:
  // The stop check: a stop message from another rank.
  bool earlier_rank_failed() {
    const std::lock_guard lock(mutex_);
    if (stop_) return true;
    int arrived = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, kStopTag, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
    if (!arrived) return false;
    int ignored = 0;
    MPI_Recv(&ignored, 1, MPI_INT, MPI_ANY_SOURCE, kStopTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ++received_;
    return stop_ = true;
  }

  mutable std::mutex mutex_;
  int rank_ = 0, size_ = 1;
  int received_ = 0;   // stop messages received
  int announced_ = 0;  // what this rank announced: 0, kFailed or kInterrupted
  bool stop_ = false;
};

}  // namespace

std::unique_ptr<Ranks> join_mpi_launch() {
  if (!launched_by_mpi()) return nullptr;
  return std::make_unique<MpiRanks>();
}

}  // namespace polyrt::scheduler

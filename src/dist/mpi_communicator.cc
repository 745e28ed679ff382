// Open MPI behind dist::Communicator. MPI_THREAD_FUNNELED: each communicator is used by one
// thread (its job's event loop; the readers never call MPI); a mix runs several jobs, each on
// its own thread with its own Duplicate(), and asks MPI_THREAD_MULTIPLE (WorldServesThreads).
// calls MPI (the readers never do). Errors stay fatal (MPI's default): a rank that dies
// makes mpirun end the job and name it; failures this program notices itself travel as
// messages, so that every rank stops, the results are still gathered, and rank 0 writes
// them.
// MPI's C API only: the deprecated C++ bindings would need their own library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <chrono>
#include <thread>

#include "common/error.h"
#include "common/interrupt.h"
#include "dist/implementations.h"

namespace trainbench::dist {
namespace {

constexpr int kFailureTag = 7001;
// How long a blocking wait sleeps between polls: short next to a step, long next to a
// spin's cost.
constexpr auto kPollSleep = std::chrono::microseconds(200);

class MpiCommunicator : public Communicator {
 public:
  explicit MpiCommunicator(bool threads) : host_(LocalHostName()) {
    MPI_Init_thread(nullptr, nullptr, threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED,
                    &thread_level_);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm_dup(MPI_COMM_WORLD, &control_);
    MPI_Comm_dup(MPI_COMM_WORLD, &step_);
  }

  ~MpiCommunicator() override {
    // A step all-reduce or barrier given up after a failure is left pending: it can never
    // complete, and MPI_Finalize does not wait for it (nor MPI_Comm_free: freed once done).
    for (auto& r : sends_) MPI_Request_free(&r);
    if (!world_) {
      MPI_Comm_free(&control_);
      MPI_Comm_free(&step_);
      return;
    }
    MPI_Finalize();
  }

  std::unique_ptr<Communicator> Duplicate() override {
    if (thread_level_ < MPI_THREAD_MULTIPLE)
      throw RuntimeError(
          "this Open MPI serves one thread per process (no MPI_THREAD_MULTIPLE), and each job of "
          "a mix runs on its own: run the mix as one process, or with an Open MPI built with "
          "thread support");
    return std::unique_ptr<Communicator>(new MpiCommunicator(DuplicateOf{*this}));
  }

  int Rank() const override { return rank_; }
  int Size() const override { return size_; }
  const std::string& Host() const override { return host_; }

  std::vector<std::string> AllGather(const std::string& mine) override {
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(static_cast<size_t>(size_));
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, control_);
    std::vector<int> offsets;
    const std::string all = Concatenated(lengths, offsets);
    std::string buffer(all.size(), '\0');
    MPI_Allgatherv(mine.data(), length, MPI_CHAR, buffer.data(), lengths.data(), offsets.data(),
                   MPI_CHAR, control_);
    return Split(buffer, lengths, offsets);
  }

  std::vector<std::string> Gather(const std::string& mine) override {
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(static_cast<size_t>(size_));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, control_);
    std::vector<int> offsets;
    std::string buffer;
    if (rank_ == 0) buffer.resize(Concatenated(lengths, offsets).size());
    MPI_Gatherv(mine.data(), length, MPI_CHAR, buffer.data(), lengths.data(), offsets.data(),
                MPI_CHAR, 0, control_);
    if (rank_ != 0) return {};
    return Split(buffer, lengths, offsets);
  }

  void StartStep(double value) override {
    step_in_ = value;
    MPI_Iallreduce(&step_in_, &step_out_, 1, MPI_DOUBLE, MPI_MAX, step_, &step_request_);
  }

  bool StepDone(double& max) override {
    int done = 0;
    MPI_Test(&step_request_, &done, MPI_STATUS_IGNORE);
    if (done) max = step_out_;
    return done != 0;
  }

  bool Barrier() override {
    if (PeerFailure()) return false;
    MPI_Request request;
    MPI_Ibarrier(step_, &request);
    for (;;) {
      int done = 0;
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (done) return true;
      if (PeerFailure() || InterruptRequested()) return false;
      std::this_thread::sleep_for(kPollSleep);
    }
  }

  void ReportFailure(const std::string& reason) override {
    if (reported_) return;
    reported_ = true;
    failure_text_ = "rank " + std::to_string(rank_) + " (" + host_ + "): " + reason;
    for (int r = 0; r < size_; ++r) {
      if (r == rank_) continue;
      MPI_Request request;
      MPI_Isend(failure_text_.data(), static_cast<int>(failure_text_.size()), MPI_CHAR, r,
                kFailureTag, control_, &request);
      sends_.push_back(request);
    }
  }

  std::optional<std::string> PeerFailure() override {
    int flag = 0;
    MPI_Status status;
    // Every notice is received (an unreceived one would wait at MPI_Finalize); the first
    // one names the failure.
    for (;;) {
      MPI_Iprobe(MPI_ANY_SOURCE, kFailureTag, control_, &flag, &status);
      if (!flag) break;
      int count = 0;
      MPI_Get_count(&status, MPI_CHAR, &count);
      std::string text(static_cast<size_t>(count), '\0');
      MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, kFailureTag, control_,
               MPI_STATUS_IGNORE);
      if (!peer_failure_) peer_failure_ = std::move(text);
    }
    return peer_failure_;
  }

 private:
  static std::string Concatenated(const std::vector<int>& lengths, std::vector<int>& offsets) {
    offsets.assign(lengths.size(), 0);
    size_t total = 0;
    for (size_t i = 0; i < lengths.size(); ++i) {
      offsets[i] = static_cast<int>(total);
      total += static_cast<size_t>(lengths[i]);
    }
    return std::string(total, '\0');
  }

  static std::vector<std::string> Split(const std::string& buffer, const std::vector<int>& lengths,
                                        const std::vector<int>& offsets) {
    std::vector<std::string> out;
    for (size_t i = 0; i < lengths.size(); ++i)
      out.push_back(
          buffer.substr(static_cast<size_t>(offsets[i]), static_cast<size_t>(lengths[i])));
    return out;
  }

  // A duplicate of `parent`: the same ranks, channels of its own (collective).
  struct DuplicateOf {
    const MpiCommunicator& parent;
  };
  explicit MpiCommunicator(DuplicateOf of)
      : host_(of.parent.host_),
        rank_(of.parent.rank_),
        size_(of.parent.size_),
        thread_level_(of.parent.thread_level_),
        world_(false) {
    MPI_Comm_dup(of.parent.control_, &control_);
    MPI_Comm_dup(of.parent.control_, &step_);
  }

  std::string host_;
  int rank_ = 0, size_ = 1;
  int thread_level_ = MPI_THREAD_SINGLE;
  bool world_ = true;  // the world's: it ends MPI
  MPI_Comm control_ = MPI_COMM_NULL, step_ = MPI_COMM_NULL;
  double step_in_ = 0, step_out_ = 0;
  MPI_Request step_request_ = MPI_REQUEST_NULL;
  std::vector<MPI_Request> sends_;
  bool reported_ = false;
  std::string failure_text_;
  std::optional<std::string> peer_failure_;
};

}  // namespace

std::unique_ptr<Communicator> MakeMpiCommunicator(bool threads) {
  return std::make_unique<MpiCommunicator>(threads);
}

void AbortMpiJob(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

}  // namespace trainbench::dist

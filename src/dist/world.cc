// Which communicator the process gets: MPI's when a launcher started it as a rank, else
// one process alone. Under several ranks the log lines name the rank and host, and only
// rank 0 prints its progress and information lines (warnings and errors come from all).
#include <fmt/format.h>

#include <cstdlib>

#include "common/log.h"
#include "dist/implementations.h"

namespace trainbench::dist {

bool LaunchedByMpi() {
  // Open MPI's mpirun; PMIx (Slurm's srun --mpi=pmix, prterun); Slurm's PMI-2.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

namespace {
bool started = false;
bool threads = false;  // WorldServesThreads
}  // namespace

void WorldServesThreads() { threads = true; }

Communicator& World() {
  static std::unique_ptr<Communicator> world = [] {
    started = true;
    std::unique_ptr<Communicator> made;
#ifdef TRAINBENCH_HAVE_MPI
    if (LaunchedByMpi()) made = MakeMpiCommunicator(threads);
#else
    if (LaunchedByMpi())
      LogWarning(
          "started by an MPI launcher, but this trainbench was built without MPI: every process "
          "runs alone (install libopenmpi-dev and rebuild)");
#endif
    if (!made) made = MakeSingleProcessCommunicator();
    // srun --mpi=none (a cluster whose MpiDefault is none) starts every task without PMI:
    // each would run the whole job alone, writing or reading the same files.
    if (!LaunchedByMpi()) {
      const char* tasks = std::getenv("SLURM_STEP_NUM_TASKS");
      if (tasks && std::atoi(tasks) > 1)
        LogWarning(fmt::format(
            "srun started {} tasks without PMI, so each runs alone: launch with srun --mpi=pmix "
            "(this Open MPI's PMI; `srun --mpi=list` shows the cluster's)",
            tasks));
    }
    if (made->Size() > 1) {
      SetLogPrefix(fmt::format("trainbench[{}/{} {}]", made->Rank(), made->Size(), made->Host()));
      if (made->Rank() != 0) SetQuiet(true);
    }
    return made;
  }();
  return *world;
}

void AbortJob([[maybe_unused]] int code) {
#ifdef TRAINBENCH_HAVE_MPI
  if (started && World().Size() > 1) AbortMpiJob(code);
#endif
}

}  // namespace trainbench::dist

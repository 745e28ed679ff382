// Which process of a launched job this is: torchrun's environment (RANK, WORLD_SIZE,
// LOCAL_RANK, MASTER_ADDR, MASTER_PORT), mpirun's (OMPI_COMM_WORLD_*) or srun's (SLURM_PROCID,
// SLURM_STEP_NUM_TASKS, ...). No LibTorch: the CLI's side reads it too (only rank 0 draws the
// live status). Thread-safe (reads the environment).
#pragma once

#include <string>

namespace trainbench::train {

struct LaunchInfo {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  // "torchrun" (RANK...), "mpirun" (OMPI_...), "slurm" (srun: SLURM_PROCID...) or "none"
  std::string launcher = "none";
};

// Reads the launcher's environment; a single process when none is set. Throws UsageError
// naming the variable when one is malformed. Under srun, MASTER_ADDR defaults to the first
// node of SLURM_STEP_NODELIST (rank 0's under the default block distribution).
LaunchInfo ReadLaunchEnvironment();

}  // namespace trainbench::train

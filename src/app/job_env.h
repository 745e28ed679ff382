// The JobEnv of the binary: the world's communicator (MPI when launched by mpirun, else a
// single process) and storage::OpenStorage.
#pragma once

#include "app/run_job.h"

namespace trainbench::app {

JobEnv BinaryJobEnv(ResultsSink* results);

}  // namespace trainbench::app

// The JobEnv of the binary: the world's communicator (MPI when launched by mpirun, else a
// single process) and storage::OpenStorage.
#pragma once

#include "app/run_job.h"

namespace trainbench::app {

JobEnv BinaryJobEnv(ResultsSink* results);

// Ends every rank of the job with `code` after this one has said why (dist::AbortJob).
void EndJob(int code);

}  // namespace trainbench::app

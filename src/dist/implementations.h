// The implementations behind dist::World(), for world.cc and the tests.
#pragma once

#include <memory>
#include <string>

#include "common/host_name.h"
#include "dist/communicator.h"

namespace trainbench::dist {

std::unique_ptr<Communicator> MakeSingleProcessCommunicator();
// Only when built with MPI (TRAINBENCH_HAVE_MPI); calls MPI_Init_thread, asking
// MPI_THREAD_MULTIPLE with `threads` (WorldServesThreads), else MPI_THREAD_FUNNELED.
std::unique_ptr<Communicator> MakeMpiCommunicator(bool threads);
void AbortMpiJob(int code);

}  // namespace trainbench::dist

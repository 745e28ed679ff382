// The seam for runs over many processes (MPI, a later issue): ranks, a barrier, and
// sum/max reductions of a few numbers. Only the single-process implementation exists,
// and the emulation uses Rank, Size and a blocking Barrier between phases; the
// reductions are not called yet (run records are not combined across ranks).
// Thread safety: called by one thread per process (the event loop).
#pragma once

#include <memory>
#include <vector>

namespace trainbench::dist {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int Rank() const = 0;
  virtual int Size() const = 0;
  virtual void Barrier() = 0;
  // Element-wise over ranks; every rank gets the result.
  virtual void SumInPlace(std::vector<double>& values) = 0;
  virtual void MaxInPlace(std::vector<double>& values) = 0;
};

std::unique_ptr<Communicator> MakeSingleProcessCommunicator();

}  // namespace trainbench::dist

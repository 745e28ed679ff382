// One process is the whole job: rank 0 of 1, and every reduction is the identity.
#include "dist/communicator.h"

namespace trainbench::dist {
namespace {

class SingleProcess : public Communicator {
 public:
  int Rank() const override { return 0; }
  int Size() const override { return 1; }
  void Barrier() override {}
  void SumInPlace(std::vector<double>&) override {}
  void MaxInPlace(std::vector<double>&) override {}
};

}  // namespace

std::unique_ptr<Communicator> MakeSingleProcessCommunicator() {
  return std::make_unique<SingleProcess>();
}

}  // namespace trainbench::dist

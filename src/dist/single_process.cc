// One process is the whole job: rank 0 of 1; every exchange returns this rank's own.
#include "dist/implementations.h"

namespace trainbench::dist {
namespace {

class SingleProcess : public Communicator {
 public:
  SingleProcess() : host_(LocalHostName()) {}
  int Rank() const override { return 0; }
  int Size() const override { return 1; }
  const std::string& Host() const override { return host_; }
  std::vector<std::string> AllGather(const std::string& mine) override { return {mine}; }
  std::vector<std::string> Gather(const std::string& mine) override { return {mine}; }
  void StartStep(double value) override { step_ = value; }
  bool StepDone(double& max) override {
    max = step_;
    return true;
  }
  bool Barrier() override { return true; }
  void ReportFailure(const std::string&) override {}
  std::optional<std::string> PeerFailure() override { return std::nullopt; }
  std::unique_ptr<Communicator> Duplicate() override { return std::make_unique<SingleProcess>(); }

 private:
  std::string host_;
  double step_ = 0;
};

}  // namespace

std::unique_ptr<Communicator> MakeSingleProcessCommunicator() {
  return std::make_unique<SingleProcess>();
}

}  // namespace trainbench::dist

// A sai3-bench workload as the workers' source (ops/workers.h): until `end_ns`, each
// operation is one of the ops drawn by weight; a GET or STAT of an object its glob matched
// (chosen uniformly), a PUT of new random bytes named under its path, a LIST of its folder,
// a DELETE of an object this job PUT that its glob matches. Draws are seeded by the op's
// number, so a mix is the same whichever worker takes it. Thread-safe: the workers share it.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "config/sai3/sai3_config.h"
#include "ops/workers.h"

namespace trainbench::ops {

struct MixOp {
  ReplayOp op = ReplayOp::kGet;
  double weight = 0;
  std::string path;               // the config's: a glob (GET, HEAD, DELETE) or a prefix
  std::vector<uint32_t> objects;  // GET, HEAD: the table's objects the glob matched
  config::Sai3Sizes sizes;        // PUT
};

class OpMix : public OpSource {
 public:
  // `sizes`: each table object's size (what a GET reads). `put_prefix` starts every PUT's
  // name after its path ("trainbench-r0-"), so ranks never write one name. Throws UsageError
  // for an op with weight that has nothing to act on (a GET whose glob matched nothing).
  OpMix(std::vector<MixOp> ops, std::vector<uint64_t> sizes, int64_t end_ns, uint64_t seed,
        std::string put_prefix);

  bool Next(WorkerOp& op, ReplayFigures& mine) override;
  uint64_t MaxGetBytes() const override { return max_get_; }

  // The op (an index into ops) that a uniform draw in [0, 1) picks by weight.
  size_t Pick(double u) const;
  const std::vector<MixOp>& ops() const { return ops_; }

 private:
  std::vector<MixOp> ops_;
  std::vector<double> cumulative_;  // of the weights, normalised: the last is 1
  std::vector<uint64_t> sizes_;
  int64_t end_ns_;
  uint64_t seed_;
  std::string put_prefix_;
  uint64_t max_get_ = 0;
  std::atomic<uint64_t> next_{0};
};

// The ops of a config's workload (GET and HEAD objects matched among `names`, the table's
// objects relative to the target); trainbench's own files (manifest, journal, lock) match
// no glob.
std::vector<MixOp> MixOps(const config::Sai3Config& config, const std::vector<std::string>& names);

}  // namespace trainbench::ops

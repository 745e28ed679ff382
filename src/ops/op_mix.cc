#include "ops/op_mix.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "common/interrupt.h"
#include "common/random.h"
#include "common/strings.h"
#include "dataset/dataset_lock.h"
#include "dataset/manifest.h"
#include "dataset/ownership.h"
#include "ops/sai3_objects.h"

namespace trainbench::ops {
namespace {

ReplayOp OpOf(const std::string& name) {
  if (name == "get") return ReplayOp::kGet;
  if (name == "put") return ReplayOp::kPut;
  if (name == "stat") return ReplayOp::kHead;
  if (name == "list") return ReplayOp::kList;
  return ReplayOp::kDelete;
}

// A path without wildcards names a folder (all under it) when it ends in '/', else itself.
std::string AsGlob(const std::string& path) {
  if (path.find_first_of("*?") != std::string::npos) return path;
  return !path.empty() && path.back() == '/' ? path + "**" : path;
}

}  // namespace

OpMix::OpMix(std::vector<MixOp> ops, std::vector<uint64_t> sizes, int64_t end_ns, uint64_t seed,
             std::string put_prefix)
    : ops_(std::move(ops)),
      sizes_(std::move(sizes)),
      end_ns_(end_ns),
      seed_(seed),
      put_prefix_(std::move(put_prefix)) {
  double total = 0;
  for (const MixOp& op : ops_) total += op.weight;
  double sum = 0;
  for (const MixOp& op : ops_) {
    sum += op.weight;
    cumulative_.push_back(total > 0 ? sum / total : 1);
    if (op.weight > 0 && (op.op == ReplayOp::kGet || op.op == ReplayOp::kHead) &&
        op.objects.empty())
      throw UsageError(
          fmt::format("workload: {} '{}' matches no object under the target (prepare names them "
                      "prepared-NNNNNNNN.dat, in the directory_structure's folders)",
                      op.op == ReplayOp::kGet ? "get" : "stat", op.path));
    if (op.op == ReplayOp::kGet)
      for (uint32_t o : op.objects) max_get_ = std::max(max_get_, sizes_[o]);
  }
  if (!cumulative_.empty()) cumulative_.back() = 1;
}

size_t OpMix::Pick(double u) const {
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
  size_t i = std::min<size_t>(static_cast<size_t>(it - cumulative_.begin()), ops_.size() - 1);
  while (ops_[i].weight <= 0 && i + 1 < ops_.size()) ++i;  // a zero weight is never drawn
  return i;
}

bool OpMix::Next(WorkerOp& out, ReplayFigures& mine) {
  if (InterruptRequested()) {
    mine.interrupted = true;
    return false;
  }
  if (ops_.empty() || metrics::WallNanos() >= end_ns_) return false;
  const uint64_t n = next_.fetch_add(1, std::memory_order_relaxed);
  Random random(Mix(seed_, n));
  const MixOp& op = ops_[Pick(random.Uniform())];
  out = WorkerOp();
  out.op = op.op;
  out.index = n;
  switch (op.op) {
    case ReplayOp::kGet:
    case ReplayOp::kHead:
      out.object = op.objects[random.Below(op.objects.size())];
      out.bytes = op.op == ReplayOp::kGet ? sizes_[out.object] : 0;
      break;
    case ReplayOp::kPut:
      out.name = fmt::format("{}{}{:010}.dat", op.path, put_prefix_, n);
      out.bytes = DrawObjectSize(op.sizes, random);
      break;
    case ReplayOp::kList:
      out.name =
          GlobFolder(op.path.find_first_of("*?") == std::string::npos ? op.path + "*" : op.path);
      break;
    case ReplayOp::kDelete: {
      const std::string glob = AsGlob(op.path);
      out.delete_matches = [glob](const std::string& name) { return GlobMatch(glob, name); };
      break;
    }
  }
  return true;
}

std::vector<MixOp> MixOps(const config::Sai3Config& config, const std::vector<std::string>& names) {
  std::vector<MixOp> out;
  for (const config::Sai3Op& o : config.workload) {
    MixOp op;
    op.op = OpOf(o.op);
    op.weight = o.weight;
    op.path = o.path;
    op.sizes = o.sizes;
    if (op.op == ReplayOp::kGet || op.op == ReplayOp::kHead) {
      const std::string glob = AsGlob(o.path);
      for (size_t i = 0; i < names.size(); ++i)
        if (!dataset::IsBookkeeping(names[i]) && GlobMatch(glob, names[i]))
          op.objects.push_back(static_cast<uint32_t>(i));
    }
    out.push_back(std::move(op));
  }
  return out;
}

}  // namespace trainbench::ops

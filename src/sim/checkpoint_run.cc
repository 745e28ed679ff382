#include "sim/checkpoint_run.h"

#include <fmt/format.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/page_cache.h"
#include "common/units.h"
#include "metrics/process_stats.h"
#include "sim/checkpointer.h"
#include "sim/llm_checkpoint.h"

namespace trainbench::sim {
namespace {

// The bytes this host's ranks write per checkpoint, over 3x its memory: the rules let the
// page cache stay then (it cannot hold what is read back).
bool CacheCouldHoldIt(const config::WorkloadConfig& c, dist::Communicator& ranks,
                      const CheckpointRunOptions& o) {
  uint64_t per_rank = 3 * c.model.model_size_bytes;
  if (IsSizedTransformer(c.model))
    per_rank = CheckpointSize(c.model, static_cast<uint64_t>(ranks.Size())).largest_rank_bytes;
  const double host_bytes = static_cast<double>(per_rank) * static_cast<double>(o.ranks_on_host);
  return host_bytes < 3.0 * static_cast<double>(metrics::HostMemoryBytes());
}

}  // namespace

metrics::RunRecord RunCheckpointWorkload(const config::WorkloadConfig& c, dist::Communicator& ranks,
                                         const CheckpointRunOptions& o) {
  auto log = [&o](const std::string& line) {
    if (o.log) o.log(line);
  };
  metrics::RunRecord r;
  r.workload = c.workload_name;
  r.ranks = static_cast<uint64_t>(ranks.Size());
  r.accelerators = o.accelerators;
  r.hosts = {ranks.Host()};
  r.host_memory_bytes = metrics::HostMemoryBytes();
  r.io_before = metrics::ReadProcessIo();
  const double cpu0 = metrics::ProcessCpuSeconds();
  const double t0 = NowSeconds();
  Checkpointer checkpointer(c, ranks.Rank(), ranks.Size(), o.storage);

  auto stop = [&](const std::string& reason, bool by_peer) {
    r.complete = false;
    r.stop_reason = reason;
    r.stopped_by_peer = by_peer;
    if (!by_peer) ranks.ReportFailure(reason);
  };
  auto together = [&] {
    if (ranks.Barrier()) return true;
    if (InterruptRequested())
      stop("interrupted", false);
    else
      stop(ranks.PeerFailure().value_or("another rank stopped"), true);
    return false;
  };

  std::vector<metrics::CheckpointRecord> written;
  double writes_end = 0;
  try {
    const int64_t writes =
        c.checkpoint.num_checkpoints_write < 0 ? 1 : c.checkpoint.num_checkpoints_write;
    for (int64_t i = 1; i <= writes; ++i) {
      if (!together()) break;
      auto rec = checkpointer.Write(1, static_cast<uint64_t>(i));  // DLIO: epoch 1, steps 1..
      written.push_back(rec);
      if (rec.files > 0) r.checkpoints.push_back(rec);
      log(fmt::format("checkpoint {} written: {} by this rank in {:.3f} s", rec.path,
                      FormatBytes(static_cast<double>(rec.bytes)), rec.seconds));
    }
    if (r.complete && together()) {
      writes_end = NowSeconds();
      // Only a file system's reads can come from this host's page cache; an object store's
      // (S3, memory) cross to the store whatever this host holds.
      const bool local = !o.storage || o.storage->LocalPath("").has_value();
      const bool drop = local && (o.drop_caches || CacheCouldHoldIt(c, ranks, o));
      if (drop) {
        if (o.first_rank_on_host) DropPageCache();
        log("page caches emptied between writing and reading");
      }
      if (together()) {
        const int64_t reads = c.checkpoint.num_checkpoints_read < 0
                                  ? 0
                                  : std::min<int64_t>(c.checkpoint.num_checkpoints_read,
                                                      static_cast<int64_t>(written.size()));
        if (reads > 0) r.checkpoint_gap_s = NowSeconds() - writes_end;
        for (size_t i = written.size() - static_cast<size_t>(reads); i < written.size(); ++i) {
          if (!together()) break;
          if (written[i].files == 0) continue;
          auto rec = checkpointer.Read(written[i]);
          r.checkpoints.push_back(rec);
          log(fmt::format("checkpoint {} read: {} by this rank in {:.3f} s", rec.path,
                          FormatBytes(static_cast<double>(rec.bytes)), rec.seconds));
        }
        together();
      }
    }
  } catch (const RuntimeError& e) {
    stop(e.what(), false);
  }
  for (auto& [op, latency] : checkpointer.StorageLatencies())
    r.storage_latency_ns["checkpoint_" + op] = std::move(latency);
  r.run_seconds = NowSeconds() - t0;
  r.cpu_seconds = metrics::ProcessCpuSeconds() - cpu0;
  r.peak_rss_bytes = metrics::PeakResidentBytes();
  r.io_after = metrics::ReadProcessIo();
  return r;
}

}  // namespace trainbench::sim

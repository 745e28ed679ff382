#include "sim/checkpoint_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>
#include <thread>

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

// The checkpoints to read, oldest first: the last checkpoint.num_checkpoints_read of those
// this run wrote, or with no writes of its own of those an earlier job wrote.
std::vector<metrics::CheckpointRecord> ToRead(const config::WorkloadConfig& c,
                                              const std::vector<metrics::CheckpointRecord>& written,
                                              const CheckpointRunOptions& o) {
  const auto& from = c.checkpoint.num_checkpoints_write == 0 ? o.earlier : written;
  const size_t reads =
      c.checkpoint.num_checkpoints_read < 0
          ? 0
          : std::min(static_cast<size_t>(c.checkpoint.num_checkpoints_read), from.size());
  return {from.end() - static_cast<std::ptrdiff_t>(reads), from.end()};
}

// Sleeps until NowSeconds() is `when`, looking for a stop every 50 ms: false when asked to stop.
bool SleepUntil(double when) {
  constexpr double kPoll = 0.05;
  for (double now = NowSeconds(); now < when; now = NowSeconds()) {
    if (InterruptRequested()) return false;
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(kPoll, when - now)));
  }
  return !InterruptRequested();
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
  r.started_at_s = t0;
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
      stop(InterruptReason(), false);
    else
      stop(ranks.PeerFailure().value_or("another rank stopped"), true);
    return false;
  };

  std::vector<metrics::CheckpointRecord> written;
  double writes_end = 0;
  try {
    const int64_t writes = o.every_s > 0 ? std::numeric_limits<int64_t>::max()
                           : c.checkpoint.num_checkpoints_write < 0
                               ? 1
                               : c.checkpoint.num_checkpoints_write;
    double first_start = 0;
    for (int64_t i = 1; i <= writes; ++i) {
      // On a schedule, each write starts every_s after the one before began (at once when
      // that one took longer), until the owner stops the run.
      if (i > 1 && o.every_s > 0 &&
          !SleepUntil(first_start + static_cast<double>(i - 1) * o.every_s)) {
        stop(InterruptReason(), false);
        break;
      }
      if (!together()) break;
      if (i == 1) first_start = NowSeconds();
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
        log(written.empty() ? "page caches emptied before reading"
                            : "page caches emptied between writing and reading");
      }
      if (together()) {
        const auto to_read = ToRead(c, written, o);
        if (!to_read.empty() && !written.empty()) r.checkpoint_gap_s = NowSeconds() - writes_end;
        const auto size = static_cast<uint64_t>(ranks.Size());
        const int shard = static_cast<int>(
            (static_cast<uint64_t>(ranks.Rank()) + c.checkpoint.read_shard_offset % size) % size);
        for (const auto& which : to_read) {
          if (!together()) break;
          auto rec = checkpointer.Read(which, shard);
          if (rec.files == 0) continue;  // that rank writes none of it
          r.checkpoints.push_back(rec);
          log(fmt::format("checkpoint {} read: {} by this rank{} in {:.3f} s", rec.path,
                          FormatBytes(static_cast<double>(rec.bytes)),
                          shard == ranks.Rank() ? "" : fmt::format(" (rank {}'s shard)", shard),
                          rec.seconds));
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

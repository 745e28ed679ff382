#include "metrics/run_record_merge.h"

#include <algorithm>
#include <tuple>

namespace trainbench::metrics {
namespace {

// The i-th phase of each rank's list; ranks that stopped before it have none.
std::vector<PhaseRecord> MergeLists(const std::vector<RunRecord>& ranks,
                                    std::vector<PhaseRecord> RunRecord::*list) {
  size_t longest = 0;
  for (const auto& r : ranks) longest = std::max(longest, (r.*list).size());
  std::vector<PhaseRecord> merged;
  for (size_t i = 0; i < longest; ++i) {
    std::vector<const PhaseRecord*> phases;
    for (const auto& r : ranks)
      if (i < (r.*list).size()) phases.push_back(&(r.*list)[i]);
    PhaseRecord m = MergePhases(phases);
    m.complete = m.complete && phases.size() == ranks.size();
    merged.push_back(m);
  }
  return merged;
}

// Checkpoints by what they are (operation, epoch, step): with checkpoint.type all_ranks each
// rank writes its share of each, taking as long as the slowest.
std::vector<CheckpointRecord> MergeCheckpoints(const std::vector<RunRecord>& ranks) {
  std::vector<CheckpointRecord> merged;
  for (const auto& r : ranks) {
    for (const auto& c : r.checkpoints) {
      auto same = [&c](const CheckpointRecord& m) {
        return std::tie(m.operation, m.epoch, m.step) == std::tie(c.operation, c.epoch, c.step);
      };
      auto it = std::find_if(merged.begin(), merged.end(), same);
      if (it == merged.end()) {
        merged.push_back(c);
        merged.back().seconds_min = c.seconds;
        continue;
      }
      it->bytes += c.bytes;
      it->files += c.files;
      it->ranks += c.ranks;
      it->seconds = std::max(it->seconds, c.seconds);
      it->seconds_min = std::min(it->seconds_min, c.seconds);
    }
  }
  return merged;
}

void Add(IoCounters& to, const IoCounters& from) {
  to.opens += from.opens;
  to.reads += from.reads;
  to.bytes_read += from.bytes_read;
  for (size_t i = 0; i < kAccessSizeBuckets; ++i) to.size_buckets[i] += from.size_buckets[i];
  to.sequential_reads += from.sequential_reads;
  to.consecutive_reads += from.consecutive_reads;
  to.files_read += from.files_read;
  to.files_reread += from.files_reread;
  to.max_read_bytes = std::max(to.max_read_bytes, from.max_read_bytes);
}

void Add(ProcessIo& to, const ProcessIo& from) {
  to.rchar += from.rchar;
  to.read_bytes += from.read_bytes;
  to.available = to.available && from.available;
}

std::string HostOf(const RunRecord& r) { return r.hosts.empty() ? "?" : r.hosts.front(); }

// The ranks' cache figures, summed. Where a rank could not tell (none), the whole cannot, and
// says which host and why; where hosts told by different methods (one on a local disk, one
// on a network mount), the method is "mixed" and each rank's figure is its own method's.
CacheRecord MergeCache(const std::vector<RunRecord>& ranks) {
  CacheRecord m = ranks.front().cache;
  std::vector<std::string> methods = {HostOf(ranks.front()) + ": " + m.method};
  bool mixed = false;
  for (size_t i = 1; i < ranks.size(); ++i) {
    const CacheRecord& c = ranks[i].cache;
    m.storage_read_bytes += c.storage_read_bytes;
    m.resident_bytes += c.resident_bytes;
    m.unchecked_bytes += c.unchecked_bytes;
    m.check_seconds += c.check_seconds;
    const std::string named = HostOf(ranks[i]) + ": " + c.method;
    if (std::find(methods.begin(), methods.end(), named) == methods.end()) methods.push_back(named);
    if (m.method == "none") continue;
    if (c.method == "none") {
      m.method = "none";
      m.reason = HostOf(ranks[i]) + ": " + c.reason;
    } else if (c.method != m.method) {
      mixed = true;
    }
  }
  if (mixed && m.method != "none") {
    m.method = "mixed";
    m.reason = "each host by the method that sees its reads (";
    for (size_t i = 0; i < methods.size(); ++i) m.reason += (i ? ", " : "") + methods[i];
    m.reason += ")";
  }
  return m;
}

}  // namespace

PhaseRecord MergePhases(const std::vector<const PhaseRecord*>& phases) {
  PhaseRecord m = *phases.front();
  for (size_t i = 1; i < phases.size(); ++i) {
    const PhaseRecord& p = *phases[i];
    m.duration_s = std::max(m.duration_s, p.duration_s);
    m.steps = std::min(m.steps, p.steps);
    m.samples += p.samples;
    m.bytes_read += p.bytes_read;
    m.requested_bytes += p.requested_bytes;
    m.compute_s += p.compute_s;
    m.counted_s += p.counted_s;
    m.data_wait_s += p.data_wait_s;
    m.au_min_percentage = std::min(m.au_min_percentage, p.au_min_percentage);
    m.complete = m.complete && p.complete;
  }
  // The same arithmetic as one rank's AuPercentage, over every rank's accelerators.
  if (phases.size() > 1)
    m.au_percentage = m.counted_s > 0 ? std::min(100.0, 100.0 * m.compute_s / m.counted_s) : 0;
  return m;
}

RunRecord MergeRanks(const std::vector<RunRecord>& ranks) {
  RunRecord m = ranks.front();
  m.ranks = ranks.size();
  m.epochs = MergeLists(ranks, &RunRecord::epochs);
  m.evals = MergeLists(ranks, &RunRecord::evals);
  m.preloads = MergeLists(ranks, &RunRecord::preloads);
  m.checkpoints = MergeCheckpoints(ranks);
  m.cache = MergeCache(ranks);
  m.hosts.clear();
  for (const auto& r : ranks)
    for (const auto& h : r.hosts)
      if (std::find(m.hosts.begin(), m.hosts.end(), h) == m.hosts.end()) m.hosts.push_back(h);
  for (size_t i = 1; i < ranks.size(); ++i) {
    const RunRecord& r = ranks[i];
    m.read_latency_ns.Merge(r.read_latency_ns);
    m.data_wait_ns.Merge(r.data_wait_ns);
    m.compute_late_ns.Merge(r.compute_late_ns);
    m.host_busy_share = std::max(m.host_busy_share, r.host_busy_share);
    Add(m.io, r.io);
    m.run_seconds = std::max(m.run_seconds, r.run_seconds);
    m.cpu_seconds += r.cpu_seconds;
    m.timeseries_cpu_seconds += r.timeseries_cpu_seconds;
    m.peak_rss_bytes = std::max(m.peak_rss_bytes, r.peak_rss_bytes);
    Add(m.io_before, r.io_before);
    Add(m.io_after, r.io_after);
    for (const auto& [name, value] : r.storage_counters) m.storage_counters[name] += value;
    for (const auto& [op, h] : r.storage_latency_ns) m.storage_latency_ns[op].Merge(h);
    m.complete = m.complete && r.complete;
    m.checkpoint_gap_s = std::max(m.checkpoint_gap_s, r.checkpoint_gap_s);
  }
  // The rank that stopped first by itself says why; the others relayed its notice.
  m.stop_reason.clear();
  m.stopped_by_peer = false;
  for (size_t i = 0; i < ranks.size() && m.stop_reason.empty(); ++i)
    if (!ranks[i].complete && !ranks[i].stopped_by_peer && !ranks[i].stop_reason.empty())
      m.stop_reason = ranks.size() > 1 ? "rank " + std::to_string(i) + " (" +
                                             (ranks[i].hosts.empty() ? "?" : ranks[i].hosts[0]) +
                                             "): " + ranks[i].stop_reason
                                       : ranks[i].stop_reason;
  for (size_t i = 0; i < ranks.size() && m.stop_reason.empty(); ++i)
    if (!ranks[i].complete) m.stop_reason = ranks[i].stop_reason;
  return m;
}

}  // namespace trainbench::metrics

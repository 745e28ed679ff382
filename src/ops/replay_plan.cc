#include "ops/replay_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "common/error.h"
#include "common/log.h"
#include "dataset/ownership.h"
#include "ops/in_flight.h"

namespace trainbench::ops {

const char* ReplayOpName(ReplayOp op) {
  switch (op) {
    case ReplayOp::kGet:
      return "GET";
    case ReplayOp::kPut:
      return "PUT";
    case ReplayOp::kHead:
      return "HEAD";
    case ReplayOp::kList:
      return "LIST";
    case ReplayOp::kDelete:
      return "DELETE";
  }
  return "?";
}

ReplayOp ReplayOpOf(const std::string& name) {
  for (ReplayOp op :
       {ReplayOp::kGet, ReplayOp::kPut, ReplayOp::kHead, ReplayOp::kList, ReplayOp::kDelete})
    if (name == ReplayOpName(op)) return op;
  if (name == "STAT") return ReplayOp::kHead;  // sai3-bench's name for it
  throw UsageError(
      fmt::format("--ops: '{}' is no operation of an op-log: give GET, PUT, HEAD, LIST or DELETE "
                  "(comma-separated)",
                  name));
}

ReplayPlan PlanReplay(const std::vector<metrics::OpLogEntry>& entries,
                      const std::set<ReplayOp>& ops, const std::string& target,
                      const std::string& where) {
  ReplayPlan plan;
  // Started first, replayed first: a log is written per thread in batches, so its lines are
  // not in time order.
  std::vector<size_t> order(entries.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return entries[a].start_ns < entries[b].start_ns; });
  std::unordered_map<std::string, uint32_t> storage_of;
  std::vector<std::unordered_map<std::string, uint32_t>> object_of;
  std::map<std::pair<std::string, uint64_t>, uint32_t> threads;  // (client, thread) -> number
  std::vector<std::pair<int64_t, int64_t>> in_flight;            // each kept op's [start, end)
  std::map<std::pair<uint32_t, uint32_t>, int64_t> last_write;   // (storage, object) -> op
  for (size_t i : order) {
    const metrics::OpLogEntry& e = entries[i];
    ReplayOp op;
    try {
      op = ReplayOpOf(e.op);
    } catch (const UsageError&) {
      throw UsageError(
          fmt::format("op-log {}: operation {} (idx {}) is '{}', which replay does "
                      "not know (GET, PUT, HEAD, LIST, DELETE)",
                      where, i, e.idx, e.op));
    }
    if (!ops.empty() && !ops.count(op)) {
      ++plan.dropped_by_ops;
      continue;
    }
    // A datagen's manifest, journal and lock replayed as random bytes would make the target
    // a dataset that run and clean call damaged: the data is replayed, not the bookkeeping.
    if ((op == ReplayOp::kPut || op == ReplayOp::kDelete) &&
        dataset::IsBookkeeping(metrics::RelativeName(e))) {
      ++plan.bookkeeping_skipped;
      continue;
    }
    const std::string uri = target.empty() ? e.endpoint : target;
    if (uri.empty())
      throw UsageError(fmt::format(
          "op-log {}: operation idx {} names no endpoint: give --target URI (a folder or "
          "s3://bucket/prefix) to say where its objects are",
          where, e.idx));
    auto [s, new_storage] = storage_of.try_emplace(uri, plan.storages.size());
    if (new_storage) {
      plan.storages.push_back({uri, {}, {}, {}});
      object_of.emplace_back();
    }
    PlannedStorage& storage = plan.storages[s->second];
    if (target.empty() && storage.endpoint_url.empty()) storage.endpoint_url = e.endpoint_url;
    const std::string name = metrics::RelativeName(e);
    auto [o, new_object] = object_of[s->second].try_emplace(name, storage.objects.size());
    if (new_object) storage.objects.push_back(name);
    if (op == ReplayOp::kGet) storage.gets.insert(o->second);
    if (plan.ops.empty()) plan.first_start_ns = e.start_ns;
    const std::pair<uint32_t, uint32_t> key{s->second, o->second};
    const auto written = last_write.find(key);
    const auto thread =
        threads.try_emplace({e.client_id, e.thread}, static_cast<uint32_t>(threads.size())).first;
    plan.ops.push_back({op, s->second, o->second, thread->second, e.bytes,
                        e.start_ns - plan.first_start_ns, static_cast<int64_t>(e.duration_ns),
                        written == last_write.end() ? -1 : written->second,
                        op == ReplayOp::kHead && e.n_objects == 0 && e.error.empty()});
    if (op == ReplayOp::kPut || op == ReplayOp::kDelete)
      last_write[key] = static_cast<int64_t>(plan.ops.size() - 1);
    plan.last_end_ns = std::max(plan.last_end_ns, e.end_ns);
    in_flight.push_back({e.start_ns, e.end_ns});
    OpFigures& original = plan.original[op];
    ++original.count;
    original.bytes += e.bytes;
    original.errors += !e.error.empty();
    original.latency_ns.Record(e.duration_ns);
    plan.writes = plan.writes || op == ReplayOp::kPut || op == ReplayOp::kDelete;
  }
  if (plan.bookkeeping_skipped > 0)
    LogInfo(fmt::format(
        "replay: {} PUT(s) and DELETE(s) of trainbench's own bookkeeping (manifest, journal, "
        "lock) left out: replayed they would be random bytes under those names",
        plan.bookkeeping_skipped));
  plan.threads = threads.size();
  plan.most_in_flight = MostInFlight(in_flight);
  if (plan.ops.empty())
    throw UsageError(fmt::format("op-log {}: no operation to replay ({} in the log{})", where,
                                 entries.size(),
                                 plan.dropped_by_ops ? ", none of them in --ops" : ""));
  return plan;
}

}  // namespace trainbench::ops

#include "sim/checkpoint_records.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "sim/checkpointer.h"

namespace trainbench::sim {
namespace {

// What one rank's record of a checkpoint says; what an older record lacks (its writers
// recorded only the files) stays unset and is not compared.
struct ShardRecord {
  bool parsed = false;
  std::optional<uint64_t> ranks, seed, epoch, step;
  std::map<std::string, uint64_t> files;
};

ShardRecord ReadShardRecord(storage::Storage& storage, const std::string& path) {
  ShardRecord s;
  try {
    const auto bytes = storage::ReadAll(storage, path);
    const auto j = nlohmann::json::parse(bytes.begin(), bytes.end());
    for (const auto& [name, size] : j.at("files").items()) s.files[name] = size.get<uint64_t>();
    auto field = [&j](const char* key, std::optional<uint64_t>& to) {
      if (j.contains(key)) to = j[key].get<uint64_t>();
    };
    field("ranks", s.ranks);
    field("seed", s.seed);
    field("epoch", s.epoch);
    field("step", s.step);
    s.parsed = true;
  } catch (const std::exception&) {
    // Unreadable: WhyUnreadable says so.
  }
  return s;
}

// The R of ".../.trainbench_checkpoint.rank<R>.json".
std::optional<int> RecordRankOf(const std::string& path) {
  const size_t start = path.rfind('/') + 1 + std::strlen(kCheckpointRecordStem);
  const size_t end = path.size() - std::strlen(".json");
  int rank = 0;
  const auto [at, error] = std::from_chars(path.data() + start, path.data() + end, rank);
  if (error != std::errc() || at != path.data() + end || rank < 0) return std::nullopt;
  return rank;
}

// The rank's files as a record holds them (by name), to compare with what a record says.
std::map<std::string, uint64_t> ByName(const CheckpointFiles& files) {
  return {files.begin(), files.end()};
}

// Why rank `rank`'s recorded shard differs from `want`, what this config writes ("" if not).
std::string ShardDifference(int rank, const std::map<std::string, uint64_t>& recorded,
                            const std::map<std::string, uint64_t>& want) {
  constexpr const char* kWhy = "another model, model size or checkpoint.type";
  for (const auto& [name, bytes] : want) {
    const auto it = recorded.find(name);
    if (it == recorded.end())
      return fmt::format("rank {}'s shard has no {}, which this run's config writes ({})", rank,
                         name, kWhy);
    if (it->second != bytes)
      return fmt::format("rank {}'s {} was written with {} bytes, this run's config makes {} ({})",
                         rank, name, it->second, bytes, kWhy);
  }
  for (const auto& [name, bytes] : recorded)
    if (!want.count(name))
      return fmt::format("rank {}'s shard holds {}, which this run's config does not write ({})",
                         rank, name, kWhy);
  return "";
}

// Why `ranks` ranks of `config` cannot read the checkpoint in `folder` whose records are
// `shards` (by rank), "" when they can; `sizes` holds every object's size under the folder.
std::string WhyUnreadable(const std::string& folder, const std::map<int, ShardRecord>& shards,
                          const config::WorkloadConfig& config, int ranks,
                          const std::map<std::string, uint64_t>& sizes) {
  for (const auto& [rank, record] : shards) {
    if (!record.parsed) return fmt::format("rank {}'s record cannot be read", rank);
    if (record.ranks && *record.ranks != static_cast<uint64_t>(ranks))
      return fmt::format("written by {} ranks, this run has {}", *record.ranks, ranks);
    if (rank >= ranks)
      return fmt::format("written by more ranks than this run's {} (rank {}'s shard is there)",
                         ranks, rank);
    if (record.seed && *record.seed != config.train.seed)
      return fmt::format(
          "written with train.seed={}, this run has {} (the bytes it compares would differ)",
          *record.seed, config.train.seed);
  }
  for (int rank = 0; rank < ranks; ++rank) {
    const auto want = ByName(CheckpointShardFiles(config, rank, ranks));
    const auto it = shards.find(rank);
    if (it == shards.end()) {
      if (want.empty()) continue;  // a rank that writes nothing
      return fmt::format(
          "rank {}'s shard is not recorded (written by fewer ranks, or another checkpoint.type)",
          rank);
    }
    if (auto why = ShardDifference(rank, it->second.files, want); !why.empty()) return why;
    for (const auto& [name, bytes] : want) {
      const auto size = sizes.find(folder + "/" + name);
      if (size == sizes.end())
        return fmt::format("{} is missing (a write that did not finish)", name);
      if (size->second != bytes)
        return fmt::format("{} holds {} bytes, its record says {} (a write that did not finish)",
                           name, size->second, bytes);
    }
  }
  return "";
}

// The (epoch, step) of a checkpoint: its records', else from DLIO's folder name
// global_epoch<E>_step<S> (records written before they held them), else (0, 0).
std::pair<uint64_t, uint64_t> EpochAndStep(const std::string& folder,
                                           const std::map<int, ShardRecord>& shards) {
  for (const auto& [rank, record] : shards)
    if (record.epoch && record.step) return {*record.epoch, *record.step};
  const std::string name = folder.substr(folder.rfind('/') + 1);
  unsigned long long epoch = 0, step = 0;
  if (std::sscanf(name.c_str(), "global_epoch%llu_step%llu", &epoch, &step) == 2)
    return {epoch, step};
  return {0, 0};
}

}  // namespace

RecordedCheckpoints FindRecordedCheckpoints(storage::Storage& storage,
                                            const config::WorkloadConfig& config, int ranks) {
  const auto entries = storage.List("");
  std::map<std::string, uint64_t> sizes;
  std::map<std::string, std::map<int, ShardRecord>> folders;  // by folder, then rank
  for (const auto& e : entries) sizes[e.path] = e.size_bytes;
  for (const auto& e : entries) {
    if (!IsCheckpointRecord(e.path)) continue;
    const auto rank = RecordRankOf(e.path);
    if (!rank) continue;
    folders[e.path.substr(0, e.path.rfind('/'))][*rank] = ReadShardRecord(storage, e.path);
  }
  struct Found {
    uint64_t epoch, step;
    std::string folder, why;
  };
  std::vector<Found> found;
  for (const auto& [folder, shards] : folders) {
    const auto [epoch, step] = EpochAndStep(folder, shards);
    found.push_back({epoch, step, folder, WhyUnreadable(folder, shards, config, ranks, sizes)});
  }
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    return std::tie(a.epoch, a.step, a.folder) < std::tie(b.epoch, b.step, b.folder);
  });
  RecordedCheckpoints out;
  for (const auto& f : found) {
    if (!f.why.empty()) {
      out.unreadable.push_back(f.folder + ": " + f.why);
      continue;
    }
    metrics::CheckpointRecord r;
    r.operation = "write";
    r.epoch = f.epoch;
    r.step = f.step;
    r.path = f.folder;
    for (int rank = 0; rank < ranks; ++rank)
      for (const auto& [name, bytes] : CheckpointShardFiles(config, rank, ranks)) {
        r.bytes += bytes;
        ++r.files;
      }
    out.readable.push_back(r);
  }
  return out;
}

}  // namespace trainbench::sim

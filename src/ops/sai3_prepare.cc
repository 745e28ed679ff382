#include "ops/sai3_prepare.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/random.h"
#include "dataset/dataset_lock.h"
#include "dataset/manifest.h"
#include "dataset/parallel.h"
#include "dist/typed_gather.h"
#include "ops/sai3_objects.h"

namespace trainbench::ops {
namespace {

constexpr uint64_t kChunk = 1 << 20;
constexpr uint64_t kFillSeed = 0x736169332d66696c;  // "sai3-fil"

bool Mine(uint64_t object, int rank, int ranks) {
  return object % static_cast<uint64_t>(ranks) == static_cast<uint64_t>(rank);
}

std::string JournalName(int rank, int ranks) {
  return ranks <= 1 ? dataset::kJournalName : fmt::format("{}.rank{}", dataset::kJournalName, rank);
}

void WaitForRanks(dist::Communicator& ranks) {
  if (ranks.Barrier()) return;
  if (InterruptRequested()) throw Interrupted();
  throw RuntimeError("prepare stopped: " + ranks.PeerFailure().value_or("another rank failed"));
}

formats::WrittenFile Written(const PlannedObject& o) {
  formats::WrittenFile f;
  f.path = o.path;
  f.size_bytes = o.size;
  f.num_samples = 1;
  return f;
}

// Objects an earlier prepare of other settings wrote (its manifest lists them) that this one
// does not make: a GET glob must not find them.
uint64_t RemoveEarlier(const dataset::Manifest& earlier, const std::vector<PlannedObject>& plan,
                       storage::Storage& storage) {
  std::set<std::string> planned;
  for (const auto& o : plan) planned.insert(o.path);
  uint64_t removed = 0;
  for (const auto& f : earlier.files)
    if (!planned.count(f.path) && storage.FileSize(f.path)) {
      storage.Remove(f.path);
      ++removed;
    }
  return removed;
}

void WriteObject(const PlannedObject& o, uint64_t seed, bool zero, storage::Storage& storage) {
  std::vector<unsigned char> chunk(std::min<uint64_t>(std::max<uint64_t>(o.size, 1), kChunk));
  auto writer = storage.Create(o.path);
  for (uint64_t at = 0; at < o.size;) {
    const uint64_t n = std::min<uint64_t>(o.size - at, chunk.size());
    if (!zero) FillRandom(seed, at, chunk.data(), n);
    writer->Append(chunk.data(), n);
    at += n;
  }
  writer->Commit();
}

}  // namespace

PrepareFigures PrepareObjects(const config::Sai3Config& config,
                              std::vector<storage::Storage*>& sets, dist::Communicator& ranks,
                              unsigned threads, std::atomic<uint64_t>& bytes_written) {
  const int rank = ranks.Rank(), size = ranks.Size();
  const double start = NowSeconds();
  PrepareFigures figures;
  std::vector<std::optional<dataset::DatasetLock>> locks(sets.size());
  std::vector<std::vector<PlannedObject>> plans;
  for (size_t s = 0; s < sets.size(); ++s) {
    plans.push_back(PlanObjectSet(config, s));
    if (rank != 0) continue;
    storage::Storage& storage = *sets[s];
    locks[s].emplace(storage);
    auto earlier = dataset::ReadManifest(storage);
    if (earlier && earlier->key != ObjectSetKey(config, s)) {
      figures.removed += RemoveEarlier(*earlier, plans[s], storage);
      storage.Remove(dataset::kManifestName);
    }
    storage.RemoveLeftovers("");
  }
  WaitForRanks(ranks);

  uint64_t written = 0, skipped = 0;
  std::vector<std::unique_ptr<dataset::Journal>> journals;
  for (size_t s = 0; s < sets.size(); ++s) {
    storage::Storage& storage = *sets[s];
    const nlohmann::json key = ObjectSetKey(config, s);
    const std::vector<PlannedObject>& plan = plans[s];
    journals.push_back(std::make_unique<dataset::Journal>(storage, JournalName(rank, size), key));
    dataset::Journal& journal = *journals.back();
    std::map<std::string, uint64_t> known;
    if (!config.force_overwrite) {
      if (const auto manifest = dataset::ReadManifest(storage); manifest && manifest->key == key)
        for (const auto& f : manifest->files) known[f.path] = f.size_bytes;
      for (const auto& [path, f] : journal.Entries()) known[path] = f.size_bytes;
    }
    std::vector<uint64_t> pending;
    for (uint64_t i = 0; i < plan.size(); ++i) {
      if (!Mine(i, rank, size)) continue;
      const auto it = known.find(plan[i].path);
      if (it != known.end() && it->second == plan[i].size &&
          storage.FileSize(plan[i].path) == plan[i].size) {
        ++skipped;
        continue;
      }
      pending.push_back(i);
    }
    const uint64_t seed = Mix(kFillSeed, s);
    const bool zero = config.ensure_objects[s].zero_fill;
    dataset::ParallelFor(pending.size(), std::max(1u, threads), [&](uint64_t t) {
      const PlannedObject& o = plan[pending[t]];
      WriteObject(o, Mix(seed, pending[t]), zero, storage);
      journal.Record(Written(o));
      bytes_written.fetch_add(o.size, std::memory_order_relaxed);
    });
    written += pending.size();
    figures.objects += plan.size();
    for (const auto& o : plan) figures.bytes += o.size;
  }
  // Rank 0 learns what every rank wrote, then writes each set's manifest.
  PrepareFigures mine;
  mine.written = written;
  mine.skipped = skipped;
  mine.bytes_written = bytes_written.load();
  const auto all = dist::GatherAs(ranks, mine);
  if (rank == 0) {
    for (const auto& rank_figures : all) {
      figures.written += rank_figures.written;
      figures.skipped += rank_figures.skipped;
      figures.bytes_written += rank_figures.bytes_written;
    }
    for (size_t s = 0; s < sets.size(); ++s) {
      dataset::Manifest manifest;
      manifest.workload = config.name;
      manifest.key = ObjectSetKey(config, s);
      for (const auto& o : plans[s]) manifest.files.push_back(Written(o));
      dataset::WriteManifest(manifest, *sets[s]);
    }
  }
  WaitForRanks(ranks);  // the manifests are there: the journals may go
  for (auto& journal : journals) journal->Remove();
  figures.seconds = NowSeconds() - start;
  if (rank == 0 && figures.removed > 0)
    LogInfo(fmt::format("prepare: removed {} objects of an earlier prepare of other settings",
                        figures.removed));
  return figures;
}

uint64_t CleanupObjects(const config::Sai3Config& config, std::vector<storage::Storage*>& sets,
                        dist::Communicator& ranks) {
  const int rank = ranks.Rank(), size = ranks.Size();
  uint64_t removed = 0;
  for (size_t s = 0; s < sets.size(); ++s) {
    storage::Storage& storage = *sets[s];
    const auto manifest = dataset::ReadManifest(storage);
    if (!manifest) continue;
    std::vector<uint64_t> mine;
    for (uint64_t i = 0; i < manifest->files.size(); ++i)
      if (Mine(i, rank, size)) mine.push_back(i);
    dataset::ParallelFor(mine.size(), std::max(1u, config.concurrency),
                         [&](uint64_t t) { storage.Remove(manifest->files[mine[t]].path); });
    removed += mine.size();
  }
  WaitForRanks(ranks);
  if (rank == 0)
    for (storage::Storage* storage : sets) {
      storage->Remove(dataset::kManifestName);
      if (storage->FileSize(dataset::kLockName)) storage->Remove(dataset::kLockName);
    }
  return removed;
}

}  // namespace trainbench::ops

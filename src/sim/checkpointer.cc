#include "sim/checkpointer.h"

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/json_fields.h"
#include "common/random.h"
#include "sim/llm_checkpoint.h"

namespace trainbench::sim {
namespace {

// A rank's record of a checkpoint it wrote, as its .json holds it.
struct CheckpointRecordFields {
  std::string writer = "trainbench";
  int ranks = 0, rank = 0;
  uint64_t epoch = 0, step = 0;
  uint64_t seed = 0;                                   // the bytes' pattern
  nlohmann::ordered_map<std::string, uint64_t> files;  // name -> bytes, in the order written
};
TB_JSON_FIELDS(CheckpointRecordFields, writer, ranks, rank, epoch, step, seed, files)

constexpr size_t kChunk = 4 << 20;  // 4 MiB per write or read call
}  // namespace

bool IsCheckpointRecord(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash != std::string::npos &&
         path.compare(slash + 1, std::strlen(kCheckpointRecordStem), kCheckpointRecordStem) == 0 &&
         path.ends_with(".json");
}

dataset::DatasetObjects FindCheckpointObjects(storage::Storage& storage) {
  const auto entries = storage.List("");
  std::set<std::string> named;
  dataset::DatasetObjects found;
  for (const auto& e : entries) {
    if (!IsCheckpointRecord(e.path)) continue;
    found.has_dataset = true;
    named.insert(e.path);
    const std::string folder = e.path.substr(0, e.path.rfind('/') + 1);
    try {
      const auto bytes = storage::ReadAll(storage, e.path);
      const auto record = nlohmann::json::parse(bytes.begin(), bytes.end());
      for (const auto& [name, size] : record.at("files").items()) named.insert(folder + name);
    } catch (const std::exception&) {
      // A record cut short names nothing: its checkpoint's files stay, listed as foreign.
    }
  }
  for (const auto& e : entries) {
    if (dataset::IsWriterTemporary(e.path)) continue;
    (named.count(e.path) ? found.ours : found.foreign).push_back(e);
  }
  return found;
}

CheckpointFiles CheckpointShardFiles(const config::WorkloadConfig& config, int rank, int ranks) {
  if (IsSizedTransformer(config.model)) {
    // DLIO's layout and names for a transformer (checkpoint.type does not apply: the
    // parallelism decides who writes what).
    const auto shard =
        RankShard(config.model, static_cast<uint64_t>(rank), static_cast<uint64_t>(ranks));
    const auto& p = config.model.parallelism;
    const std::string stem =
        fmt::format("zero_pp_rank_{}_mp_rank_{}", shard.data_rank, shard.model_rank);
    CheckpointFiles files;
    if (shard.model_bytes > 0 && (p.zero_stage == 1 || p.zero_stage == 2)) {
      // DeepSpeed's pipeline engine saves a file per layer; without a pipeline, one per
      // model-parallel rank.
      if (p.pipeline > 1) {
        for (size_t i = 0; i < shard.layer_bytes.size(); ++i)
          files.emplace_back(fmt::format("layer_{}-model_{}_model_states.pt", shard.first_layer + i,
                                         shard.model_rank),
                             shard.layer_bytes[i]);
      } else {
        files.emplace_back(fmt::format("model_{}_model_states.pt", shard.model_rank),
                           shard.model_bytes);
      }
    } else if (shard.model_bytes > 0) {
      files.emplace_back(stem + "_model_states.pt", shard.model_bytes);
    }
    if (shard.optimizer_bytes) files.emplace_back(stem + "_optim_states.pt", shard.optimizer_bytes);
    return files;
  }
  const uint64_t model = config.model.model_size_bytes;
  if (ranks <= 1) return {{"model.pt", model}, {"optimizer.pt", 2 * model}};
  if (config.checkpoint.type == config::CheckpointType::kRankZero) {
    if (rank != 0) return {};
    return {{"model.pt", model}, {"optimizer.pt", 2 * model}};
  }
  // Rank r's share of n bytes: they add up to n over the ranks.
  const auto share = [rank, ranks](uint64_t n) {
    const auto r = static_cast<uint64_t>(rank), k = static_cast<uint64_t>(ranks);
    return n / k + (r < n % k ? 1 : 0);
  };
  return {{fmt::format("model-rank{}.pt", rank), share(model)},
          {fmt::format("optimizer-rank{}.pt", rank), share(2 * model)}};
}

Checkpointer::Checkpointer(const config::WorkloadConfig& config, int rank, int ranks,
                           storage::Storage* storage)
    : config_(config),
      rank_(rank),
      ranks_(ranks),
      owned_storage_(storage ? nullptr
                             : storage::OpenStorage(config.checkpoint.checkpoint_folder,
                                                    config.storage.storage_options)),
      storage_(storage ? storage : owned_storage_.get()),
      buffer_(kChunk),
      read_buffer_(kChunk) {
  FillRandom(Mix(config.train.seed, 0xC4EC), 0, buffer_.data(), buffer_.size());
}

bool Checkpointer::MayWrite() const {
  return config_.checkpoint.num_checkpoints_write < 0 ||
         written_ < config_.checkpoint.num_checkpoints_write;
}

metrics::CheckpointRecord Checkpointer::Write(uint64_t epoch, uint64_t step) {
  metrics::CheckpointRecord r;
  r.operation = "write";
  r.epoch = epoch;
  r.step = step;
  // DLIO's folder name (DeepSpeed's global_step<N>, with the epoch).
  r.path = fmt::format("global_epoch{}_step{}", epoch, step);
  const auto files = CheckpointShardFiles(config_, rank_, ranks_);
  if (!files.empty()) WriteRecord(r, files);  // first: a killed write's files are ours too
  const double t0 = NowSeconds();
  r.started_at_s = t0;
  for (const auto& [name, bytes] : files) {
    auto out = storage_->Create(r.path + "/" + name);
    for (uint64_t left = bytes; left > 0;) {
      // Ctrl-C stops a multi-gigabyte checkpoint within one chunk; the object being
      // written is discarded (never committed), so no partial file has a final name.
      if (InterruptRequested()) throw Interrupted(InterruptReason());
      const size_t n = static_cast<size_t>(std::min<uint64_t>(left, buffer_.size()));
      out->Append(buffer_.data(), n);
      left -= n;
    }
    if (config_.checkpoint.fsync) out->Sync();
    out->Commit();
    r.bytes += bytes;
    ++r.files;
  }
  r.seconds = NowSeconds() - t0;
  ++written_;
  return r;
}

void Checkpointer::WriteRecord(const metrics::CheckpointRecord& r, const CheckpointFiles& files) {
  // What a later job needs to tell whether its ranks can read this back (checkpoint_records.h).
  CheckpointRecordFields record{.ranks = ranks_,
                                .rank = rank_,
                                .epoch = r.epoch,
                                .step = r.step,
                                .seed = config_.train.seed,
                                .files = {}};
  for (const auto& [name, bytes] : files) record.files[name] = bytes;
  const std::string text = nlohmann::ordered_json(record).dump() + "\n";
  // Atomic (Create/Commit), so a record is whole or absent, never cut short.
  auto out = storage_->Create(fmt::format("{}/{}{}.json", r.path, kCheckpointRecordStem, rank_));
  out->Append(text.data(), text.size());
  if (config_.checkpoint.fsync) out->Sync();
  out->Commit();
}

metrics::CheckpointRecord Checkpointer::Read(const metrics::CheckpointRecord& which,
                                             int shard_rank) {
  metrics::CheckpointRecord r = which;
  r.operation = "read";
  r.bytes = 0;
  r.files = 0;
  r.ranks = 1;
  const double t0 = NowSeconds();
  r.started_at_s = t0;
  for (const auto& [name, size_written] : CheckpointShardFiles(config_, shard_rank, ranks_)) {
    const std::string path = which.path + "/" + name;
    auto in = storage_->Open(path);
    const uint64_t size = in->Size();
    if (size != size_written)
      throw RuntimeError(fmt::format("checkpoint {} holds {} bytes, {} were written",
                                     storage_->Describe(path), size, size_written));
    for (uint64_t offset = 0; offset < size;) {
      if (InterruptRequested()) throw Interrupted(InterruptReason());
      // Whole chunks as written, so each compares with the one pattern every chunk holds.
      const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, size - offset));
      size_t got = 0;
      while (got < want) {
        const size_t n = in->ReadAt(offset + got, read_buffer_.data() + got, want - got);
        if (n == 0)
          throw RuntimeError(fmt::format("checkpoint {} ends at {} bytes, short of {}",
                                         storage_->Describe(path), offset + got, size));
        got += n;
      }
      // Byte-exact: a storage that returns the wrong bytes fails the read-back.
      if (std::memcmp(read_buffer_.data(), buffer_.data(), want) != 0)
        throw RuntimeError(fmt::format(
            "checkpoint {} differs from what was written in bytes {}..{}: the storage returned "
            "other data",
            storage_->Describe(path), offset, offset + want));
      offset += want;
    }
    r.bytes += size;
    ++r.files;
  }
  r.seconds = NowSeconds() - t0;
  return r;
}

}  // namespace trainbench::sim

#include "sim/checkpointer.h"

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/random.h"
#include "sim/llm_checkpoint.h"

namespace trainbench::sim {
namespace {
constexpr size_t kChunk = 4 << 20;  // 4 MiB per write or read call
}  // namespace

namespace {

bool IsCheckpointRecord(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash != std::string::npos &&
         path.compare(slash + 1, std::strlen(kCheckpointRecordStem), kCheckpointRecordStem) == 0 &&
         path.ends_with(".json");
}

}  // namespace

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

std::vector<std::pair<std::string, uint64_t>> Checkpointer::Files() const {
  if (IsSizedTransformer(config_.model)) {
    // DLIO's layout and names for a transformer (checkpoint.type does not apply: the
    // parallelism decides who writes what).
    const auto shard =
        RankShard(config_.model, static_cast<uint64_t>(rank_), static_cast<uint64_t>(ranks_));
    const auto& p = config_.model.parallelism;
    const std::string stem =
        fmt::format("zero_pp_rank_{}_mp_rank_{}", shard.data_rank, shard.model_rank);
    std::vector<std::pair<std::string, uint64_t>> files;
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
  const uint64_t model = config_.model.model_size_bytes;
  if (ranks_ <= 1) return {{"model.pt", model}, {"optimizer.pt", 2 * model}};
  if (config_.checkpoint.type == config::CheckpointType::kRankZero) {
    if (rank_ != 0) return {};
    return {{"model.pt", model}, {"optimizer.pt", 2 * model}};
  }
  // Rank r's share of n bytes: they add up to n over the ranks.
  const auto share = [this](uint64_t n) {
    const auto r = static_cast<uint64_t>(rank_), k = static_cast<uint64_t>(ranks_);
    return n / k + (r < n % k ? 1 : 0);
  };
  return {{fmt::format("model-rank{}.pt", rank_), share(model)},
          {fmt::format("optimizer-rank{}.pt", rank_), share(2 * model)}};
}

metrics::CheckpointRecord Checkpointer::Write(uint64_t epoch, uint64_t step) {
  metrics::CheckpointRecord r;
  r.operation = "write";
  r.epoch = epoch;
  r.step = step;
  // DLIO's folder name (DeepSpeed's global_step<N>, with the epoch).
  r.path = fmt::format("global_epoch{}_step{}", epoch, step);
  const auto files = Files();
  if (!files.empty()) WriteRecord(r.path, files);  // first: a killed write's files are ours too
  const double t0 = NowSeconds();
  for (const auto& [name, bytes] : files) {
    auto out = storage_->Create(r.path + "/" + name);
    for (uint64_t left = bytes; left > 0;) {
      // Ctrl-C stops a multi-gigabyte checkpoint within one chunk; the object being
      // written is discarded (never committed), so no partial file has a final name.
      if (InterruptRequested()) throw Interrupted();
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

void Checkpointer::WriteRecord(const std::string& folder,
                               const std::vector<std::pair<std::string, uint64_t>>& files) {
  nlohmann::ordered_json record;
  record["writer"] = "trainbench";
  for (const auto& [name, bytes] : files) record["files"][name] = bytes;
  const std::string text = record.dump() + "\n";
  auto out = storage_->Create(fmt::format("{}/{}{}.json", folder, kCheckpointRecordStem, rank_));
  out->Append(text.data(), text.size());
  if (config_.checkpoint.fsync) out->Sync();
  out->Commit();
}

metrics::CheckpointRecord Checkpointer::Read(const metrics::CheckpointRecord& written) {
  metrics::CheckpointRecord r = written;
  r.operation = "read";
  r.bytes = 0;
  r.files = 0;
  const double t0 = NowSeconds();
  for (const auto& [name, size_written] : Files()) {
    const std::string path = written.path + "/" + name;
    auto in = storage_->Open(path);
    const uint64_t size = in->Size();
    for (uint64_t offset = 0; offset < size;) {
      if (InterruptRequested()) throw Interrupted();
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
  if (r.bytes != written.bytes)
    throw RuntimeError(fmt::format("checkpoint {} holds {} bytes, {} were written",
                                   storage_->Describe(written.path), r.bytes, written.bytes));
  return r;
}

}  // namespace trainbench::sim

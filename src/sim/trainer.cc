#include "sim/trainer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "common/clock.h"
#include "common/error.h"
#include "common/random.h"
#include "common/units.h"
#include "loader/pieces.h"
#include "loader/read_scheduler.h"
#include "loader/sampler.h"
#include "metrics/io_characterization.h"
#include "metrics/process_stats.h"
#include "sim/checkpointer.h"

namespace trainbench::sim {
namespace {

std::vector<uint64_t> SamplesPerFile(const std::vector<formats::WrittenFile>& files) {
  std::vector<uint64_t> counts;
  counts.reserve(files.size());
  for (const auto& f : files) counts.push_back(f.num_samples);
  return counts;
}

class Run {
 public:
  Run(const config::WorkloadConfig& config, const loader::DatasetFiles& dataset,
      storage::Storage& storage, dist::Communicator& comm, const TrainerOptions& options)
      : c_(config), dataset_(dataset), storage_(storage), comm_(comm), options_(options) {
    all_files_ = dataset.train;
    all_files_.insert(all_files_.end(), dataset.eval.begin(), dataset.eval.end());
    std::vector<uint64_t> sizes;
    for (const auto& f : all_files_) sizes.push_back(f.size_bytes);
    io_ = std::make_unique<metrics::IoCharacterizer>(std::move(sizes));
    opened_.assign(all_files_.size(), false);
  }

  metrics::RunRecord Go() {
    const uint64_t local = options_.accelerators;
    const uint64_t total = local * static_cast<uint64_t>(comm_.Size());
    first_ = local * static_cast<uint64_t>(comm_.Rank());
    sampler_.accelerators = total;
    sampler_.batch_size = c_.reader.batch_size;
    sampler_.max_steps = c_.train.total_training_steps;
    sampler_.file_shuffle = c_.reader.file_shuffle;
    sampler_.sample_shuffle = c_.reader.sample_shuffle;
    sampler_.shuffle_size = c_.reader.shuffle_size;
    sampler_.file_access = c_.reader.file_access;
    sampler_.seed = c_.train.seed;
    sampler_.seed_change_epoch = c_.train.seed_change_epoch;
    sampler_.random_seed =
        std::random_device{}() ^
        static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());

    train_counts_ = SamplesPerFile(dataset_.train);
    eval_counts_ = SamplesPerFile(dataset_.eval);
    uint64_t train_samples = 0;
    for (auto n : train_counts_) train_samples += n;
    const uint64_t steps = TrainStepsPerEpoch(c_, dataset_, total);

    r_.workload = c_.workload_name;
    r_.accelerators = total;
    r_.ranks = static_cast<uint64_t>(comm_.Size());
    r_.epochs_planned = c_.train.epochs;
    r_.steps_per_epoch = steps;
    r_.batch_size = c_.reader.batch_size;
    r_.train_files = dataset_.train.size();
    r_.train_samples = train_samples;
    r_.dataset_bytes = dataset_.TotalBytes();
    r_.train_bytes = dataset_.TrainBytes();
    r_.random_shuffle_seed = sampler_.random_seed;
    r_.nominal_sample_bytes = c_.dataset.record_length_bytes;
    r_.barrier = options_.barrier;
    r_.host_memory_bytes = metrics::HostMemoryBytes();
    r_.io_before = metrics::ReadProcessIo();
    const double cpu0 = metrics::ProcessCpuSeconds();
    const double t0 = NowSeconds();

    loader::ReaderOptions ro;
    ro.engine = options_.engine;
    ro.threads = IoThreads(c_, options_);
    ro.depth = IoDepth(c_, options_);
    ro.transfer_size = c_.reader.transfer_size;
    ro.direct = c_.reader.odirect;
    ro.hdf5 = hdf5_ = c_.dataset.format == "hdf5";  // until formats/ reads its samples
    ro.reads_per_accelerator = std::max<uint64_t>(1, c_.reader.read_threads);
    ro.prefetch_batches = c_.reader.prefetch_size;
    const bool uring = ro.engine == loader::ReadEngine::kUring && !ro.hdf5;
    r_.read_engine = ro.hdf5 ? std::string("libhdf5 hyperslab")
                     : uring ? fmt::format("io_uring, depth {} per thread", ro.depth)
                             : std::string("pread");
    if (ro.direct) r_.read_engine += ", O_DIRECT";
    r_.io_threads = ro.threads;
    scheduler_ = std::make_unique<loader::ReadScheduler>(storage_, &all_files_, ro, local);
    if (c_.workflow.checkpoint) checkpointer_ = std::make_unique<Checkpointer>(c_);

    try {
      Train(steps);
      if (r_.complete && checkpointer_ && c_.checkpoint.num_checkpoints_read > 0) ReadBack();
    } catch (const RuntimeError& e) {
      // A checkpoint that cannot be written or read back: keep what was measured.
      scheduler_->Drain();
      r_.complete = false;
      r_.stop_reason = e.what();
    }

    r_.read_latency_ns = scheduler_->Latencies();
    scheduler_.reset();
    r_.io = io_->Counters();
    r_.run_seconds = NowSeconds() - t0;
    r_.cpu_seconds = metrics::ProcessCpuSeconds() - cpu0;
    r_.peak_rss_bytes = metrics::PeakResidentBytes();
    r_.io_after = metrics::ReadProcessIo();
    return std::move(r_);
  }

 private:
  void Log(const std::string& line) {
    if (options_.log) options_.log(line);
  }

  bool Stop(const PhaseOutcome& out) {
    if (out.interrupted) {
      r_.complete = false;
      r_.stop_reason = "interrupted";
    } else if (out.failed) {
      r_.complete = false;
      r_.stop_reason = scheduler_->Error().value_or("a read failed");
    }
    return !r_.complete;
  }

  // Counts the reads of one batch (Darshan's view) and the bytes it asked for; called as
  // each accelerator takes a batch, so the order is each accelerator's read order.
  void CharacterizeBatch(const std::vector<loader::SampleRef>& plan, uint64_t step, uint64_t batch,
                         uint32_t offset, uint64_t& requested) {
    const uint64_t piece = loader::PieceSize(c_.reader.transfer_size, c_.reader.odirect);
    const size_t end = std::min<size_t>(plan.size(), (step + 1) * batch);
    for (size_t i = step * batch; i < end; ++i) {
      const uint32_t file = plan[i].file + offset;
      if (!opened_[file]) {
        opened_[file] = true;
        io_->OnOpen();
      }
      const auto extent = loader::ExtentOf(all_files_[file], plan[i].sample);
      requested += extent.length;
      if (hdf5_) {
        io_->OnRead(file, extent.offset, extent.length);
        continue;
      }
      loader::ForEachPiece(extent.offset, extent.length, piece, c_.reader.odirect,
                           [&](uint64_t o, uint64_t n) { io_->OnRead(file, o, n); });
    }
  }

  PhaseSpec Spec(const char* kind, uint64_t epoch, const auto& plans, uint32_t offset,
                 uint64_t batch, uint64_t steps, const config::TimeDistribution& compute) {
    PhaseSpec s;
    s.kind = kind;
    s.epoch = epoch;
    s.epochs = c_.train.epochs;
    s.plans = &plans;
    s.file_offset = offset;
    s.batch_size = batch;
    s.steps = steps;
    s.barrier = options_.barrier;
    s.compute = compute;
    s.seed = Mix(Mix(c_.train.seed, epoch), kind[0]);
    s.first_accelerator = first_;
    s.exclude_start_steps = c_.metric.exclude_start_steps;
    s.progress = options_.progress;
    s.on_batch = [this, &plans, batch, offset](size_t a, uint64_t step) {
      CharacterizeBatch(plans[a], step, batch, offset, phase_requested_);
    };
    phase_requested_ = 0;
    return s;
  }

  void Train(uint64_t steps) {
    const bool in_memory = c_.reader.read_type == config::ReadType::kMemory;
    if (in_memory) {
      // read_type memory: every accelerator reads its share once, before training.
      loader::SamplerOptions once = sampler_;
      once.file_shuffle = once.sample_shuffle = config::Shuffle::kOff;
      const auto plans = loader::PlanEpoch(train_counts_, once, 1, first_, options_.accelerators);
      auto spec = Spec("preload", 1, plans, 0, c_.reader.batch_size, steps, {});
      const auto out = RunPhase(spec, scheduler_.get(), r_.data_wait_ns);
      auto rec = out.record;
      rec.requested_bytes = phase_requested_;
      rec.start_s = 0;
      r_.preloads.push_back(rec);
      Log(fmt::format("preload: {} samples, {} in {:.2f} s", rec.samples,
                      FormatBytes(static_cast<double>(rec.bytes_read)), rec.duration_s));
      if (Stop(out)) return;
    }
    const double run_start = NowSeconds();
    uint64_t global_step = 0;
    for (uint64_t epoch = 1; epoch <= c_.train.epochs; ++epoch) {
      const auto plans =
          loader::PlanEpoch(train_counts_, sampler_, epoch, first_, options_.accelerators);
      auto spec =
          Spec("train", epoch, plans, 0, c_.reader.batch_size, steps, c_.train.computation_time);
      spec.io = !in_memory;
      const int64_t every = c_.checkpoint.steps_between_checkpoints;
      if (checkpointer_ && every > 0) {
        spec.sync_step = [&, epoch](uint64_t step, bool at_barrier) {
          const uint64_t g = global_step + step + 1;
          if (g % static_cast<uint64_t>(every) != 0 || !checkpointer_->MayWrite()) return false;
          if (at_barrier) WriteCheckpoint(epoch, g);
          return true;
        };
      }
      comm_.Barrier();
      const double start = NowSeconds() - run_start;
      const auto out = RunPhase(spec, scheduler_.get(), r_.data_wait_ns);
      auto rec = out.record;
      rec.start_s = start;
      rec.requested_bytes = phase_requested_;
      global_step += rec.steps;
      r_.epochs.push_back(rec);
      Log(fmt::format("epoch {}/{}: {} steps, {:.1f} samples/s, {:.1f} MB/s, AU {:.2f}%{}", epoch,
                      c_.train.epochs, rec.steps, rec.SamplesPerSecond(),
                      rec.BytesPerSecond() / kMB, rec.au_percentage,
                      rec.complete ? "" : " (incomplete)"));
      if (Stop(out)) return;
      if (EvalDue(epoch) && !Evaluate(epoch)) return;
      if (checkpointer_ && c_.checkpoint.steps_between_checkpoints <= 0 && CheckpointDue(epoch) &&
          checkpointer_->MayWrite())
        WriteCheckpoint(epoch, global_step);
    }
  }

  bool EvalDue(uint64_t epoch) const {
    if (!c_.workflow.evaluation || dataset_.eval.empty()) return false;
    if (epoch < c_.evaluation.eval_after_epoch) return false;
    const uint64_t every = std::max<uint64_t>(1, c_.evaluation.epochs_between_evals);
    return (epoch - c_.evaluation.eval_after_epoch) % every == 0;
  }

  bool CheckpointDue(uint64_t epoch) const {
    if (epoch < c_.checkpoint.checkpoint_after_epoch) return false;
    const uint64_t every = std::max<uint64_t>(1, c_.checkpoint.epochs_between_checkpoints);
    return (epoch - c_.checkpoint.checkpoint_after_epoch) % every == 0;
  }

  bool Evaluate(uint64_t epoch) {
    loader::SamplerOptions o = sampler_;
    o.batch_size = std::max<uint64_t>(1, c_.reader.batch_size_eval);
    o.max_steps = -1;
    o.file_shuffle = o.sample_shuffle = config::Shuffle::kOff;
    uint64_t samples = 0;
    for (auto n : eval_counts_) samples += n;
    const uint64_t steps = loader::StepsPerEpoch(samples, o);
    if (steps == 0) {
      Log(
          fmt::format("evaluation skipped: {} eval samples are fewer than batch_size_eval x "
                      "accelerators",
                      samples));
      return true;
    }
    const auto plans = loader::PlanEpoch(eval_counts_, o, epoch, first_, options_.accelerators);
    const auto offset = static_cast<uint32_t>(dataset_.train.size());
    auto spec = Spec("eval", epoch, plans, offset, o.batch_size, steps, c_.evaluation.eval_time);
    const auto out = RunPhase(spec, scheduler_.get(), r_.data_wait_ns);
    auto rec = out.record;
    rec.requested_bytes = phase_requested_;
    r_.evals.push_back(rec);
    Log(fmt::format("eval after epoch {}: {} steps in {:.2f} s, {:.1f} samples/s, AU {:.2f}%",
                    epoch, rec.steps, rec.duration_s, rec.SamplesPerSecond(), rec.au_percentage));
    return !Stop(out);
  }

  void WriteCheckpoint(uint64_t epoch, uint64_t step) {
    const auto rec = checkpointer_->Write(epoch, step);
    r_.checkpoints.push_back(rec);
    Log(fmt::format("checkpoint {} written: {} in {:.3f} s ({:.3f} GB/s)", rec.path,
                    FormatBytes(static_cast<double>(rec.bytes)), rec.seconds,
                    rec.seconds > 0 ? static_cast<double>(rec.bytes) / rec.seconds / kGB : 0));
  }

  void ReadBack() {
    std::vector<metrics::CheckpointRecord> written;
    for (const auto& c : r_.checkpoints)
      if (c.operation == "write") written.push_back(c);
    const size_t n =
        std::min<size_t>(written.size(), static_cast<size_t>(c_.checkpoint.num_checkpoints_read));
    for (size_t i = written.size() - n; i < written.size(); ++i) {
      const auto rec = checkpointer_->Read(written[i]);
      r_.checkpoints.push_back(rec);
      Log(fmt::format("checkpoint {} read: {} in {:.3f} s ({:.3f} GB/s)", rec.path,
                      FormatBytes(static_cast<double>(rec.bytes)), rec.seconds,
                      rec.seconds > 0 ? static_cast<double>(rec.bytes) / rec.seconds / kGB : 0));
    }
  }

  const config::WorkloadConfig& c_;
  const loader::DatasetFiles& dataset_;
  storage::Storage& storage_;
  dist::Communicator& comm_;
  const TrainerOptions& options_;
  std::vector<formats::WrittenFile> all_files_;
  std::unique_ptr<metrics::IoCharacterizer> io_;
  std::vector<bool> opened_;
  bool hdf5_ = false;             // samples read through libhdf5: one read each
  uint64_t phase_requested_ = 0;  // bytes of the batches the current phase took
  loader::SamplerOptions sampler_;
  std::vector<uint64_t> train_counts_, eval_counts_;
  uint64_t first_ = 0;
  std::unique_ptr<loader::ReadScheduler> scheduler_;
  std::unique_ptr<Checkpointer> checkpointer_;
  metrics::RunRecord r_;
};

}  // namespace

uint64_t TrainStepsPerEpoch(const config::WorkloadConfig& config,
                            const loader::DatasetFiles& dataset, uint64_t accelerators) {
  uint64_t samples = 0;
  for (const auto& f : dataset.train) samples += f.num_samples;
  loader::SamplerOptions o;
  o.accelerators = accelerators;
  o.batch_size = config.reader.batch_size;
  o.max_steps = config.train.total_training_steps;
  const uint64_t steps = loader::StepsPerEpoch(samples, o);
  if (steps == 0)
    throw UsageError(fmt::format(
        "the dataset has {} train samples, fewer than reader.batch_size ({}) x accelerators "
        "({}): no step can run; lower the batch size or accelerators, or add files",
        samples, config.reader.batch_size, accelerators));
  return steps;
}

unsigned IoThreads(const config::WorkloadConfig& config, const TrainerOptions& options) {
  if (options.io_threads > 0) return options.io_threads;
  const uint64_t in_flight =
      options.accelerators * std::max<uint64_t>(1, config.reader.read_threads);
  const uint64_t cap = options.engine == loader::ReadEngine::kUring
                           ? metrics::HostCpuCount()
                           : std::min<uint64_t>(64, 4ull * metrics::HostCpuCount());
  return static_cast<unsigned>(std::max<uint64_t>(1, std::min(in_flight, cap)));
}

unsigned IoDepth(const config::WorkloadConfig& config, const TrainerOptions& options) {
  if (options.engine != loader::ReadEngine::kUring) return 1;
  const uint64_t in_flight =
      options.accelerators * std::max<uint64_t>(1, config.reader.read_threads);
  const uint64_t threads = IoThreads(config, options);
  return static_cast<unsigned>(std::clamp<uint64_t>((in_flight + threads - 1) / threads, 1, 256));
}

metrics::RunRecord RunTraining(const config::WorkloadConfig& config,
                               const loader::DatasetFiles& dataset, storage::Storage& storage,
                               dist::Communicator& communicator, const TrainerOptions& options) {
  Run run(config, dataset, storage, communicator, options);
  return run.Go();
}

}  // namespace trainbench::sim

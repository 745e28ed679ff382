#include "sim/emulated_training.h"

#include <fmt/format.h>

#include <future>
#include <optional>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/random.h"
#include "common/units.h"
#include "loader/read_scheduler.h"
#include "metrics/io_characterization.h"
#include "metrics/process_stats.h"
#include "sim/cache_method.h"
#include "sim/checkpointer.h"
#include "sim/run_record_start.h"
#include "sim/run_timeseries.h"
#include "sim/sampling.h"
#include "sim/schedule.h"

namespace trainbench::sim {
namespace {

class EmulatedRun {
 public:
  EmulatedRun(const config::WorkloadConfig& config, const dataset::DatasetFiles& dataset,
              storage::Storage& storage, dist::Communicator& comm, const EmulationOptions& options)
      : c_(config), dataset_(dataset), storage_(storage), comm_(comm), options_(options) {
    io_ = std::make_unique<metrics::IoCharacterizer>(dataset.files.Sizes());
  }

  metrics::RunRecord Go() {
    const uint64_t local = options_.accelerators;
    const uint64_t total = options_.total_accelerators ? options_.total_accelerators : local;
    first_ = options_.first_accelerator;
    const uint64_t random_seed = options_.random_shuffle_seed.value_or(DrawRandomShuffleSeed());
    sampler_ = TrainSampling(c_, total, random_seed);
    train_counts_ = dataset_.TrainSampleCounts();
    eval_counts_ = dataset_.EvalSampleCounts();
    const uint64_t steps = TrainStepsPerEpoch(c_, dataset_, total);

    r_ = StartRunRecord(
        c_, dataset_,
        {total, static_cast<uint64_t>(comm_.Size()), steps, random_seed, options_.barrier});
    r_.hosts = {comm_.Host()};
    r_.page_cache_applies = storage_.LocalPath("").has_value();
    r_.io_before = metrics::ReadProcessIo();
    const double cpu0 = metrics::ProcessCpuSeconds();
    const metrics::HostCpuTimes host0 = metrics::ReadHostCpuTimes();
    const double t0 = NowSeconds();
    r_.started_at_s = t0;

    reads_ = SetUpReads(c_, local, options_.reads, storage_, dataset_.files);
    r_.read_engine = reads_.description;
    r_.io_threads = reads_.reader.threads;
    r_.io_depth = reads_.reader.depth;
    scheduler_ = std::make_unique<loader::ReadScheduler>(*reads_.engine, &dataset_.files,
                                                         reads_.reader, local, io_.get());
    if (c_.workflow.checkpoint)
      checkpointer_ = std::make_unique<Checkpointer>(c_, comm_.Rank(), comm_.Size(),
                                                     options_.checkpoint_storage);
    PhaseEnded();
    std::unique_ptr<metrics::IntervalSampler> timeseries;
    if (options_.interval_s > 0)
      timeseries =
          StartTimeseries(options_.interval_s, t0, local, *scheduler_, live_, options_.on_row);

    try {
      Train(steps);
      if (r_.complete && checkpointer_ && c_.checkpoint.num_checkpoints_read > 0) ReadBack();
    } catch (const RuntimeError& e) {
      // A checkpoint that cannot be written or read back: keep what was measured.
      scheduler_->Drain();
      StopHere(e.what());
    }

    live_.SetPhase(metrics::LivePhase::kDone, live_.Epoch());
    if (timeseries) {
      timeseries->Stop();
      r_.timeseries = timeseries->TakeRows();
      r_.timeseries_cpu_seconds = timeseries->CpuSeconds();
      r_.timeseries_interval_s = options_.interval_s;
    }
    r_.read_latency_ns = scheduler_->Latencies();
    if (checkpointer_)  // the checkpoint storage's requests, named apart from the dataset's
      for (auto& [op, latency] : checkpointer_->StorageLatencies())
        r_.storage_latency_ns["checkpoint_" + op] = std::move(latency);
    scheduler_.reset();  // its loops hand over the reads they recorded as they stop
    io_->OnOpens(reads_.engine->Opens());
    r_.io = io_->Counters();
    r_.run_seconds = NowSeconds() - t0;
    r_.cpu_seconds = metrics::ProcessCpuSeconds() - cpu0;
    r_.host_busy_share = metrics::HostBusyShare(host0, metrics::ReadHostCpuTimes());
    r_.peak_rss_bytes = metrics::PeakResidentBytes();
    r_.io_after = metrics::ReadProcessIo();
    std::optional<storage::ResidencyCounts> residency;
    if (reads_.residency) residency = reads_.residency->Counts();
    r_.cache = CacheRecordOf(reads_.cache, r_.io_before, r_.io_after, residency);
    return std::move(r_);
  }

 private:
  void Log(const std::string& line) {
    if (options_.log) options_.log(line);
  }

  void PhaseEnded() {
    if (options_.on_phase) options_.on_phase(r_);
  }

  bool Stop(const PhaseOutcome& out) {
    if (out.interrupted) {
      StopHere(InterruptReason());
    } else if (out.failed) {
      StopHere(scheduler_->Error().value_or("a read failed"));
    } else if (!out.peer_failure.empty()) {
      StopForPeer(out.peer_failure);
    }
    return !r_.complete;
  }

  // This rank stops by itself, and tells the others.
  void StopHere(const std::string& reason) {
    r_.complete = false;
    r_.stop_reason = reason;
    comm_.ReportFailure(reason);
  }

  void StopForPeer(const std::string& notice) {
    r_.complete = false;
    r_.stop_reason = notice;
    r_.stopped_by_peer = true;
  }

  // Every rank starts the phase together; false (and the run stops) when one stopped.
  bool StartTogether() {
    if (comm_.Barrier()) return true;
    if (InterruptRequested())
      StopHere(InterruptReason());
    else
      StopForPeer(comm_.PeerFailure().value_or("another rank stopped"));
    return false;
  }

  PhaseSpec Spec(const char* kind, uint64_t epoch, const auto& plans, uint32_t offset,
                 uint64_t batch, uint64_t steps, const config::TimeDistribution& compute,
                 bool sequential) {
    PhaseSpec s;
    s.kind = kind;
    s.epoch = epoch;
    s.epochs = c_.train.epochs;
    s.plans = &plans;
    s.sequential = sequential;
    s.file_offset = offset;
    s.batch_size = batch;
    s.steps = steps;
    s.barrier = options_.barrier;
    s.compute = compute;
    s.seed = Mix(Mix(c_.train.seed, epoch), kind[0]);
    s.first_accelerator = first_;
    s.exclude_start_steps = c_.metric.exclude_start_steps;
    s.progress = options_.progress;
    s.ranks = &comm_;
    s.live = &live_;
    // The bytes the accelerators asked for, counted as each takes its batch, so an
    // interrupted phase counts only what it used.
    s.on_batch = [this, &plans, batch, offset, sequential](size_t a, uint64_t step) {
      phase_requested_ += BatchBytes(plans[a], step, batch, dataset_.files, offset, sequential);
    };
    phase_requested_ = 0;
    // Each phase is a pass over its files: what the page cache holds is looked at afresh.
    if (reads_.residency) reads_.residency->NewPass();
    return s;
  }

  void Train(uint64_t steps) {
    const bool in_memory = c_.reader.read_type == config::ReadType::kMemory;
    if (in_memory) {
      // read_type memory: every accelerator reads its share once, before training.
      const loader::SamplerOptions preload = PreloadSampling(sampler_);
      const auto plans =
          loader::PlanEpoch(train_counts_, preload, 1, first_, options_.accelerators);
      auto spec = Spec("preload", 1, plans, 0, c_.reader.batch_size, steps, {},
                       loader::SequentialWithinFiles(preload));
      if (!StartTogether()) return;
      const auto out = RunPhase(spec, scheduler_.get(), r_.data_wait_ns);
      r_.compute_late_ns.Merge(out.compute_late_ns);
      auto rec = out.record;
      rec.requested_bytes = phase_requested_;
      rec.start_s = 0;
      r_.preloads.push_back(rec);
      Log(fmt::format("preload: {} samples, {} in {:.2f} s", rec.samples,
                      FormatBytes(static_cast<double>(rec.bytes_read)), rec.duration_s));
      PhaseEnded();
      if (Stop(out)) return;
    }
    const double run_start = NowSeconds();
    uint64_t global_step = 0;
    // Two plan buffers, reused (millions of entries an epoch for dlrm): the next epoch is
    // planned on another thread while this one reads, so planning does not hold up reads
    // between epochs. The future is waited for on every way out of the loop. Where every
    // epoch's plan is the same (no shuffle moves with the epoch), epoch 1's serves them all:
    // refilling dlrm's 4.2 M entries each epoch was a sixth of a cached run's CPU.
    const bool same_plan = loader::SamePlanEveryEpoch(sampler_);
    auto plan_into = [this](uint64_t epoch) {
      loader::PlanEpochInto(train_counts_, sampler_, epoch, first_, options_.accelerators,
                            train_plans_[epoch % 2]);
    };
    std::future<void> next_plan;
    for (uint64_t epoch = 1; epoch <= c_.train.epochs; ++epoch) {
      if (next_plan.valid())
        next_plan.get();
      else if (epoch == 1 || !same_plan)
        plan_into(epoch);
      if (epoch < c_.train.epochs && !same_plan)
        next_plan = std::async(std::launch::async, plan_into, epoch + 1);
      const auto& plans = train_plans_[same_plan ? 1 : epoch % 2];
      auto spec = Spec("train", epoch, plans, 0, c_.reader.batch_size, steps,
                       c_.train.computation_time, loader::SequentialWithinFiles(sampler_));
      spec.io = !in_memory;
      if (checkpointer_ && c_.checkpoint.steps_between_checkpoints > 0) {
        spec.sync_step = [&, epoch](uint64_t step, bool at_barrier) {
          const uint64_t g = global_step + step + 1;
          if (!StepCheckpointDue(c_, g) || !checkpointer_->MayWrite()) return false;
          if (at_barrier) WriteCheckpoint(epoch, g);
          return true;
        };
      }
      if (!StartTogether()) return;
      const double start = NowSeconds() - run_start;
      const auto out = RunPhase(spec, scheduler_.get(), r_.data_wait_ns);
      r_.compute_late_ns.Merge(out.compute_late_ns);
      auto rec = out.record;
      rec.start_s = start;
      rec.requested_bytes = phase_requested_;
      global_step += rec.steps;
      r_.epochs.push_back(rec);
      Log(fmt::format("epoch {}/{}: {} steps, {:.1f} samples/s, {:.1f} MB/s, AU {:.2f}%{}", epoch,
                      c_.train.epochs, rec.steps, rec.SamplesPerSecond(),
                      rec.BytesPerSecond() / kMB, rec.au_percentage,
                      rec.complete ? "" : " (incomplete)"));
      PhaseEnded();
      if (Stop(out)) return;
      if (EvalDue(c_, epoch, dataset_.NumEval() > 0) && !Evaluate(epoch)) return;
      if (checkpointer_ && EpochCheckpointDue(c_, epoch) && checkpointer_->MayWrite())
        WriteCheckpoint(epoch, global_step);
    }
  }

  bool Evaluate(uint64_t epoch) {
    const loader::SamplerOptions o = EvalSampling(sampler_, c_);
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
    const auto offset = static_cast<uint32_t>(dataset_.num_train);
    if (!StartTogether()) return false;
    auto spec = Spec("eval", epoch, plans, offset, o.batch_size, steps, c_.evaluation.eval_time,
                     loader::SequentialWithinFiles(o));
    const auto out = RunPhase(spec, scheduler_.get(), r_.data_wait_ns);
    r_.compute_late_ns.Merge(out.compute_late_ns);
    auto rec = out.record;
    rec.requested_bytes = phase_requested_;
    r_.evals.push_back(rec);
    Log(fmt::format("eval after epoch {}: {} steps in {:.2f} s, {:.1f} samples/s, AU {:.2f}%",
                    epoch, rec.steps, rec.duration_s, rec.SamplesPerSecond(), rec.au_percentage));
    PhaseEnded();
    return !Stop(out);
  }

  void WriteCheckpoint(uint64_t epoch, uint64_t step) {
    const metrics::LivePhase was = live_.Phase();
    live_.SetPhase(metrics::LivePhase::kCheckpoint, epoch);
    const auto rec = checkpointer_->Write(epoch, step);
    live_.SetPhase(was, epoch);
    if (rec.files == 0) return;  // another rank writes it
    r_.checkpoints.push_back(rec);
    Log(fmt::format("checkpoint {} written: {} in {:.3f} s ({:.3f} GB/s)", rec.path,
                    FormatBytes(static_cast<double>(rec.bytes)), rec.seconds,
                    rec.seconds > 0 ? static_cast<double>(rec.bytes) / rec.seconds / kGB : 0));
  }

  void ReadBack() {
    live_.SetPhase(metrics::LivePhase::kCheckpoint, live_.Epoch());
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
  const dataset::DatasetFiles& dataset_;
  storage::Storage& storage_;
  dist::Communicator& comm_;
  const EmulationOptions& options_;
  std::unique_ptr<metrics::IoCharacterizer> io_;
  uint64_t phase_requested_ = 0;  // bytes of the batches the current phase took
  loader::SamplerOptions sampler_;
  std::vector<std::vector<loader::SampleRef>> train_plans_[2];  // this epoch's and the next's
  std::span<const uint32_t> train_counts_, eval_counts_;        // the dataset's
  uint64_t first_ = 0;
  ReadSetup reads_;
  std::unique_ptr<loader::ReadScheduler> scheduler_;
  std::unique_ptr<Checkpointer> checkpointer_;
  metrics::LiveCounters live_;  // what the step loop publishes for the time series
  metrics::RunRecord r_;
};

}  // namespace

metrics::RunRecord RunEmulatedTraining(const config::WorkloadConfig& config,
                                       const dataset::DatasetFiles& dataset,
                                       storage::Storage& storage, dist::Communicator& communicator,
                                       const EmulationOptions& options) {
  EmulatedRun run(config, dataset, storage, communicator, options);
  return run.Go();
}

}  // namespace trainbench::sim

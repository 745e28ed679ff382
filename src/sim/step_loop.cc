#include "sim/step_loop.h"

#include <algorithm>
#include <map>
#include <queue>
#include <thread>

#include "common/clock.h"
#include "common/interrupt.h"
#include "common/random.h"
#include "metrics/au.h"
#include "sim/compute_time.h"

namespace trainbench::sim {
namespace {

enum class State { kWaiting, kComputing, kBarrier, kDone };

struct Accelerator {
  State state = State::kWaiting;
  uint64_t step = 0;
  double step_start = 0;
  double compute_s = 0;
  double compute_end = 0;
  ComputeTime model;
  metrics::AuAccumulator au;
  Accelerator(const config::TimeDistribution& d, uint64_t seed, uint64_t exclude)
      : model(d, seed), au(exclude) {}
};

struct Timer {
  double deadline;
  size_t accelerator;
  bool operator>(const Timer& other) const { return deadline > other.deadline; }
};

metrics::LivePhase PhaseOf(const char* kind) {
  const std::string k = kind;
  if (k == "eval") return metrics::LivePhase::kEval;
  if (k == "preload") return metrics::LivePhase::kPreload;
  return metrics::LivePhase::kTrain;
}

// How often progress is reported: a live view's step count is at most this stale.
constexpr double kProgressEvery = 0.25;
constexpr double kMaxSleep = 0.05;  // also how quickly Ctrl-C is noticed
// How often a step all-reduce over ranks is polled: first a fraction of a short step, then
// less often the longer the other ranks take (a step released late is still released at
// the emulated time the last rank finished, so polling slower costs CPU nothing and
// accuracy little).
constexpr double kStepPollFirst = 0.00005;
constexpr double kStepPollMost = 0.001;
// With instant steps (no compute, nothing holding a step) the reads move the window
// themselves and wake the loop only at the phase's last batch: the loop counts the steps
// read since it last looked this often, so the live counters are at most this stale.
constexpr double kInstantStepPoll = 0.005;

class Loop {
 public:
  Loop(const PhaseSpec& spec, loader::ReadScheduler* scheduler, metrics::Histogram& wait)
      : spec_(spec),
        scheduler_(scheduler),
        wait_ns_(wait),
        ranks_(spec.ranks && spec.ranks->Size() > 1 ? spec.ranks : nullptr),
        live_(spec.live) {
    const size_t n = spec.plans->size();
    accelerators_.reserve(n);
    for (size_t a = 0; a < n; ++a)
      accelerators_.emplace_back(spec.compute, Mix(spec.seed, spec.first_accelerator + a),
                                 spec.exclude_start_steps);
    waiting_.reserve(n);
    scratch_.reserve(n);
  }

  PhaseOutcome Run() {
    PhaseOutcome out;
    const double start = NowSeconds();
    start_ = start;
    const uint64_t bytes_before = scheduler_ ? scheduler_->BytesRead() : 0;
    instant_ = scheduler_ && spec_.io && StepsTakeNoTime();
    if (scheduler_ && spec_.io && spec_.steps > 0)
      scheduler_->StartPhase(spec_.plans, spec_.file_offset, spec_.batch_size, spec_.sequential,
                             instant_ ? spec_.steps : 0);
    if (live_) live_->SetPhase(PhaseOf(spec_.kind), spec_.epoch);
    for (size_t a = 0; a < accelerators_.size(); ++a) {
      accelerators_[a].step_start = start;
      if (spec_.steps == 0) {
        accelerators_[a].state = State::kDone;
        ++done_;
      } else {
        waiting_.push_back(a);
        if (live_) live_->StartWait(start);
      }
    }
    // Progress at the phase's start and end too, so a view does not show the last phase's
    // step for a second.
    if (spec_.progress) ReportProgress(start, bytes_before);
    double next_progress = start + kProgressEvery;
    while (done_ < accelerators_.size()) {
      if (InterruptRequested()) {
        out.interrupted = true;
        break;
      }
      if (scheduler_ && scheduler_->Error()) {
        out.failed = true;
        break;
      }
      if (ranks_) {
        if (auto failure = ranks_->PeerFailure(); failure || peer_stopped_) {
          out.peer_failure = failure.value_or("another rank stopped");
          break;
        }
        double latest = 0;
        if (step_pending_ && ranks_->StepDone(latest)) {
          step_poll_ = kStepPollFirst;
          step_pending_ = false;
          // The step ends when the last rank's last accelerator finished it, as each rank
          // measures from the phase start that the barrier before the phase aligned.
          Release(pending_step_, std::max(pending_latest_, start_ + latest));
        }
      }
      double now = NowSeconds();
      while (!timers_.empty() && timers_.top().deadline <= now) {
        const Timer t = timers_.top();
        timers_.pop();
        out.compute_late_ns.Record(static_cast<uint64_t>((now - t.deadline) * 1e9));
        FinishCompute(t.accelerator, t.deadline);
      }
      CheckWaiting();
      if (wake_readers_ && scheduler_ && spec_.io) scheduler_->WakeReaders();
      wake_readers_ = false;
      if (done_ == accelerators_.size()) break;
      now = NowSeconds();
      if (spec_.progress && now >= next_progress) {
        ReportProgress(now, bytes_before);
        next_progress = now + kProgressEvery;
      }
      if (!timers_.empty() && timers_.top().deadline <= now) continue;
      // A step that just ended has its next batch unchecked (it may be read already):
      // look before sleeping, or a batch that is ready would wait for the timeout.
      if (stepped_) {
        stepped_ = false;
        continue;
      }
      double deadline = now + kMaxSleep;
      if (step_pending_) {
        deadline = now + step_poll_;
        step_poll_ = std::min(kStepPollMost, 2 * step_poll_);
      }
      if (!timers_.empty()) deadline = std::min(deadline, timers_.top().deadline);
      if (instant_) deadline = std::min(deadline, now + kInstantStepPoll);
      if (!waiting_.empty() && scheduler_)
        scheduler_->Wait(deadline);
      else
        std::this_thread::sleep_for(std::chrono::duration<double>(deadline - now));
    }
    if (scheduler_ && spec_.io) scheduler_->Drain();
    const double end = NowSeconds();
    if (spec_.progress) ReportProgress(end, bytes_before);
    if (live_)  // a phase that stopped early leaves accelerators waiting: their wait ends here
      for (const auto& acc : accelerators_)
        if (acc.state == State::kWaiting) live_->EndWait(acc.step_start, end - acc.step_start);

    auto& r = out.record;
    r.kind = spec_.kind;
    r.epoch = spec_.epoch;
    r.duration_s = end - start;
    r.complete = !out.interrupted && !out.failed && out.peer_failure.empty();
    uint64_t min_steps = UINT64_MAX;
    std::vector<metrics::AuAccumulator> au;
    for (const auto& acc : accelerators_) {
      min_steps = std::min(min_steps, acc.au.Steps());
      r.samples += acc.au.Steps() * spec_.batch_size;
      au.push_back(acc.au);
    }
    r.steps = accelerators_.empty() ? 0 : min_steps;
    r.au_percentage = metrics::AuPercentage(au);
    r.au_min_percentage = accelerators_.empty() ? 0 : 100;
    for (const auto& acc : accelerators_) {
      r.compute_s += acc.au.CountedCompute();
      r.counted_s += acc.au.CountedElapsed();
      r.au_min_percentage = std::min(r.au_min_percentage, metrics::AuPercentage({acc.au}));
    }
    r.data_wait_s = data_wait_s_;
    r.bytes_read = scheduler_ && spec_.io ? scheduler_->BytesRead() - bytes_before : 0;
    return out;
  }

 private:
  // A step then ends the moment its batch is ready (its start): with no compute time and
  // no barrier across accelerators, or one accelerator of one rank, nothing else decides
  // when, so the read scheduler can move the prefetch window itself (StartPhase's
  // instant_steps) with every figure the same. A checkpoint step holds everyone: not then.
  bool StepsTakeNoTime() const {
    const bool no_compute =
        spec_.compute.kind == config::TimeDistribution::Kind::kConstant && spec_.compute.mean <= 0;
    const bool alone = accelerators_.size() == 1 && !ranks_;
    return no_compute && !spec_.sync_step && (!spec_.barrier || alone);
  }

  void CheckWaiting() {
    // EndStep may append to waiting_ while this walks the previous list.
    scratch_.clear();
    std::swap(waiting_, scratch_);
    for (size_t a : scratch_) {
      Accelerator& acc = accelerators_[a];
      if (acc.state != State::kWaiting) continue;
      if (spec_.io && !scheduler_->BatchReady(a, acc.step)) {
        waiting_.push_back(a);
        continue;
      }
      // The step starts when both the accelerator and its batch were ready.
      const double ready = spec_.io ? scheduler_->BatchReadyTime(a, acc.step) : 0;
      StartCompute(a, std::max({acc.step_start, ready, start_}));
    }
  }

  void StartCompute(size_t a, double now) {
    Accelerator& acc = accelerators_[a];
    if (spec_.io && spec_.on_batch) spec_.on_batch(a, acc.step);
    const double wait = now - acc.step_start;
    wait_ns_.Record(static_cast<uint64_t>(std::max(0.0, wait) * 1e9));
    data_wait_s_ += wait;
    if (live_) live_->EndWait(acc.step_start, wait);
    acc.compute_s = acc.model.Draw();
    acc.state = State::kComputing;
    if (acc.compute_s <= 0) {
      FinishCompute(a, now);
    } else {
      timers_.push({now + acc.compute_s, a});
    }
  }

  void FinishCompute(size_t a, double when) {
    Accelerator& acc = accelerators_[a];
    acc.compute_end = when;
    const uint64_t step = acc.step;
    const bool sync = spec_.barrier || (spec_.sync_step && SyncWanted(step));
    if (!sync) {
      EndStep(a, when);
      return;
    }
    acc.state = State::kBarrier;
    auto& barrier = at_barrier_[step];
    barrier.latest = std::max(barrier.latest, when);
    if (++barrier.count < accelerators_.size()) return;
    // Every accelerator finished the step: it ends for all at once, when the last one
    // finished (in emulated time: the loop may notice finishes out of order).
    const double latest = barrier.latest;
    at_barrier_.erase(step);
    if (ranks_) {  // and, when the other ranks' accelerators have too
      pending_step_ = step;
      pending_latest_ = latest;
      step_pending_ = true;
      ranks_->StartStep(latest - start_);
      return;
    }
    Release(step, latest);
  }

  void Release(uint64_t step, double release) {
    if (spec_.sync_step && SyncWanted(step)) {
      const double t0 = NowSeconds();
      spec_.sync_step(step, true);  // a checkpoint, taken while all wait
      // Every rank waits for the ranks that write it.
      if (ranks_ && !ranks_->Barrier()) peer_stopped_ = true;
      release += NowSeconds() - t0;
    }
    for (size_t b = 0; b < accelerators_.size(); ++b)
      if (accelerators_[b].state == State::kBarrier && accelerators_[b].step == step)
        EndStep(b, release);
  }

  bool SyncWanted(uint64_t step) {
    auto it = sync_cache_.find(step);
    if (it != sync_cache_.end()) return it->second;
    const bool wanted = spec_.sync_step(step, false);
    sync_cache_[step] = wanted;
    return wanted;
  }

  void EndStep(size_t a, double when) {
    Accelerator& acc = accelerators_[a];
    acc.au.AddStep(acc.step, acc.step_start, acc.compute_s, when);
    ++acc.step;
    if (live_) live_->AddSamples(spec_.batch_size);
    if (acc.step >= spec_.steps) {
      acc.state = State::kDone;
      ++done_;
      return;
    }
    acc.state = State::kWaiting;
    acc.step_start = when;
    if (live_) live_->StartWait(when);
    waiting_.push_back(a);
    stepped_ = true;
    if (scheduler_ && spec_.io) {
      scheduler_->Advance(a, acc.step);
      wake_readers_ = !instant_;  // instant steps: the reads moved the window already
    }
  }

  void ReportProgress(double now, uint64_t bytes_before) {
    Progress p;
    p.kind = spec_.kind;
    p.epoch = spec_.epoch;
    p.epochs = spec_.epochs;
    p.steps = spec_.steps;
    uint64_t steps_done = 0, min_step = UINT64_MAX;
    std::vector<metrics::AuAccumulator> au;
    for (const auto& acc : accelerators_) {
      steps_done += acc.au.Steps();
      min_step = std::min(min_step, acc.au.Steps());
      au.push_back(acc.au);
    }
    const double elapsed = now - start_;
    p.step = min_step;
    p.measured = steps_done > 0 && elapsed >= kMinRateInterval;
    if (p.measured) {
      p.samples_per_second = static_cast<double>(steps_done * spec_.batch_size) / elapsed;
      if (scheduler_ && spec_.io)
        p.bytes_per_second = static_cast<double>(scheduler_->BytesRead() - bytes_before) / elapsed;
      p.au_percentage = metrics::AuPercentage(au);
    }
    spec_.progress(p);
  }

  const PhaseSpec& spec_;
  loader::ReadScheduler* scheduler_;
  metrics::Histogram& wait_ns_;
  dist::Communicator* ranks_;  // null when this process is the whole job
  metrics::LiveCounters* live_;
  bool step_pending_ = false;  // an all-reduce over ranks for pending_step_ is under way
  double step_poll_ = kStepPollFirst;
  uint64_t pending_step_ = 0;
  double pending_latest_ = 0;
  bool peer_stopped_ = false;  // a barrier over ranks ended because a peer failed
  std::vector<Accelerator> accelerators_;
  std::vector<size_t> waiting_, scratch_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  struct Barrier {
    size_t count = 0;
    double latest = 0;
  };
  std::map<uint64_t, Barrier> at_barrier_;
  std::map<uint64_t, bool> sync_cache_;
  size_t done_ = 0;
  bool wake_readers_ = false;
  bool instant_ = false;  // StepsTakeNoTime, for this phase's reads
  bool stepped_ = false;  // an accelerator began waiting since the last check
  double data_wait_s_ = 0;
  double start_ = 0;
};

}  // namespace

PhaseOutcome RunPhase(const PhaseSpec& spec, loader::ReadScheduler* scheduler,
                      metrics::Histogram& data_wait_ns) {
  Loop loop(spec, scheduler, data_wait_ns);
  return loop.Run();
}

}  // namespace trainbench::sim

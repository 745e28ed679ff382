#include "app/frame/job_timeseries.h"

#include "common/clock.h"

namespace trainbench::app {

JobTimeseries::JobTimeseries(double interval_s, const stage::StageLive* stage,
                             const metrics::LiveCounters* train,
                             std::function<void(metrics::IntervalProbe&)> io,
                             metrics::IntervalSampler::OnRow on_row)
    : interval_s_(interval_s), stage_(stage), train_(train), io_(std::move(io)) {
  result_.interval_s = interval_s;
  if (interval_s <= 0) return;
  // Training's images are the samples of one "accelerator": this process's device, whose
  // wait for a batch is the data-wait share.
  sampler_ = std::make_unique<metrics::IntervalSampler>(
      interval_s, NowSeconds(), train ? 1 : 0, [this](metrics::IntervalProbe& p) { Probe(p); },
      std::move(on_row));
}

JobTimeseries::~JobTimeseries() { Finish(); }

void JobTimeseries::Probe(metrics::IntervalProbe& p) const {
  p.now = NowSeconds();
  p.phase = metrics::LivePhase::kSetup;
  if (stage_) {
    p.bytes = stage_->bytes.load(std::memory_order_relaxed);
    p.reads_in_flight = stage_->TakePeak();
    if (stage_->fetching.load(std::memory_order_relaxed)) p.phase = metrics::LivePhase::kStage;
  }
  if (io_) io_(p);
  if (train_) {
    p.samples = train_->Samples();
    p.wait_s = train_->WaitAt(p.now).total_s;
    p.epoch = train_->Epoch();
    if (train_->Phase() != metrics::LivePhase::kSetup) p.phase = train_->Phase();
  }
  if (ended_.load(std::memory_order_relaxed)) p.phase = metrics::LivePhase::kDone;
}

TimeseriesResult JobTimeseries::Finish() {
  if (sampler_) {
    ended_.store(true, std::memory_order_relaxed);
    sampler_->Stop();
    result_.rows = sampler_->TakeRows();
    result_.sampler_cpu_s = sampler_->CpuSeconds();
    sampler_.reset();
  }
  return result_;
}

}  // namespace trainbench::app

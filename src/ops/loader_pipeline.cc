#include "ops/loader_pipeline.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>

namespace trainbench::ops {

LoaderRun ReadLoaderRun(std::span<const LoggedGet> gets, uint64_t batch_size) {
  LoaderRun run;
  const uint64_t batch = std::max<uint64_t>(batch_size, 1);
  std::map<uint32_t, std::vector<size_t>> by_worker;  // its GETs, in start order
  for (size_t i = 0; i < gets.size(); ++i) by_worker[gets[i].thread].push_back(i);
  struct Batch {
    size_t first;  // its first GET in `gets`: batches are taken in the order they began
    const std::vector<size_t>* worker;
    size_t begin, end;  // in the worker's GETs
  };
  std::vector<Batch> batches;
  double gap_ns = 0;
  uint64_t gaps = 0;
  for (auto& worker : by_worker) {
    std::vector<size_t>& list = worker.second;
    const auto replayed = std::find_if(list.begin(), list.end(),
                                       [&](size_t i) { return std::isnan(gets[i].replayed_s); });
    list.erase(replayed, list.end());
    if (list.empty()) continue;
    ++run.workers;
    std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> in_flight;  // their ends
    for (size_t k = 0; k < list.size(); ++k) {
      const LoggedGet& get = gets[list[k]];
      while (!in_flight.empty() && in_flight.top() <= get.start_ns) in_flight.pop();
      in_flight.push(get.end_ns);
      run.most_in_flight = std::max(run.most_in_flight, static_cast<unsigned>(in_flight.size()));
      // Between batches a worker may wait for room in the queue: only gaps within one count.
      if (k % batch != 0) {
        gap_ns +=
            static_cast<double>(std::max<int64_t>(0, get.start_ns - gets[list[k - 1]].end_ns));
        ++gaps;
      }
    }
    for (size_t k = 0; k < list.size(); k += batch)
      batches.push_back({list[k], &list, k, std::min<size_t>(list.size(), k + batch)});
  }
  // With several reads in flight a gap is no image's decode.
  if (run.most_in_flight == 1 && gaps > 0) run.hold_s = gap_ns / static_cast<double>(gaps) / 1e9;
  std::sort(batches.begin(), batches.end(),
            [](const Batch& a, const Batch& b) { return a.first < b.first; });
  for (const Batch& b : batches) {
    for (size_t k = b.begin; k < b.end; ++k) run.seconds.push_back(gets[(*b.worker)[k]].replayed_s);
    run.ends.push_back(run.seconds.size());
  }
  return run;
}

PipelineEstimate SimulateLoader(const LoaderRun& run, const LoaderShape& shape) {
  PipelineEstimate e;
  const size_t n = run.ends.size();
  e.batches = n;
  e.gets = run.seconds.size();
  if (n == 0) return e;
  const size_t workers = std::max(1u, shape.workers);
  const size_t depth = std::max(1u, shape.io_depth);
  const size_t prefetch = shape.prefetch > 0 ? shape.prefetch : 2 * workers;
  std::vector<double> worker_free(workers, 0.0);
  std::vector<double> slot_free(depth);
  std::vector<double> taken(n);  // when step b takes batch b and starts computing
  double claimed = 0, load_sum = 0;
  size_t begin = 0;
  for (size_t b = 0; b < n; ++b) {
    // The first worker to be free claims it, once the step `prefetch` batches back took its own.
    const auto worker = std::min_element(worker_free.begin(), worker_free.end());
    const double start = std::max({*worker, claimed, b >= prefetch ? taken[b - prefetch] : 0.0});
    claimed = start;
    std::fill(slot_free.begin(), slot_free.end(), start);
    double ready = start;
    for (size_t i = begin; i < run.ends[b]; ++i) {
      const auto slot = std::min_element(slot_free.begin(), slot_free.end());
      *slot += static_cast<double>(run.seconds[i]) + shape.hold_s;
      ready = std::max(ready, *slot);
    }
    begin = run.ends[b];
    *worker = ready;
    load_sum += ready - start;
    taken[b] = std::max(b > 0 ? taken[b - 1] + shape.compute_s : 0.0, ready);
  }
  const size_t timed = shape.timed_steps > 0 ? std::min<size_t>(shape.timed_steps, n) : n;
  const size_t warm = n - timed;
  const double window_start = warm > 0 ? taken[warm - 1] + shape.compute_s : 0.0;
  const size_t images = run.ends[n - 1] - (warm > 0 ? run.ends[warm - 1] : 0);
  e.timed_steps = timed;
  e.seconds = taken[n - 1] + shape.compute_s - window_start;
  e.step_s = e.seconds / static_cast<double>(timed);
  e.lost_s = std::max(0.0, e.step_s - shape.compute_s);
  e.images_per_s = e.seconds > 0 ? static_cast<double>(images) / e.seconds : 0.0;
  e.first_batch_wait_s = taken[0];
  e.load_s = load_sum / static_cast<double>(n);
  return e;
}

}  // namespace trainbench::ops

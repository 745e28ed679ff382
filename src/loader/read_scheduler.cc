#include "loader/read_scheduler.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <functional>

#include "common/clock.h"
#include "common/error.h"
#include "loader/pieces.h"
#include "loader/sample_reads.h"

namespace trainbench::loader {

// Named, not in the anonymous namespace: ReadScheduler::Loop (declared in the header) holds
// these buffers.
struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<unsigned char, FreeDeleter>;

namespace {

// Reads recorded for the Darshan-style counters are handed over in batches of this
// many, so the shared counters take one lock per batch, not per read.
constexpr size_t kRecordBatch = 256;
// How long a loop with reads in flight waits for one to finish before it looks at
// stop_ again.
constexpr double kReapTimeoutS = 0.05;

}  // namespace

struct ReadScheduler::LoopSample {
  size_t stream = 0;
  uint64_t index = 0;       // in the stream's plan
  uint64_t count = 1;       // plan entries from `index` on that this read serves
  uint32_t file = 0;        // object index
  uint64_t sample = 0;      // in its file
  SampleRead read;          // the extents the sample reads (sample_reads.h)
  size_t extent = 0;        // which of them is being submitted
  uint64_t next = 0;        // offset of the next piece to submit
  uint64_t end = 0;         // end of the extent's (aligned) range
  uint64_t extent_end = 0;  // end of the extent's own bytes
  uint32_t pieces_out = 0;  // submitted, not yet completed
  bool active = false;
  // The earliest short read, reported when the sample finishes so that pieces completing
  // out of order name the same offset: where the file really ends.
  uint64_t short_end = UINT64_MAX;
  uint64_t short_bytes = 0, short_length = 0;
};

struct ReadScheduler::Preprocessing {
  double deadline = 0;  // when its preprocessing ends (NowSeconds clock)
  size_t stream = 0;
  uint64_t index = 0;
  uint64_t count = 1;
  bool operator>(const Preprocessing& other) const { return deadline > other.deadline; }
};

struct ReadScheduler::Loop {
  struct Slot {
    LoopSample* sample = nullptr;
    uint64_t length = 0;
    uint64_t extent_end = 0;  // end of the bytes of the extent this piece belongs to
    AlignedBuffer buffer;
  };
  std::thread thread;
  std::unique_ptr<storage::ReadQueue> queue;
  std::vector<Slot> slots;
  std::vector<unsigned> free_slots;
  std::vector<LoopSample> samples;
  // Read samples being preprocessed, soonest first (a heap: std::greater).
  std::vector<Preprocessing> preprocessing;
  std::vector<storage::ReadCompletion> completions;
  std::vector<metrics::ReadRecord> records;  // not yet handed to the counters
  // Atomic so the time series can sample it while the loop records (live_histogram.h).
  metrics::LiveHistogram latency_ns;
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> reads{0};
  unsigned out = 0;                    // submitted, not yet reaped
  std::atomic<uint32_t> in_flight{0};  // a copy of `out` for the time series (a plain store)

  // How long the loop may wait for reads (or new work) before a preprocessing ends.
  double WaitSeconds() const {
    if (preprocessing.empty()) return kReapTimeoutS;
    return std::clamp(preprocessing.front().deadline - NowSeconds(), 0.0, kReapTimeoutS);
  }
};

ReadScheduler::ReadScheduler(storage::ReadEngine& engine, const dataset::FileTable* files,
                             ReaderOptions options, size_t accelerators,
                             metrics::IoCharacterizer* io)
    : engine_(engine),
      files_(files),
      options_(options),
      io_(io),
      alignment_(std::max<uint64_t>(1, engine.Capabilities().alignment)),
      piece_size_(PieceSize(options.transfer_size, alignment_)),
      whole_samples_(engine.Capabilities().whole_samples),
      streams_(accelerators) {
  options_.threads = std::max(1u, options_.threads);
  options_.depth = std::max(1u, options_.depth);
  for (unsigned i = 0; i < options_.threads; ++i) {
    auto loop = std::make_unique<Loop>();
    loop->queue = engine_.NewQueue(options_.depth);
    const unsigned depth = loop->queue->Depth();
    loop->slots.resize(depth);
    loop->samples.resize(depth);
    loop->completions.resize(depth);
    loop->records.reserve(kRecordBatch);
    for (unsigned s = 0; s < depth; ++s) {
      loop->free_slots.push_back(s);
      if (whole_samples_) continue;  // the engine reads into its own buffers
      const uint64_t alignment = std::max<uint64_t>(alignment_, 64);
      void* p = std::aligned_alloc(alignment, AlignUp(piece_size_, alignment));
      if (!p)
        throw RuntimeError("out of memory for read buffers (reader.transfer_size too large?)");
      loop->slots[s].buffer.reset(static_cast<unsigned char*>(p));
    }
    loops_.push_back(std::move(loop));
  }
  for (auto& l : loops_) l->thread = std::thread([this, lp = l.get()] { Run(*lp); });
}

ReadScheduler::~ReadScheduler() {
  draining_.store(true);
  stop_.store(true);
  {
    std::lock_guard<std::mutex> lock(work_mutex_);
    ++generation_;
  }
  work_cv_.notify_all();
  for (auto& l : loops_) l->thread.join();
}

void ReadScheduler::StartPhase(const std::vector<std::vector<SampleRef>>* plans,
                               uint32_t file_offset, uint64_t batch_size, bool sequential,
                               uint64_t instant_steps) {
  file_offset_ = file_offset;
  sequential_ = sequential;
  phase_.fetch_add(1);
  instant_steps_.store(instant_steps);
  batch_size_ = std::max<uint64_t>(1, batch_size);
  for (size_t a = 0; a < streams_.size(); ++a) {
    Stream& s = streams_[a];
    s.samples = &(*plans)[a];
    s.next.store(0);
    s.limit.store(0);
    const uint64_t batches = s.samples->size() / batch_size_ + 1;
    s.batches = batches;
    s.ready_prefix.store(0);
    s.done.reset(new std::atomic<uint32_t>[batches]);
    s.ready_at.reset(new std::atomic<double>[batches]);
    for (uint64_t b = 0; b < batches; ++b) {
      s.done[b].store(0);
      s.ready_at[b].store(0);
    }
  }
  draining_.store(false);
  for (size_t a = 0; a < streams_.size(); ++a) Advance(a, 0);
  WakeReaders();
}

void ReadScheduler::Advance(size_t a, uint64_t step) {
  RaiseLimit(streams_[a], (step + 1 + options_.prefetch_batches) * batch_size_);
}

// Raises the stream's claim limit to `limit` (capped at its plan's end) unless it is there
// already; a compare-exchange, as the event loop and the read loops may both move it.
// Returns whether it rose.
bool ReadScheduler::RaiseLimit(Stream& s, uint64_t limit) {
  limit = std::min<uint64_t>(s.samples->size(), limit);
  uint64_t old = s.limit.load(std::memory_order_relaxed);
  while (limit > old)
    if (s.limit.compare_exchange_weak(old, limit, std::memory_order_release,
                                      std::memory_order_relaxed))
      return true;
  return false;
}

// Instant steps (StartPhase): the stream's batches ready from ready_prefix on end their
// steps now, so its window moves past them. Loops finishing batches at once each walk the
// prefix; every operation here and the ready_at store before it are sequentially
// consistent, so of two loops finishing neighbouring batches at once, one sees both.
// Returns true for the one loop that took the prefix to `steps` (the phase's last step
// ended): the event loop is told then.
bool ReadScheduler::MoveWindow(Stream& s, uint64_t steps) {
  bool last = false;
  uint64_t k = s.ready_prefix.load();
  while (k < s.batches && s.ready_at[k].load() > 0) {
    if (s.ready_prefix.compare_exchange_weak(k, k + 1)) {
      ++k;
      last = last || k == steps;
    }
  }
  // Step k is waited for now; past the last step nothing moves the window further, as no
  // Advance would. Loops idle at the window's end must look again (with one loop, it is
  // this one).
  const uint64_t step = std::min(k, steps - 1);
  if (RaiseLimit(s, (step + 1 + options_.prefetch_batches) * batch_size_) && loops_.size() > 1)
    WakeReaders();
  return last;
}

void ReadScheduler::WakeReaders() {
  bool any_idle;
  {
    std::lock_guard<std::mutex> lock(work_mutex_);
    ++generation_;
    any_idle = idle_ > 0;
  }
  if (any_idle) work_cv_.notify_all();
}

bool ReadScheduler::BatchReady(size_t a, uint64_t step) const {
  // ready_at is stored after the batch's last read, so it doubles as the flag.
  return streams_[a].ready_at[step].load(std::memory_order_acquire) > 0;
}

double ReadScheduler::BatchReadyTime(size_t a, uint64_t step) const {
  return streams_[a].ready_at[step].load(std::memory_order_acquire);
}

void ReadScheduler::Wait(double deadline) {
  const double wait_s = deadline - NowSeconds();
  std::unique_lock<std::mutex> lock(loop_mutex_);
  if (wait_s > 0 && ready_events_ == seen_events_)
    loop_cv_.wait_for(lock, std::chrono::duration<double>(wait_s),
                      [this] { return ready_events_ != seen_events_; });
  seen_events_ = ready_events_;
}

void ReadScheduler::Drain() {
  draining_.store(true);
  while (in_flight_.load() > 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
}

std::optional<std::string> ReadScheduler::Error() const {
  std::lock_guard<std::mutex> lock(loop_mutex_);
  return error_;
}

uint64_t ReadScheduler::BytesRead() const {
  uint64_t total = 0;
  for (const auto& l : loops_) total += l->bytes.load(std::memory_order_relaxed);
  return total;
}

uint64_t ReadScheduler::Reads() const {
  uint64_t total = 0;
  for (const auto& l : loops_) total += l->reads.load(std::memory_order_relaxed);
  return total;
}

uint64_t ReadScheduler::ReadsInFlight() const {
  uint64_t total = 0;
  for (const auto& l : loops_) total += l->in_flight.load(std::memory_order_relaxed);
  return total;
}

void ReadScheduler::AddLatencyCounts(std::vector<uint64_t>& counts) const {
  for (const auto& l : loops_) l->latency_ns.AddCounts(counts);
}

metrics::Histogram ReadScheduler::Latencies() const {
  metrics::Histogram all;
  for (const auto& l : loops_) all.Merge(l->latency_ns.ToHistogram());
  return all;
}

bool ReadScheduler::Claim(Stream& s, uint64_t& index, uint64_t& count) {
  if (s.samples == nullptr) return false;
  // Cheap checks first: most streams have nothing to give most of the time.
  if (s.next.load(std::memory_order_relaxed) >= s.limit.load(std::memory_order_acquire))
    return false;
  uint32_t flying = s.in_flight.load(std::memory_order_relaxed);
  do {
    if (flying >= options_.reads_per_accelerator) return false;
  } while (!s.in_flight.compare_exchange_weak(flying, flying + 1));
  uint64_t i = s.next.load(std::memory_order_relaxed);
  uint64_t n;
  do {
    const uint64_t limit = s.limit.load(std::memory_order_acquire);
    if (i >= limit) {
      s.in_flight.fetch_sub(1);
      return false;
    }
    // The samples that the same read serves are claimed (and finished) together: one
    // claim for a Parquet row group's rows, not one a row.
    n = SameUnitRun(*files_, *s.samples, i, limit, file_offset_, sequential_);
  } while (!s.next.compare_exchange_weak(i, i + n));
  index = i;
  count = n;
  return true;
}

// Claims the next sample of any accelerator, round robin, into `sample`. A claimed
// sample counts in in_flight_ until SampleDone; it is counted before draining_ is
// looked at, so Drain (which stores draining_, then waits for in_flight_ to reach 0)
// either stops the claim or waits for the sample.
bool ReadScheduler::ClaimSample(LoopSample& sample) {
  in_flight_.fetch_add(1);
  if (!draining_.load()) {
    const size_t n = streams_.size();
    const size_t start = cursor_.fetch_add(1, std::memory_order_relaxed);
    for (size_t j = 0; j < n; ++j) {
      const size_t a = (start + j) % n;
      uint64_t index, count;
      if (!Claim(streams_[a], index, count)) continue;
      const SampleRef ref = (*streams_[a].samples)[index];
      sample = LoopSample{};
      sample.stream = a;
      sample.index = index;
      sample.count = count;
      sample.file = ref.file + file_offset_;
      sample.sample = ref.sample;
      sample.read = ReadOf(*files_, *streams_[a].samples, index, file_offset_);
      sample.active = true;
      StartExtent(sample, 0);
      return true;
    }
  }
  in_flight_.fetch_sub(1);
  return false;
}

// Points the sample's next pieces at its first extent from `k` on with bytes to read; past
// the last, leaves nothing to submit.
void ReadScheduler::StartExtent(LoopSample& sample, size_t k) const {
  for (; k < sample.read.Count(); ++k) {
    const formats::SampleExtent& e = sample.read.At(k);
    sample.extent_end = e.offset + e.length;
    sample.next = AlignDown(e.offset, alignment_);
    sample.end = whole_samples_ ? sample.extent_end : AlignUp(sample.extent_end, alignment_);
    if (sample.next < sample.end) break;
  }
  sample.extent = k;
  if (k >= sample.read.Count()) sample.next = sample.end;
}

void ReadScheduler::SampleDone(Stream& s, uint64_t index, uint64_t count, double when) {
  s.in_flight.fetch_sub(1);
  const uint64_t instant_steps = instant_steps_.load(std::memory_order_relaxed);
  for (uint64_t i = index, end = index + count; i < end;) {
    const uint64_t batch = i / batch_size_;
    const auto n = static_cast<uint32_t>(std::min(end, (batch + 1) * batch_size_) - i);
    i += n;
    if (s.done[batch].fetch_add(n, std::memory_order_acq_rel) + n != batch_size_) continue;
    s.ready_at[batch].store(when);  // sequentially consistent: MoveWindow
    if (instant_steps > 0 && !MoveWindow(s, instant_steps)) continue;
    {
      std::lock_guard<std::mutex> lock(loop_mutex_);
      ++ready_events_;
    }
    loop_cv_.notify_one();
  }
  in_flight_.fetch_sub(1);
}

// A sample with pieces left to submit, else a newly claimed one, else none. Inline, as is
// SubmitPiece: called out of line, the two cost some 20 instructions a read, 3% of Run's
// (callgrind, null engine).
inline ReadScheduler::LoopSample* ReadScheduler::NextPiece(Loop& loop) {
  LoopSample* spare = nullptr;
  for (auto& s : loop.samples) {
    if (s.active && s.next < s.end) return &s;
    if (!s.active && !spare) spare = &s;
  }
  while (spare && ClaimSample(*spare)) {
    if (spare->next < spare->end) return spare;
    FinishSample(loop, *spare);  // an empty sample: done at once
  }
  return nullptr;
}

inline void ReadScheduler::SubmitPiece(Loop& loop, LoopSample& s) {
  const unsigned i = loop.free_slots.back();
  loop.free_slots.pop_back();
  auto& slot = loop.slots[i];
  slot.sample = &s;
  slot.length = whole_samples_ ? s.end - s.next : std::min(piece_size_, s.end - s.next);
  slot.extent_end = s.extent_end;
  storage::ReadRequest r;
  r.object = s.file;
  r.offset = s.next;
  r.length = slot.length;
  r.buffer = slot.buffer.get();
  r.tag = i;
  r.sample = s.sample;
  s.next += slot.length;
  if (s.next >= s.end) StartExtent(s, s.extent + 1);  // the unit's next column chunk
  ++s.pieces_out;
  ++loop.out;
  loop.in_flight.store(loop.out, std::memory_order_relaxed);
  loop.queue->Submit(r);
}

void ReadScheduler::CompletePiece(Loop& loop, storage::ReadCompletion& c) {
  const auto i = static_cast<unsigned>(c.tag);
  auto& slot = loop.slots[i];
  LoopSample& s = *slot.sample;
  loop.free_slots.push_back(i);
  --loop.out;
  loop.in_flight.store(loop.out, std::memory_order_relaxed);
  --s.pieces_out;
  loop.latency_ns.Record(c.latency_ns);
  loop.reads.fetch_add(1, std::memory_order_relaxed);
  loop.bytes.fetch_add(c.bytes, std::memory_order_relaxed);
  loop.records.push_back({s.file, c.offset, c.bytes});
  if (loop.records.size() >= kRecordBatch) FlushRecords(loop);
  if (!c.error.empty()) {
    Fail(c.error);
    StartExtent(s, s.read.Count());
  } else if (c.bytes < slot.length && c.offset + c.bytes < slot.extent_end) {
    // Under O_DIRECT the widened last piece may end past the file's end; short
    // before the sample's end means the file is not what its index says.
    if (c.offset + c.bytes < s.short_end) {
      s.short_end = c.offset + c.bytes;
      s.short_bytes = c.bytes;
      s.short_length = slot.length;
    }
    StartExtent(s, s.read.Count());
  }
  if (s.next >= s.end && s.pieces_out == 0) FinishSample(loop, s);
}

void ReadScheduler::FinishSample(Loop& loop, LoopSample& s) {
  if (s.short_end != UINT64_MAX)
    Fail(
        fmt::format("short read at offset {} of '{}': {} of {} bytes (the file is shorter than its "
                    "sample index says)",
                    s.short_end, engine_.DescribeObject(s.file), s.short_bytes, s.short_length));
  s.active = false;
  const double now = NowSeconds();
  double hold = 0;
  if (options_.preprocess_s && s.short_end == UINT64_MAX) {
    const uint64_t phase = phase_.load(std::memory_order_relaxed);
    for (uint64_t i = 0; i < s.count; ++i)
      hold += options_.preprocess_s(s.stream, phase, s.index + i);
  }
  if (hold <= 0) {
    SampleDone(streams_[s.stream], s.index, s.count, now);
    return;
  }
  loop.preprocessing.push_back({now + hold, s.stream, s.index, s.count});
  std::push_heap(loop.preprocessing.begin(), loop.preprocessing.end(), std::greater<>());
}

// Samples whose preprocessing has ended (all of them with `all`) are loaded: as of their
// deadline, not of when this loop got to them.
void ReadScheduler::FinishPreprocessed(Loop& loop, bool all) {
  const double now = NowSeconds();
  auto& heap = loop.preprocessing;
  while (!heap.empty() && (all || heap.front().deadline <= now)) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const Preprocessing p = heap.back();
    heap.pop_back();
    SampleDone(streams_[p.stream], p.index, p.count, p.deadline);
  }
}

void ReadScheduler::FlushRecords(Loop& loop) {
  if (io_ && !loop.records.empty()) io_->OnReads(loop.records);
  loop.records.clear();
}

// Sleeps until WakeReaders has something new to claim (or the scheduler stops), or until
// the soonest preprocessing ends.
void ReadScheduler::WaitForWork(Loop& loop, uint64_t generation) {
  std::unique_lock<std::mutex> lock(work_mutex_);
  ++idle_;
  const auto woken = [&] { return generation_.load() != generation || stop_.load(); };
  if (loop.preprocessing.empty())
    work_cv_.wait(lock, woken);
  else
    work_cv_.wait_for(lock, std::chrono::duration<double>(loop.WaitSeconds()), woken);
  --idle_;
}

void ReadScheduler::Run(Loop& loop) {
  try {
    for (;;) {
      const uint64_t generation = generation_.load(std::memory_order_acquire);
      FinishPreprocessed(loop, false);
      while (!loop.free_slots.empty() && !stop_.load()) {
        LoopSample* s = NextPiece(loop);
        if (!s) break;
        SubmitPiece(loop, *s);
      }
      if (loop.out == 0) {
        FlushRecords(loop);
        if (stop_.load()) break;
        WaitForWork(loop, generation);
        continue;
      }
      const size_t n = loop.queue->Reap(loop.completions, 1, loop.WaitSeconds());
      for (size_t k = 0; k < n; ++k) CompletePiece(loop, loop.completions[k]);
    }
  } catch (const std::exception& e) {
    // The queue itself failed (not one read): no more reads from this loop.
    Fail(e.what());
  }
  StopLoop(loop);
}

// Ends a loop that stopped: what it holds is finished, so that Drain sees it.
void ReadScheduler::StopLoop(Loop& loop) {
  // Never free buffers the engine may still write: reap what is out (bounded).
  for (int tries = 0; loop.out > 0 && tries < 200; ++tries) {
    size_t n = 0;
    try {
      n = loop.queue->Reap(loop.completions, 1, kReapTimeoutS);
    } catch (const std::exception&) {
      break;
    }
    for (size_t k = 0; k < n; ++k) CompletePiece(loop, loop.completions[k]);
  }
  for (auto& s : loop.samples)
    if (s.active) FinishSample(loop, s);
  FinishPreprocessed(loop, true);
  FlushRecords(loop);
}

void ReadScheduler::Fail(const std::string& message) {
  {
    std::lock_guard<std::mutex> lock(loop_mutex_);
    if (!error_) error_ = message;
    ++ready_events_;
  }
  draining_.store(true);
  loop_cv_.notify_one();
}

}  // namespace trainbench::loader

// The read scheduler: one engine-agnostic loop, run by a few threads, that turns each
// accelerator's epoch plan into reads. A loop claims an accelerator's next sample,
// splits what it reads (its extent, or its read unit's extents: sample_reads.h) into
// transfer_size pieces (aligned as the engine needs, each extent on its own), submits
// them to its own storage::ReadQueue, reaps completions, and finishes the sample when
// its last piece is in. Every read that happened is recorded: its latency, and its
// file, offset and size for the Darshan-style counters. The event loop is woken once
// per finished batch, not once per read; in a phase of instant steps (StartPhase) only
// once per accelerator, at its last step's batch.
// Bounds: at most `reads_per_accelerator` (reader.read_threads) samples in flight per
// accelerator, reads at most `prefetch_batches` (reader.prefetch_size) batches ahead of
// the batch the accelerator works on, and `depth` reads in flight per loop thread.
// Preprocessing (DLIO's reader.preprocess_time: JPEG decode and augmentation in a loader
// worker): a sample whose bytes are in stays claimed for `preprocess_s` more seconds before it
// counts as loaded, so it keeps its place among the reads_per_accelerator in flight, as a
// worker busy decoding does; its loop thread goes on with other reads meanwhile.
// The bytes are dropped once read (a batch's bytes need not be kept to measure how fast
// storage delivers them); each loop owns `depth` reused buffers.
// Thread safety: StartPhase/Advance/WakeReaders/Wait/Drain are called by one thread
// (the event loop); BatchReady, BytesRead, Reads, ReadsInFlight and AddLatencyCounts may be
// called from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dataset/file_table.h"
#include "formats/format.h"
#include "loader/sampler.h"
#include "metrics/histogram.h"
#include "metrics/io_characterization.h"
#include "metrics/live_histogram.h"
#include "storage/read_queue.h"

namespace trainbench::loader {

struct ReaderOptions {
  unsigned threads = 1;  // loop threads, each with one queue
  unsigned depth = 1;    // reads in flight per loop thread
  uint64_t transfer_size = 262144;
  uint64_t reads_per_accelerator = 1;
  uint64_t prefetch_batches = 2;
  // Seconds a sample is preprocessed after its last read: (accelerator, phase, index in the
  // plan). Called from the loop threads at once: it must be thread-safe. Empty: none.
  std::function<double(size_t, uint64_t, uint64_t)> preprocess_s;
};

class ReadScheduler {
 public:
  // `engine` reads the objects `files` names, in that order (object i is (*files)[i]);
  // `io`, when given, is fed every read that happened. Both are kept by pointer and must
  // outlive the scheduler. Throws when the engine cannot make its queues.
  ReadScheduler(storage::ReadEngine& engine, const dataset::FileTable* files, ReaderOptions options,
                size_t accelerators, metrics::IoCharacterizer* io);
  ~ReadScheduler();
  ReadScheduler(const ReadScheduler&) = delete;
  ReadScheduler& operator=(const ReadScheduler&) = delete;

  // Begins a phase (no reads in flight): accelerator k reads (*plans)[k] batch after
  // batch; SampleRef::file + file_offset indexes `files`. Reads start at batch 0.
  // `sequential`: the plans are SequentialWithinFiles (claims then skip across read units in
  // constant time).
  // `instant_steps` > 0: the phase's steps take no time and end on their own (no compute,
  // no barrier across accelerators), so accelerator k's step s ends the moment its batches
  // 0..s are all ready. The loop that completes such a batch then moves k's window as
  // Advance(k, s + 1) would, at the instant the emulated step ends rather than when the
  // event loop gets there, and Wait is woken only when batch instant_steps - 1 is ready
  // (the event loop counts the steps between on its own time). This takes both thread
  // hand-offs out of each step: the batch's last read waking the event loop, and the
  // step's Advance waking a loop idle at the window's end. 0: the caller moves the
  // window (Advance, WakeReaders) and every finished batch wakes Wait.
  void StartPhase(const std::vector<std::vector<SampleRef>>* plans, uint32_t file_offset,
                  uint64_t batch_size, bool sequential = false, uint64_t instant_steps = 0);
  // Accelerator `a` now waits for or computes batch `step`: lets reads run ahead of it.
  // The window never moves back (an instant phase's loops may have moved it further).
  void Advance(size_t a, uint64_t step);
  // Wakes idle loops after Advance calls (one wake-up for many advances).
  void WakeReaders();
  bool BatchReady(size_t a, uint64_t step) const;
  // When the batch's last read finished (NowSeconds clock); valid once BatchReady. The
  // step loop starts a step from this, not from when it noticed, so its own lateness
  // under CPU load is not charged to storage.
  double BatchReadyTime(size_t a, uint64_t step) const;
  // Sleeps until a batch becomes ready, a read fails, or NowSeconds() reaches deadline.
  void Wait(double deadline);
  // Stops claiming new samples and waits for those in flight.
  void Drain();

  // The first failed read's message (file and offset), if any.
  std::optional<std::string> Error() const;
  uint64_t BytesRead() const;  // returned by reads so far, all threads; live
  uint64_t Reads() const;
  // Live, for the time series: reads submitted and not yet completed (all loops), and the
  // latency histogram's bucket counts so far added to `counts`.
  uint64_t ReadsInFlight() const;
  void AddLatencyCounts(std::vector<uint64_t>& counts) const;
  // Latency of every read; call after Drain.
  metrics::Histogram Latencies() const;
  unsigned threads() const { return static_cast<unsigned>(loops_.size()); }
  unsigned depth() const { return options_.depth; }

 private:
  struct alignas(64) Stream {
    const std::vector<SampleRef>* samples = nullptr;
    std::atomic<uint64_t> next{0};   // next index to claim
    std::atomic<uint64_t> limit{0};  // indexes below it may be claimed
    std::atomic<uint32_t> in_flight{0};
    std::unique_ptr<std::atomic<uint32_t>[]> done;    // finished samples per batch
    std::unique_ptr<std::atomic<double>[]> ready_at;  // when each batch finished
    uint64_t batches = 0;                             // the size of done and ready_at
    // Instant steps: how many leading batches are all ready (the step now waited for).
    std::atomic<uint64_t> ready_prefix{0};
  };
  struct Loop;           // one loop thread's queue, buffers and tallies
  struct LoopSample;     // a claimed sample whose pieces are being read
  struct Preprocessing;  // a read sample waiting out its preprocessing time

  void Run(Loop& loop);
  // Run's steps, on the loop's own thread. The two of every read are inline (defined in the
  // .cc, used there alone) so that they stay in Run's loop.
  inline LoopSample* NextPiece(Loop& loop);
  inline void SubmitPiece(Loop& loop, LoopSample& s);
  void CompletePiece(Loop& loop, storage::ReadCompletion& c);
  void FinishSample(Loop& loop, LoopSample& s);
  void FinishPreprocessed(Loop& loop, bool all);
  void FlushRecords(Loop& loop);
  void WaitForWork(Loop& loop, uint64_t generation);
  void StopLoop(Loop& loop);
  bool ClaimSample(LoopSample& sample);
  bool Claim(Stream& s, uint64_t& index, uint64_t& count);
  void StartExtent(LoopSample& sample, size_t k) const;
  void SampleDone(Stream& s, uint64_t index, uint64_t count, double when);
  bool RaiseLimit(Stream& s, uint64_t limit);
  bool MoveWindow(Stream& s, uint64_t steps);
  void Fail(const std::string& message);

  storage::ReadEngine& engine_;
  const dataset::FileTable* files_;
  ReaderOptions options_;
  metrics::IoCharacterizer* io_;
  uint64_t alignment_;
  uint64_t piece_size_;
  bool whole_samples_;
  std::vector<Stream> streams_;
  uint32_t file_offset_ = 0;
  uint64_t batch_size_ = 1;
  bool sequential_ = false;
  // StartPhase calls so far, read by the loops: preprocessing draws differ per epoch.
  std::atomic<uint64_t> phase_{0};
  // The phase's instant_steps (StartPhase), read by the loops as they finish batches.
  std::atomic<uint64_t> instant_steps_{0};

  std::atomic<bool> draining_{true};
  std::atomic<bool> stop_{false};
  // Touched by every loop for every sample: one cache line each.
  alignas(64) std::atomic<uint64_t> in_flight_{0};
  alignas(64) std::atomic<size_t> cursor_{0};

  // Loops sleep here when nothing can be claimed; generation_ bumps on every wake.
  std::mutex work_mutex_;
  std::condition_variable work_cv_;
  // Written under work_mutex_; read without it before a scan (no lock per sample).
  alignas(64) std::atomic<uint64_t> generation_{0};
  unsigned idle_ = 0;

  // The event loop sleeps here; ready_events_ counts finished batches and failures.
  mutable std::mutex loop_mutex_;
  std::condition_variable loop_cv_;
  uint64_t ready_events_ = 0;
  uint64_t seen_events_ = 0;
  std::optional<std::string> error_;

  std::vector<std::unique_ptr<Loop>> loops_;
};

}  // namespace trainbench::loader

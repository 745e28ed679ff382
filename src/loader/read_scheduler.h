// The read scheduler: a small pool of reader threads that pull each accelerator's next
// sample straight from its epoch plan, so the event loop is woken once per finished
// batch, not once per read. Bounds: at most `reads_per_accelerator` (reader.read_threads)
// reads in flight per accelerator, and reads run at most `prefetch_batches`
// (reader.prefetch_size) batches ahead of the batch the accelerator works on.
// A sample is read as the format says: its extent in transfer_size pieces through
// Storage (file handles opened once and kept), or one hyperslab through libhdf5.
// Engines: pread (one piece at a time per thread) or io_uring (up to `depth` pieces in
// flight per thread: deep queues for remote or flash storage with few threads).
// Each thread owns one reused buffer; the bytes are dropped once read (a batch's
// bytes need not be kept to measure how fast storage delivers them).
// Thread safety: StartPhase/Advance/WakeReaders/Wait/Drain are called by one thread
// (the event loop); BatchReady and BytesRead may be called from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "formats/format.h"
#include "loader/sampler.h"
#include "metrics/histogram.h"
#include "storage/storage.h"

namespace trainbench::loader {

class Hdf5Reader;

enum class ReadEngine {
  kPread,  // each reader thread reads one piece at a time with pread
  kUring,  // each reader thread keeps up to `depth` pieces in flight through io_uring
};

struct ReaderOptions {
  ReadEngine engine = ReadEngine::kPread;
  unsigned threads = 1;
  unsigned depth = 1;  // io_uring: pieces in flight per reader thread
  uint64_t transfer_size = 262144;
  bool direct = false;  // O_DIRECT with aligned buffers
  bool hdf5 = false;    // read samples through libhdf5
  uint64_t reads_per_accelerator = 1;
  uint64_t prefetch_batches = 2;
};

class ReadScheduler {
 public:
  // `files`: every file a phase may read (train then eval); kept by pointer.
  ReadScheduler(storage::Storage& storage, const std::vector<formats::WrittenFile>* files,
                ReaderOptions options, size_t accelerators);
  ~ReadScheduler();
  ReadScheduler(const ReadScheduler&) = delete;
  ReadScheduler& operator=(const ReadScheduler&) = delete;

  // Begins a phase (no reads in flight): accelerator k reads (*plans)[k] batch after
  // batch; SampleRef::file + file_offset indexes `files`. Reads start at batch 0.
  void StartPhase(const std::vector<std::vector<SampleRef>>* plans, uint32_t file_offset,
                  uint64_t batch_size);
  // Accelerator `a` now waits for or computes batch `step`: lets reads run ahead of it.
  void Advance(size_t a, uint64_t step);
  // Wakes idle readers after Advance calls (one wake-up for many advances).
  void WakeReaders();
  bool BatchReady(size_t a, uint64_t step) const;
  // When the batch's last read finished (NowSeconds clock); valid once BatchReady. The
  // step loop starts a step from this, not from when it noticed, so its own lateness
  // under CPU load is not charged to storage.
  double BatchReadyTime(size_t a, uint64_t step) const;
  // Sleeps until a batch becomes ready, a read fails, or NowSeconds() reaches deadline.
  void Wait(double deadline);
  // Stops claiming new reads and waits for those in flight.
  void Drain();

  // The first failed read's message (file and offset), if any.
  std::optional<std::string> Error() const;
  uint64_t BytesRead() const;  // returned by reads so far, all threads; live
  uint64_t Reads() const;
  // Latency of every read; call after Drain.
  metrics::Histogram Latencies() const;
  unsigned threads() const { return static_cast<unsigned>(workers_.size()); }

 private:
  struct alignas(64) Stream {
    const std::vector<SampleRef>* samples = nullptr;
    std::atomic<uint64_t> next{0};   // next index to claim
    std::atomic<uint64_t> limit{0};  // indexes below it may be claimed
    std::atomic<uint32_t> in_flight{0};
    std::unique_ptr<std::atomic<uint32_t>[]> done;    // finished reads per batch
    std::unique_ptr<std::atomic<double>[]> ready_at;  // when each batch finished
  };
  struct Worker;

  void Run(Worker& worker);
  void RunUring(Worker& worker);  // uring_reader.cc
  void SampleDone(Stream& s, uint64_t index, uint64_t bytes, Worker& worker);
  bool Claim(Stream& s, uint64_t& index);
  uint64_t ReadOne(Worker& worker, uint32_t file, uint32_t sample);
  storage::RandomAccessFile& File(uint32_t file,
                                  std::unique_ptr<storage::RandomAccessFile>& temporary);
  void Fail(const std::string& message);

  storage::Storage& storage_;
  const std::vector<formats::WrittenFile>* files_;
  ReaderOptions options_;
  uint64_t piece_size_;
  std::vector<Stream> streams_;
  uint32_t file_offset_ = 0;
  uint64_t batch_size_ = 1;

  // Files open lazily, once; then read without a lock.
  std::vector<std::unique_ptr<storage::RandomAccessFile>> handles_;
  std::unique_ptr<std::atomic<bool>[]> handle_ready_;
  std::mutex open_mutex_;
  uint64_t open_budget_ = 0;  // files that may stay open (ulimit -n)
  uint64_t open_count_ = 0;
  std::unique_ptr<Hdf5Reader> hdf5_;

  std::atomic<bool> draining_{true};
  std::atomic<bool> stop_{false};
  // Touched by every reader for every sample: one cache line each.
  alignas(64) std::atomic<uint64_t> in_flight_{0};
  alignas(64) std::atomic<size_t> cursor_{0};

  // Readers sleep here when nothing can be claimed; generation_ bumps on every wake.
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

  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace trainbench::loader

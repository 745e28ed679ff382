#include "loader/read_scheduler.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "loader/dataset_files.h"
#include "loader/hdf5_reader.h"
#include "loader/pieces.h"
#include "loader/read_worker.h"

namespace trainbench::loader {
namespace {

// File handles stay open for the whole run (no open per read), so a dataset of
// thousands of files needs more than the usual soft limit of 1024 descriptors.
// Returns how many files may be kept open; beyond that, reads open and close the file
// each time (slower, and said so).
uint64_t RaiseOpenFileLimit(uint64_t files) {
  constexpr uint64_t kReserve = 256;  // stdio, logs, checkpoints, libraries
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return files;
  const rlim_t wanted = static_cast<rlim_t>(files + kReserve);
  if (limit.rlim_cur < wanted) {
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur >= wanted) return files;
  const uint64_t budget =
      limit.rlim_cur > 2 * kReserve ? limit.rlim_cur - kReserve : limit.rlim_cur / 2;
  LogWarning(
      fmt::format("{} dataset files but at most {} open files (ulimit -n): {} stay open, "
                  "the others are opened for every read; raise the hard limit",
                  files, static_cast<uint64_t>(limit.rlim_cur), budget));
  return budget;
}

}  // namespace

ReadScheduler::ReadScheduler(storage::Storage& storage,
                             const std::vector<formats::WrittenFile>* files, ReaderOptions options,
                             size_t accelerators)
    : storage_(storage),
      files_(files),
      options_(options),
      piece_size_(PieceSize(options.transfer_size, options.direct)),
      streams_(accelerators),
      handles_(files->size()),
      handle_ready_(new std::atomic<bool>[files->size()]) {
  for (size_t i = 0; i < files->size(); ++i) handle_ready_[i].store(false);
  open_budget_ = RaiseOpenFileLimit(files->size());
  if (options_.hdf5) {
    std::vector<std::string> paths;
    for (const auto& f : *files) {
      const auto local = storage.LocalPath(f.path);
      if (!local) throw UsageError("hdf5 datasets must be on a file system (libhdf5 opens paths)");
      paths.push_back(*local);
    }
    hdf5_ = std::make_unique<Hdf5Reader>(std::move(paths));
  }
  const unsigned n = std::max(1u, options_.threads);
  for (unsigned i = 0; i < n; ++i) {
    auto w = std::make_unique<Worker>();
    void* p = std::aligned_alloc(kDirectAlignment, AlignUp(piece_size_, kDirectAlignment));
    if (!p) throw RuntimeError("out of memory for read buffers (reader.transfer_size too large?)");
    w->buffer.reset(static_cast<unsigned char*>(p));
    workers_.push_back(std::move(w));
  }
  for (auto& w : workers_) w->thread = std::thread([this, wp = w.get()] { Run(*wp); });
}

ReadScheduler::~ReadScheduler() {
  draining_.store(true);
  stop_.store(true);
  {
    std::lock_guard<std::mutex> lock(work_mutex_);
    ++generation_;
  }
  work_cv_.notify_all();
  for (auto& w : workers_) w->thread.join();
}

void ReadScheduler::StartPhase(const std::vector<std::vector<SampleRef>>* plans,
                               uint32_t file_offset, uint64_t batch_size) {
  file_offset_ = file_offset;
  batch_size_ = std::max<uint64_t>(1, batch_size);
  for (size_t a = 0; a < streams_.size(); ++a) {
    Stream& s = streams_[a];
    s.samples = &(*plans)[a];
    s.next.store(0);
    s.limit.store(0);
    const uint64_t batches = s.samples->size() / batch_size_ + 1;
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
  Stream& s = streams_[a];
  const uint64_t limit =
      std::min<uint64_t>(s.samples->size(), (step + 1 + options_.prefetch_batches) * batch_size_);
  if (limit > s.limit.load(std::memory_order_relaxed))
    s.limit.store(limit, std::memory_order_release);
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
  for (const auto& w : workers_) total += w->bytes.load(std::memory_order_relaxed);
  return total;
}

uint64_t ReadScheduler::Reads() const {
  uint64_t total = 0;
  for (const auto& w : workers_) total += w->reads.load(std::memory_order_relaxed);
  return total;
}

metrics::Histogram ReadScheduler::Latencies() const {
  metrics::Histogram all;
  for (const auto& w : workers_) all.Merge(w->latency_ns);
  return all;
}

bool ReadScheduler::Claim(Stream& s, uint64_t& index) {
  if (s.samples == nullptr) return false;
  // Cheap checks first: most streams have nothing to give most of the time.
  if (s.next.load(std::memory_order_relaxed) >= s.limit.load(std::memory_order_acquire))
    return false;
  uint32_t flying = s.in_flight.load(std::memory_order_relaxed);
  do {
    if (flying >= options_.reads_per_accelerator) return false;
  } while (!s.in_flight.compare_exchange_weak(flying, flying + 1));
  uint64_t i = s.next.load(std::memory_order_relaxed);
  do {
    if (i >= s.limit.load(std::memory_order_acquire)) {
      s.in_flight.fetch_sub(1);
      return false;
    }
  } while (!s.next.compare_exchange_weak(i, i + 1));
  index = i;
  return true;
}

void ReadScheduler::SampleDone(Stream& s, uint64_t index, uint64_t bytes, Worker& worker) {
  worker.bytes.fetch_add(bytes, std::memory_order_relaxed);
  s.in_flight.fetch_sub(1);
  const uint64_t batch = index / batch_size_;
  if (s.done[batch].fetch_add(1, std::memory_order_acq_rel) + 1 == batch_size_) {
    s.ready_at[batch].store(NowSeconds(), std::memory_order_release);
    {
      std::lock_guard<std::mutex> lock(loop_mutex_);
      ++ready_events_;
    }
    loop_cv_.notify_one();
  }
}

void ReadScheduler::Run(Worker& worker) {
  if (options_.engine == ReadEngine::kUring && !hdf5_) return RunUring(worker);
  const size_t n = streams_.size();
  while (!stop_.load()) {
    const uint64_t generation = generation_.load(std::memory_order_acquire);
    bool found = false;
    // Counted in flight before looking at draining_: Drain stores draining_ and then
    // waits for in_flight_ to reach 0, so a reader either sees draining_ or is waited for.
    in_flight_.fetch_add(1);
    if (!draining_.load()) {
      const size_t start = cursor_.fetch_add(1, std::memory_order_relaxed);
      for (size_t j = 0; j < n && !found; ++j) {
        const size_t a = (start + j) % n;
        Stream& s = streams_[a];
        uint64_t index;
        if (!Claim(s, index)) continue;
        found = true;
        const SampleRef ref = (*s.samples)[index];
        uint64_t bytes = 0;
        try {
          bytes = ReadOne(worker, ref.file + file_offset_, ref.sample);
        } catch (const std::exception& e) {
          Fail(e.what());
        }
        SampleDone(s, index, bytes, worker);
      }
    }
    in_flight_.fetch_sub(1);
    if (found) continue;
    std::unique_lock<std::mutex> lock(work_mutex_);
    ++idle_;
    work_cv_.wait(lock, [&] { return generation_.load() != generation || stop_.load(); });
    --idle_;
  }
}

storage::RandomAccessFile& ReadScheduler::File(
    uint32_t file, std::unique_ptr<storage::RandomAccessFile>& temporary) {
  if (handle_ready_[file].load(std::memory_order_acquire)) return *handles_[file];
  storage::OpenOptions open_options;
  open_options.direct = options_.direct;
  std::lock_guard<std::mutex> lock(open_mutex_);
  if (!handles_[file]) {
    if (open_count_ >= open_budget_) {
      temporary = storage_.Open((*files_)[file].path, open_options);
      return *temporary;
    }
    handles_[file] = storage_.Open((*files_)[file].path, open_options);
    ++open_count_;
  }
  handle_ready_[file].store(true, std::memory_order_release);
  return *handles_[file];
}

uint64_t ReadScheduler::ReadOne(Worker& worker, uint32_t file, uint32_t sample) {
  if (hdf5_) {
    const uint64_t t0 = NowNanoseconds();
    const uint64_t bytes = hdf5_->ReadSample(file, sample, worker.sample_buffer);
    worker.latency_ns.Record(NowNanoseconds() - t0);
    worker.reads.fetch_add(1, std::memory_order_relaxed);
    return bytes;
  }
  const formats::WrittenFile& f = (*files_)[file];
  const formats::SampleExtent extent = ExtentOf(f, sample);
  std::unique_ptr<storage::RandomAccessFile> temporary;  // when over the open-file budget
  storage::RandomAccessFile& handle = File(file, temporary);
  const uint64_t sample_end = extent.offset + extent.length;
  uint64_t total = 0;
  ForEachPiece(extent.offset, extent.length, piece_size_, options_.direct,
               [&](uint64_t offset, uint64_t length) {
                 const uint64_t t0 = NowNanoseconds();
                 const size_t got = handle.ReadAt(offset, worker.buffer.get(), length);
                 worker.latency_ns.Record(NowNanoseconds() - t0);
                 worker.reads.fetch_add(1, std::memory_order_relaxed);
                 total += got;
                 // Under O_DIRECT the widened last piece may end past the file's end.
                 if (got < length && offset + got < sample_end)
                   throw IoError(fmt::format("short read at offset {} of '{}': {} of {} bytes "
                                             "(the file is shorter than its sample index says)",
                                             offset + got, storage_.Describe(f.path), got, length),
                                 0);
               });
  return total;
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

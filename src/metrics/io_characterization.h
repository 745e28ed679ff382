// I/O characterization in the manner of Darshan's POSIX module: counts of opens, reads
// and bytes, access sizes in Darshan's ten buckets, sequential (offset beyond the
// previous read's end in that file) and consecutive (offset exactly at it) reads, and
// how many files were read and re-read. Fed with the reads that happened, as the
// threads that did them hand them over (each thread's in its own order, batches of
// different threads interleaved as they arrive: Darshan sees threads interleave too).
// Thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace trainbench::metrics {

inline constexpr size_t kAccessSizeBuckets = 10;

// Darshan's bucket for an access of `bytes`: 0-100, 100-1K, 1K-10K, 10K-100K, 100K-1M,
// 1M-4M, 4M-10M, 10M-100M, 100M-1G, 1G+ (upper bounds inclusive, as Darshan counts them).
size_t AccessSizeBucket(uint64_t bytes);
// "0_100", "100_1K", ... "1G_PLUS": Darshan's counter suffixes.
const std::array<std::string, kAccessSizeBuckets>& AccessSizeBucketNames();

struct IoCounters {
  uint64_t opens = 0;
  uint64_t reads = 0;
  uint64_t bytes_read = 0;
  std::array<uint64_t, kAccessSizeBuckets> size_buckets{};
  uint64_t sequential_reads = 0;
  uint64_t consecutive_reads = 0;
  uint64_t files_read = 0;    // files with at least one read
  uint64_t files_reread = 0;  // files with more bytes read than they hold
  uint64_t max_read_bytes = 0;
};

// One read that happened: which file (index), where, how many bytes it returned.
struct ReadRecord {
  uint32_t file = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

class IoCharacterizer {
 public:
  // `file_sizes` (file i's size at [i]) must outlive the characterizer.
  explicit IoCharacterizer(std::span<const uint64_t> file_sizes);

  void OnOpens(uint64_t count);
  void OnReads(std::span<const ReadRecord> reads);
  void OnRead(size_t file, uint64_t offset, uint64_t bytes) {
    const ReadRecord r{static_cast<uint32_t>(file), offset, bytes};
    OnReads({&r, 1});
  }
  // The counters, with the per-file tallies folded in.
  IoCounters Counters() const;

 private:
  // 16 bytes a file: a run over a million files keeps a million of these.
  struct FileState {
    uint64_t last_end_plus_one = 0;  // 0: not read yet
    uint64_t bytes = 0;
  };
  void Record(const ReadRecord& r);  // with mutex_ held

  mutable std::mutex mutex_;
  std::span<const uint64_t> sizes_;
  std::vector<FileState> files_;
  IoCounters counters_;
};

}  // namespace trainbench::metrics

#include "metrics/io_characterization.h"

#include <algorithm>

namespace trainbench::metrics {

size_t AccessSizeBucket(uint64_t bytes) {
  static constexpr uint64_t kUpper[kAccessSizeBuckets - 1] = {100,
                                                              1024,
                                                              10 * 1024,
                                                              100 * 1024,
                                                              1024 * 1024,
                                                              4 * 1024 * 1024,
                                                              10 * 1024 * 1024,
                                                              100 * 1024 * 1024,
                                                              1024 * 1024 * 1024};
  for (size_t i = 0; i < kAccessSizeBuckets - 1; ++i)
    if (bytes <= kUpper[i]) return i;
  return kAccessSizeBuckets - 1;
}

const std::array<std::string, kAccessSizeBuckets>& AccessSizeBucketNames() {
  static const std::array<std::string, kAccessSizeBuckets> kNames = {
      "0_100", "100_1K", "1K_10K",   "10K_100K", "100K_1M",
      "1M_4M", "4M_10M", "10M_100M", "100M_1G",  "1G_PLUS"};
  return kNames;
}

IoCharacterizer::IoCharacterizer(std::span<const uint64_t> file_sizes)
    : sizes_(file_sizes), files_(sizes_.size()) {}

void IoCharacterizer::OnOpens(uint64_t count) {
  std::lock_guard<std::mutex> lock(mutex_);
  counters_.opens += count;
}

void IoCharacterizer::OnReads(std::span<const ReadRecord> reads) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& r : reads) Record(r);
}

void IoCharacterizer::Record(const ReadRecord& r) {
  const uint64_t offset = r.offset, bytes = r.bytes;
  FileState& f = files_[r.file];
  ++counters_.reads;
  counters_.bytes_read += bytes;
  ++counters_.size_buckets[AccessSizeBucket(bytes)];
  counters_.max_read_bytes = std::max(counters_.max_read_bytes, bytes);
  if (f.last_end_plus_one != 0) {
    // Darshan: consecutive reads are also sequential.
    const uint64_t last_end = f.last_end_plus_one - 1;
    if (offset >= last_end) ++counters_.sequential_reads;
    if (offset == last_end) ++counters_.consecutive_reads;
  }
  f.last_end_plus_one = offset + bytes + 1;
  f.bytes += bytes;
}

IoCounters IoCharacterizer::Counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  IoCounters c = counters_;
  for (size_t i = 0; i < files_.size(); ++i) {
    if (files_[i].last_end_plus_one == 0) continue;
    ++c.files_read;
    if (files_[i].bytes > sizes_[i]) ++c.files_reread;
  }
  return c;
}

}  // namespace trainbench::metrics

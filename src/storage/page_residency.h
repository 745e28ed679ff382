// How much of each read of a file the page cache held before the read: mincore(2) over the
// read's pages, for the file systems whose reads /proc/self/io never counts (NFS, CephFS,
// Lustre, FUSE clients such as ceph-fuse): there read_bytes stays 0 whatever was fetched, and
// a cold run would look served by the cache.
//
// Each file is mapped whole, read-only and shared, and never touched, so mincore asks the
// page cache about its pages without faulting one in (no fd is kept: the mapping outlives its
// open). A page the kernel's read-ahead brought in for an earlier read looks resident by the
// time its own read comes, though storage sent it for this run: so the pages a read may pull
// in ahead of itself (its length and twice the device's read-ahead) are looked at once per
// pass, before the read that could fetch them, in 2 MiB chunks, and a page not resident then
// counts as fetched from storage (whole) when it is first read, whoever fetched it in between.
// A page read again in the same pass counts as the cache's if it is still resident (it is,
// once read), as storage's if it was evicted since.
// What it cannot see: a FUSE client's own cache in user space (ceph-fuse's object cacher), a
// server's cache, and reads that bypass the page cache (O_DIRECT, FUSE direct_io: then the
// file cannot be mapped and its bytes count as unchecked).
// Cost: one mincore per read over its pages, and one per 2 MiB chunk per pass; 1 bit per
// page of the files read (32 MiB per TiB) for the pass's ledger.
// Thread-safe: BeforeRead from any thread; NewPass only with no read being checked.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "storage/read_queue.h"

namespace trainbench::storage {

struct ResidencyCounts {
  uint64_t resident_bytes = 0;  // of the reads: in the page cache before the read
  // The pages of the reads that were not, so came from storage: whole pages, as storage sends
  // them (and /proc/self/io counts them), each once a pass unless it was evicted meanwhile.
  uint64_t fetched_bytes = 0;
  uint64_t unchecked_bytes = 0;  // of the reads of files mincore could not look at
  double check_seconds = 0;      // the checks' own CPU time (sampled), over the threads
  std::string error;             // why the first file that could not be looked at could not
};

class PageResidency {
 public:
  // `objects` files; `path_of(i)` names file i on the local file system (asked once, at
  // its first read).
  PageResidency(size_t objects, std::function<std::string(uint32_t)> path_of);
  ~PageResidency();
  PageResidency(const PageResidency&) = delete;
  PageResidency& operator=(const PageResidency&) = delete;

  // Counts bytes [offset, offset + length) of file `object` (clipped to its size) as the
  // cache's or storage's. Called before the read is issued.
  void BeforeRead(uint32_t object, uint64_t offset, uint64_t length);
  // A new pass over the files (an epoch, an evaluation): what is resident is looked at
  // afresh, so a page evicted since the last pass counts as fetched again.
  void NewPass();
  ResidencyCounts Counts() const;

 private:
  struct File;
  struct Mapping;
  File& FileOf(uint32_t object);
  std::shared_ptr<const Mapping> MappingOf(File& file, uint32_t object);
  void Forget(uint32_t object);
  void LookAhead(File& file, const Mapping& map, uint64_t first_chunk, uint64_t last_chunk);
  void Count(File& file, const Mapping& map, uint64_t begin, uint64_t end);
  void Unchecked(uint64_t bytes, const std::string& why);

  const size_t objects_;
  std::function<std::string(uint32_t)> path_of_;
  std::unique_ptr<std::atomic<File*>[]> files_;
  std::atomic<uint32_t> pass_{1};
  std::atomic<uint64_t> resident_{0}, fetched_{0}, unchecked_{0};
  // Checks, those whose CPU time was measured, and their CPU time.
  std::atomic<uint64_t> checks_{0}, timed_checks_{0}, timed_ns_{0};
  mutable std::mutex mutex_;     // guards the fields below
  std::deque<uint32_t> mapped_;  // files with a mapping, oldest first (a bounded number)
  std::string error_;
};

// `engine` with every read's range checked by `residency` before it is submitted. The
// engine must read byte ranges of the files `residency` names (not whole samples).
std::unique_ptr<ReadEngine> WithResidencyCheck(std::unique_ptr<ReadEngine> engine,
                                               std::shared_ptr<PageResidency> residency);

}  // namespace trainbench::storage

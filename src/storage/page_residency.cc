#include "storage/page_residency.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>

namespace trainbench::storage {
namespace {

// Pages looked at together once a pass: 2 MiB of 4 KiB pages, a whole number of ledger words.
constexpr uint64_t kChunkPages = 512;
constexpr uint64_t kWordsPerChunk = kChunkPages / 64;
// Pages asked of mincore at once while counting a read (its vector is on the stack).
constexpr uint64_t kBatchPages = 1024;
// Mappings kept at once: each is a VMA, and vm.max_map_count (65530 by default) is shared
// with malloc, thread stacks and libraries. A file beyond it is mapped again when read.
constexpr size_t kMaxMappings = 16384;
// The read-ahead assumed where sysfs does not say (a container's overlay, an unknown bdi):
// larger than any default, so a page read-ahead brings in has been looked at before.
constexpr uint64_t kUnknownReadAheadBytes = uint64_t{16} << 20;

// One check in this many has its CPU time measured.
constexpr uint64_t kTimedEvery = 16;

uint64_t ThreadCpuNanoseconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1000000000 + static_cast<uint64_t>(t.tv_nsec);
}

uint64_t PageBytes() {
  static const uint64_t page = [] {
    const long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<uint64_t>(p) : uint64_t{4096};
  }();
  return page;
}

// The kernel's read-ahead window for files on device `dev`: a block device's queue (the
// whole disk's for a partition), or the bdi that NFS, CephFS and FUSE register under the
// anonymous device's number.
uint64_t ReadAheadBytes(dev_t dev) {
  static std::mutex mutex;
  static std::map<dev_t, uint64_t> known;
  std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = known.find(dev); it != known.end()) return it->second;
  const std::string id = fmt::format("{}:{}", major(dev), minor(dev));
  uint64_t bytes = kUnknownReadAheadBytes;
  for (const std::string& path : {"/sys/dev/block/" + id + "/queue/read_ahead_kb",
                                  "/sys/dev/block/" + id + "/../queue/read_ahead_kb",
                                  "/sys/class/bdi/" + id + "/read_ahead_kb",
                                  "/sys/class/bdi/" + id + "-fuseblk/read_ahead_kb"}) {
    std::ifstream in(path);
    uint64_t kb = 0;
    if (in >> kb) {
      bytes = kb * 1024;
      break;
    }
  }
  known[dev] = bytes;
  return bytes;
}

}  // namespace

// A file mapped whole, read-only, never touched; unmapped when the last user lets go.
struct PageResidency::Mapping {
  const unsigned char* base = nullptr;  // null for an empty file
  uint64_t size = 0;
  ~Mapping() {
    if (base) ::munmap(const_cast<unsigned char*>(base), size);
  }
};

struct PageResidency::File {
  std::mutex mutex;  // the first open, a mapping made again, a chunk's look
  std::atomic<std::shared_ptr<const Mapping>> mapping;
  // Set under `mutex` before the first mapping is published, read after it is loaded.
  bool opened = false;
  bool failed = false;  // could not be mapped: its reads are unchecked
  uint64_t size = 0;
  uint64_t read_ahead = 0;
  // A bit per page: not resident when its chunk was looked at this pass, and not read since.
  std::unique_ptr<std::atomic<uint64_t>[]> not_resident;
  std::unique_ptr<std::atomic<uint32_t>[]> looked;  // per chunk: the pass it was looked at
};

PageResidency::PageResidency(size_t objects, std::function<std::string(uint32_t)> path_of)
    : objects_(objects),
      path_of_(std::move(path_of)),
      files_(std::make_unique<std::atomic<File*>[]>(objects)) {}

PageResidency::~PageResidency() {
  for (size_t i = 0; i < objects_; ++i) delete files_[i].load();
}

PageResidency::File& PageResidency::FileOf(uint32_t object) {
  if (File* f = files_[object].load(std::memory_order_acquire)) return *f;
  auto fresh = std::make_unique<File>();
  File* expected = nullptr;
  if (files_[object].compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel))
    return *fresh.release();
  return *expected;
}

std::shared_ptr<const PageResidency::Mapping> PageResidency::MappingOf(File& file,
                                                                       uint32_t object) {
  if (auto map = file.mapping.load(std::memory_order_acquire)) return map;
  std::lock_guard<std::mutex> lock(file.mutex);
  if (auto map = file.mapping.load(std::memory_order_acquire); map || file.failed) return map;
  const std::string path = path_of_(object);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    const int error_number = errno;
    Unchecked(0, fmt::format("cannot open '{}': {}", path, std::strerror(error_number)));
    if (fd >= 0) ::close(fd);
    file.failed = true;
    return nullptr;
  }
  if (!file.opened) {
    file.size = static_cast<uint64_t>(st.st_size);
    file.read_ahead = ReadAheadBytes(st.st_dev);
    const uint64_t pages = (file.size + PageBytes() - 1) / PageBytes();
    const uint64_t chunks = (pages + kChunkPages - 1) / kChunkPages;
    file.not_resident = std::make_unique<std::atomic<uint64_t>[]>(chunks * kWordsPerChunk);
    file.looked = std::make_unique<std::atomic<uint32_t>[]>(chunks);
    file.opened = true;
  }
  auto map = std::make_shared<Mapping>();
  map->size = file.size;
  if (file.size > 0) {
    void* base = ::mmap(nullptr, file.size, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
      // FUSE refuses to map a file its daemon opened direct_io: that file has no page cache.
      const int error_number = errno;
      Unchecked(
          0, fmt::format("cannot map '{}' to ask mincore: {}", path, std::strerror(error_number)));
      ::close(fd);
      file.failed = true;
      return nullptr;
    }
    map->base = static_cast<const unsigned char*>(base);
  }
  ::close(fd);  // the mapping keeps the file
  file.mapping.store(map, std::memory_order_release);
  if (map->base) {
    std::lock_guard<std::mutex> hold(mutex_);
    mapped_.push_back(object);
    if (mapped_.size() > kMaxMappings) {
      const uint32_t oldest = mapped_.front();
      mapped_.pop_front();
      Forget(oldest);
    }
  }
  return map;
}

// Drops a file's mapping (it is unmapped once the checks using it end); mutex_ is held.
void PageResidency::Forget(uint32_t object) {
  if (File* f = files_[object].load(std::memory_order_acquire)) f->mapping.store(nullptr);
}

void PageResidency::LookAhead(File& file, const Mapping& map, uint64_t first_chunk,
                              uint64_t last_chunk) {
  const uint32_t pass = pass_.load(std::memory_order_acquire);
  uint64_t c = first_chunk;
  while (c <= last_chunk && file.looked[c].load(std::memory_order_acquire) == pass) ++c;
  if (c > last_chunk) return;
  const uint64_t page = PageBytes();
  const uint64_t pages = (map.size + page - 1) / page;
  unsigned char vec[kChunkPages];
  std::lock_guard<std::mutex> lock(file.mutex);
  for (; c <= last_chunk; ++c) {
    if (file.looked[c].load(std::memory_order_relaxed) == pass) continue;
    const uint64_t first = c * kChunkPages;
    const uint64_t n = std::min(kChunkPages, pages - first);
    // A chunk mincore cannot look at counts as not resident: its reads as storage's.
    if (::mincore(const_cast<unsigned char*>(map.base) + first * page, n * page, vec) != 0)
      std::fill(vec, vec + n, 0);
    for (uint64_t w = 0; w < kWordsPerChunk; ++w) {
      uint64_t bits = 0;
      for (uint64_t i = 0; i < 64 && w * 64 + i < n; ++i)
        if (!(vec[w * 64 + i] & 1)) bits |= uint64_t{1} << i;
      file.not_resident[c * kWordsPerChunk + w].store(bits, std::memory_order_relaxed);
    }
    file.looked[c].store(pass, std::memory_order_release);
  }
}

void PageResidency::Count(File& file, const Mapping& map, uint64_t begin, uint64_t end) {
  const uint64_t page = PageBytes();
  uint64_t resident = 0, fetched = 0;
  unsigned char vec[kBatchPages];
  for (uint64_t first = begin / page; first * page < end;) {
    const uint64_t last = std::min((end - 1) / page + 1, first + kBatchPages);  // exclusive
    if (::mincore(const_cast<unsigned char*>(map.base) + first * page, (last - first) * page,
                  vec) != 0)
      std::fill(vec, vec + (last - first), 0);
    for (uint64_t p = first; p < last;) {
      // The ledger's bits of this word in the range, taken once: a page not resident at the
      // look is the storage's for the one read that takes it, resident or not by now.
      const uint64_t w = p / 64;
      const uint64_t word_end = std::min(last, (w + 1) * 64);
      const uint64_t n = word_end - p;
      const uint64_t mask = (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << (p % 64);
      uint64_t taken = 0;
      if (file.not_resident[w].load(std::memory_order_relaxed) & mask)
        taken = file.not_resident[w].fetch_and(~mask, std::memory_order_relaxed) & mask;
      for (; p < word_end; ++p) {
        // Storage sends whole pages: a page fetched counts whole (as /proc/self/io counts it),
        // so reads smaller than a page, or across pages, are not half the cache's.
        if (((taken >> (p % 64)) & 1) || !(vec[p - first] & 1))
          fetched += std::min(map.size, (p + 1) * page) - p * page;
        else
          resident += std::min(end, (p + 1) * page) - std::max(begin, p * page);
      }
    }
    first = last;
  }
  resident_.fetch_add(resident, std::memory_order_relaxed);
  fetched_.fetch_add(fetched, std::memory_order_relaxed);
}

void PageResidency::BeforeRead(uint32_t object, uint64_t offset, uint64_t length) {
  // The checks' CPU time is sampled (a thread's CPU clock is a system call of its own):
  // one check in kTimedEvery or so, scaled up in Counts.
  // Drawn at random: every kTimedEvery-th check of a thread was not a fair sample (the
  // costlier checks, those that look ahead at a new chunk, come at a rhythm of their own).
  static thread_local uint64_t draw = reinterpret_cast<uintptr_t>(&draw) | 1;
  draw ^= draw << 13;
  draw ^= draw >> 7;
  draw ^= draw << 17;
  checks_.fetch_add(1, std::memory_order_relaxed);
  const bool timed = draw % kTimedEvery == 0;
  if (timed) timed_checks_.fetch_add(1, std::memory_order_relaxed);
  const uint64_t t0 = timed ? ThreadCpuNanoseconds() : 0;
  File& file = FileOf(object);
  if (const auto map = MappingOf(file, object)) {
    const uint64_t end = std::min(map->size, offset + length);
    if (offset < end) {
      // The pages this read may bring in ahead of itself are looked at before it.
      const uint64_t ahead = 2 * std::max(file.read_ahead, length);
      const uint64_t last = std::min(map->size, end + ahead) - 1;
      const uint64_t chunk = kChunkPages * PageBytes();
      LookAhead(file, *map, offset / chunk, last / chunk);
      Count(file, *map, offset, end);
    }
  } else {
    Unchecked(length, "");
  }
  if (timed) timed_ns_.fetch_add(ThreadCpuNanoseconds() - t0, std::memory_order_relaxed);
}

void PageResidency::Unchecked(uint64_t bytes, const std::string& why) {
  unchecked_.fetch_add(bytes, std::memory_order_relaxed);
  if (why.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_.empty()) error_ = why;
}

void PageResidency::NewPass() { pass_.fetch_add(1, std::memory_order_acq_rel); }

ResidencyCounts PageResidency::Counts() const {
  ResidencyCounts c;
  c.resident_bytes = resident_.load();
  c.fetched_bytes = fetched_.load();
  c.unchecked_bytes = unchecked_.load();
  const uint64_t checks = checks_.load();
  const uint64_t timed = timed_checks_.load();
  if (timed > 0)
    c.check_seconds = static_cast<double>(timed_ns_.load()) * 1e-9 * static_cast<double>(checks) /
                      static_cast<double>(timed);
  std::lock_guard<std::mutex> lock(mutex_);
  c.error = error_;
  return c;
}

namespace {

class CheckedQueue : public ReadQueue {
 public:
  CheckedQueue(std::unique_ptr<ReadQueue> queue, PageResidency& residency)
      : queue_(std::move(queue)), residency_(residency) {}
  void Submit(const ReadRequest& request) override {
    residency_.BeforeRead(request.object, request.offset, request.length);
    queue_->Submit(request);
  }
  size_t Reap(std::span<ReadCompletion> out, size_t min, double timeout_s) override {
    return queue_->Reap(out, min, timeout_s);
  }
  unsigned Depth() const override { return queue_->Depth(); }

 private:
  std::unique_ptr<ReadQueue> queue_;
  PageResidency& residency_;
};

class CheckedEngine : public ForwardingEngine {
 public:
  CheckedEngine(std::unique_ptr<ReadEngine> engine, std::shared_ptr<PageResidency> residency)
      : ForwardingEngine(std::move(engine)), residency_(std::move(residency)) {}
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    return std::make_unique<CheckedQueue>(Wrapped().NewQueue(depth), *residency_);
  }

 private:
  std::shared_ptr<PageResidency> residency_;
};

}  // namespace

std::unique_ptr<ReadEngine> WithResidencyCheck(std::unique_ptr<ReadEngine> engine,
                                               std::shared_ptr<PageResidency> residency) {
  return std::make_unique<CheckedEngine>(std::move(engine), std::move(residency));
}

}  // namespace trainbench::storage

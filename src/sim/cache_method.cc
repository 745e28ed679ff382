#include "sim/cache_method.h"

#include <fmt/format.h>

#include <cstdlib>

#include "common/error.h"
#include "common/units.h"
#include "storage/mount_info.h"

namespace trainbench::sim {
namespace {

// A file system whose reads /proc/self/io's read_bytes does not count: the kernel counts a
// process's reads where it submits them to a block device, and a network client (NFS, CephFS,
// Lustre) or a FUSE daemon fetches them without one.
bool ProcIoBlind(const std::string& fs_type) {
  return storage::IsNetworkFileSystem(fs_type) || fs_type.rfind("fuse", 0) == 0;
}

constexpr const char* kMincoreWords =
    "the pages resident in the page cache before each read "
    "(mincore); the rest came from storage";

}  // namespace

CacheMethod ChooseCacheMethod(const CacheMethodInputs& in) {
  if (!in.file_system)
    return {"none",
            "the dataset is on object storage: this host's page cache never holds its objects, "
            "and /proc/self/io does not see network reads"};
  if (in.direct) return {"none", "reader.odirect: O_DIRECT reads bypass the page cache"};
  if (in.null_engine) return {"none", "the null engine reads nothing"};
  const std::string fs = in.fs_type.empty() ? "an unknown file system" : in.fs_type;
  const bool blind = ProcIoBlind(in.fs_type);
  const std::string proc_words =
      fmt::format("the bytes {}'s device read for this process (/proc/self/io read_bytes)", fs);
  if (in.forced == "proc_io") {
    if (!in.proc_io_available)
      return {"none", fmt::format("{}=proc_io, but /proc/self/io cannot be read here",
                                  kCacheMethodVariable)};
    return {"proc_io", fmt::format("{}=proc_io: {}{}", kCacheMethodVariable, proc_words,
                                   blind ? ", which it does not count on this file system" : "")};
  }
  if (in.whole_samples) {
    if (blind || !in.proc_io_available)
      return {"none", fmt::format("a library reads the samples itself (their byte ranges are its "
                                  "own), and /proc/self/io does not count {}'s reads",
                                  fs)};
    return {"proc_io", proc_words};
  }
  if (in.forced == "mincore")
    return {"mincore", fmt::format("{}=mincore: {}", kCacheMethodVariable, kMincoreWords)};
  if (blind)
    return {"mincore", fmt::format("the data is on {}, whose reads /proc/self/io does not "
                                   "count: {}",
                                   fs, kMincoreWords)};
  if (!in.proc_io_available)
    return {"mincore", fmt::format("/proc/self/io cannot be read here: {}", kMincoreWords)};
  return {"proc_io", proc_words};
}

std::string ReadCacheMethodOverride() {
  const char* value = std::getenv(kCacheMethodVariable);
  if (!value) return "";
  const std::string v = value;
  if (v.empty() || v == "auto" || v == "proc_io" || v == "mincore") return v;
  throw UsageError(
      fmt::format("{}={}: it takes proc_io, mincore or auto", kCacheMethodVariable, v));
}

metrics::CacheRecord CacheRecordOf(const CacheMethod& method, const metrics::ProcessIo& before,
                                   const metrics::ProcessIo& after,
                                   const std::optional<storage::ResidencyCounts>& residency) {
  metrics::CacheRecord c;
  c.method = method.method;
  c.reason = method.reason;
  if (c.method == "proc_io" && after.available)
    c.storage_read_bytes = after.read_bytes - before.read_bytes;
  if (c.method != "mincore" || !residency) return c;
  const storage::ResidencyCounts& r = *residency;
  c.resident_bytes = r.resident_bytes;
  c.unchecked_bytes = r.unchecked_bytes;
  c.check_seconds = r.check_seconds;
  // What mincore could not look at counts as storage's: the figure errs away from the cache.
  c.storage_read_bytes = r.fetched_bytes + r.unchecked_bytes;
  if (r.unchecked_bytes > 0 && r.resident_bytes + r.fetched_bytes == 0) {
    c.method = "none";
    c.reason = "mincore could not look at the files: " + r.error;
  } else if (r.unchecked_bytes > 0) {
    c.reason += fmt::format("; {} of files it could not look at count as storage's ({})",
                            FormatBytes(static_cast<double>(r.unchecked_bytes)), r.error);
  }
  return c;
}

}  // namespace trainbench::sim

// What a reader tells the kernel about its use of a file's pages (posix_fadvise on the whole
// file when it is opened), as sai3-bench's page_cache_mode does through s3dlio: normal,
// sequential (read-ahead widened), random (read-ahead off), dontneed (the file's cached pages
// dropped, so its reads start from storage), auto (sequential for files of 64 MiB or more,
// random below). Only file systems take hints; other storage ignores them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace trainbench::storage {

enum class PageCacheHint { kNone, kNormal, kSequential, kRandom, kDontNeed, kAuto };

inline constexpr uint64_t kAutoSequentialBytes = uint64_t{64} << 20;

// "normal", "sequential", "random", "dontneed" or "auto"; nullopt for anything else.
std::optional<PageCacheHint> ParsePageCacheHint(std::string_view name);

// Advises the kernel on open file `fd` (kNone: nothing). A refused hint is ignored: it is
// advice, and the reads are the same without it.
void ApplyPageCacheHint(int fd, PageCacheHint hint);

}  // namespace trainbench::storage

#include "storage/page_cache_hint.h"

#include <fcntl.h>
#include <sys/stat.h>

namespace trainbench::storage {

std::optional<PageCacheHint> ParsePageCacheHint(std::string_view name) {
  if (name == "normal") return PageCacheHint::kNormal;
  if (name == "sequential") return PageCacheHint::kSequential;
  if (name == "random") return PageCacheHint::kRandom;
  if (name == "dontneed") return PageCacheHint::kDontNeed;
  if (name == "auto") return PageCacheHint::kAuto;
  return std::nullopt;
}

void ApplyPageCacheHint(int fd, PageCacheHint hint) {
  int advice = POSIX_FADV_NORMAL;
  switch (hint) {
    case PageCacheHint::kNone:
      return;
    case PageCacheHint::kNormal:
      break;
    case PageCacheHint::kSequential:
      advice = POSIX_FADV_SEQUENTIAL;
      break;
    case PageCacheHint::kRandom:
      advice = POSIX_FADV_RANDOM;
      break;
    case PageCacheHint::kDontNeed:
      advice = POSIX_FADV_DONTNEED;
      break;
    case PageCacheHint::kAuto: {
      struct stat st {};
      const bool large =
          ::fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) >= kAutoSequentialBytes;
      advice = large ? POSIX_FADV_SEQUENTIAL : POSIX_FADV_RANDOM;
      break;
    }
  }
  (void)::posix_fadvise(fd, 0, 0, advice);
}

}  // namespace trainbench::storage

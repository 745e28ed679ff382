#include "train/cpu/retained_heap.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace trainbench::train {

namespace {

#if defined(__GLIBC__)
// glibc's documented defaults (mallopt(3)); setting either also stops its dynamic mmap
// threshold, which only ever rises to 32 MiB.
constexpr int kDefaultMmapMax = 65536;
constexpr int kDefaultTrimThreshold = 128 * 1024;
#endif

}  // namespace

RetainedHeap::RetainedHeap() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_MAX, 0);  // large blocks from the heap too
  // and freed memory never trimmed: a batch-32 step frees gigabytes at its end, which a
  // finite threshold would hand back (mallopt(3): -1 disables trimming)
  mallopt(M_TRIM_THRESHOLD, -1);
#endif
}

RetainedHeap::~RetainedHeap() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_MAX, kDefaultMmapMax);
  mallopt(M_TRIM_THRESHOLD, kDefaultTrimThreshold);
#endif
}

}  // namespace trainbench::train

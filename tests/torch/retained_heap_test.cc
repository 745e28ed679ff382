// RetainedHeap: while it lives, a block above glibc's largest mmap threshold (32 MiB), freed
// and asked for again, comes back without the kernel faulting its pages in anew, as each
// CPU training step's activations do.
#include "train/cpu/retained_heap.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>

namespace trainbench::train {
namespace {

long MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Allocates, touches every page of and frees a 96 MiB block; returns the faults it took.
long TouchLargeBlock() {
  constexpr size_t kBytes = size_t{96} << 20;
  const long before = MinorFaults();
  char* p = static_cast<char*>(std::malloc(kBytes));
  std::memset(p, 1, kBytes);
  asm volatile("" : : "r"(p) : "memory");  // the stores are not dead: keep them
  std::free(p);
  return MinorFaults() - before;
}

TEST(RetainedHeapTest, ALargeBlockComesBackWithoutFaults) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "glibc's mallopt only";
#endif
  // Without it glibc maps the block anew each time: 24,576 pages of 4 KiB.
  EXPECT_GT(TouchLargeBlock(), 10000);
  EXPECT_GT(TouchLargeBlock(), 10000);
  RetainedHeap heap;
  TouchLargeBlock();  // the heap grows once
  EXPECT_LT(TouchLargeBlock(), 100);
}

}  // namespace
}  // namespace trainbench::train

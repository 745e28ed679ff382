// Runs a job over indices [0, count) on a pool of threads, each taking the next index.
// The first exception stops the others from taking more work and is rethrown to the
// caller after all threads have joined; an interrupt request (Ctrl-C) stops taking
// work and throws Interrupted.
#pragma once

#include <cstdint>
#include <functional>

namespace trainbench::dataset {

void ParallelFor(uint64_t count, unsigned threads, const std::function<void(uint64_t)>& job);

}  // namespace trainbench::dataset

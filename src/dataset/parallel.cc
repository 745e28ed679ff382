#include "dataset/parallel.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/interrupt.h"

namespace trainbench::dataset {

void ParallelFor(uint64_t count, unsigned threads, const std::function<void(uint64_t)>& job) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  if (threads > count) threads = static_cast<unsigned>(count > 0 ? count : 1);
  std::atomic<uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto worker = [&] {
    while (!failed.load() && !InterruptRequested()) {
      const uint64_t i = next.fetch_add(1);
      if (i >= count) return;
      try {
        job(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        failed.store(true);
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
  if (InterruptRequested()) throw Interrupted();
}

}  // namespace trainbench::dataset

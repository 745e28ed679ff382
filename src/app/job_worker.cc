#include "app/job_worker.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <thread>

#include "common/interrupt.h"

namespace trainbench::app {

void RunShowingStatus(const std::function<void()>& work, const std::function<std::string()>& status,
                      LiveDisplay& display) {
  std::exception_ptr failure;
  std::atomic<bool> ended{false};
  std::thread worker([&] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    ended = true;
  });
  while (true) {
    const std::string line = status() + "\n";
    display.Show(line, line);
    if (ended || InterruptRequested()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  worker.join();
  display.Clear();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace trainbench::app

#include "app/frame/job_worker.h"

#include "common/status_ticker.h"

namespace trainbench::app {

void RunShowingStatus(const std::function<void()>& work, const std::function<std::string()>& status,
                      LiveDisplay& display) {
  struct Erase {
    LiveDisplay& display;
    ~Erase() { display.Clear(); }
  } erase{display};
  const StatusTicker ticker(
      display, [&status] { return status() + "\n"; }, 0.1);
  work();
}

}  // namespace trainbench::app

#include "common/status_ticker.h"

#include <chrono>

namespace trainbench {

StatusTicker::StatusTicker(LiveDisplay& display, std::function<std::string()> status,
                           double every_s)
    : display_(display), status_(std::move(status)), every_s_(every_s) {
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      lock.unlock();
      const std::string block = status_();
      display_.Show(block, block);
      lock.lock();
      stop_cv_.wait_for(lock, std::chrono::duration<double>(every_s_), [this] { return stop_; });
    }
  });
}

StatusTicker::~StatusTicker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
}

}  // namespace trainbench

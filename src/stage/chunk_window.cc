#include "stage/chunk_window.h"

#include <cstddef>

namespace trainbench::stage {

void ChunkWindow::Reset(const std::vector<FetchItem>& items, bool all) {
  items_ = items.size();
  remaining_.assign(items.size(), 0);
  open_.clear();
  next_open_ = 0;
  queue_.clear();
  for (size_t i = 0; i < items.size(); ++i)
    for (uint64_t c = 0; c < ChunkCount(items[i]); ++c)
      if (all || !items[i].done[c]) {
        queue_.emplace_back(i, c);
        ++remaining_[i];
      }
}

void ChunkWindow::OpenNext(size_t window, const FetchHooks& hooks) {
  while (next_open_ < items_ && open_.size() < window) {
    const size_t i = next_open_++;
    if (hooks.open) hooks.open(i);
    open_.push_back(i);
  }
}

std::optional<std::pair<size_t, uint64_t>> ChunkWindow::Next() const {
  if (queue_.empty()) return std::nullopt;
  if (queue_.front().first >= next_open_) return std::nullopt;  // not open yet: the window is full
  return queue_.front();
}

void ChunkWindow::Retire(const std::function<bool(size_t)>& handing_over, const FetchHooks& hooks) {
  for (size_t k = 0; k < open_.size();) {
    const size_t i = open_[k];
    if (remaining_[i] > 0 || handing_over(i)) {
      ++k;
      continue;
    }
    if (hooks.finished) hooks.finished(i);
    open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(k));
  }
}

}  // namespace trainbench::stage

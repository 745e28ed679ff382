// The range fetcher's chunks still to fetch, and the window of items open: items are opened
// in order (FetchHooks::open) while fewer than the window's are open, chunks are handed out
// only from open items, and an item is retired (FetchHooks::finished) once its chunks are all
// fetched and handed over, so a prefix of a million objects holds descriptors only for the
// objects in flight. Not thread-safe: the fetch's loop thread.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "stage/range_fetcher.h"

namespace trainbench::stage {

class ChunkWindow {
 public:
  // A fetch of `items` begins: every chunk not done is queued (every chunk, with `all`),
  // nothing is open.
  void Reset(const std::vector<FetchItem>& items, bool all);
  // Opens the next items in order while fewer than `window` are open.
  void OpenNext(size_t window, const FetchHooks& hooks);
  // The next chunk queued (item, chunk), if its item is open.
  std::optional<std::pair<size_t, uint64_t>> Next() const;
  // Takes the chunk Next() gave.
  void Take() { queue_.pop_front(); }
  // A chunk taken is fetched.
  void Fetched(size_t item) { --remaining_[item]; }
  // Retires each open item whose chunks are all fetched, and that `handing_over` says has no
  // bytes left to hand over, making room in the window.
  void Retire(const std::function<bool(size_t)>& handing_over, const FetchHooks& hooks);
  // Nothing queued, open or still to open.
  bool Drained() const { return queue_.empty() && open_.empty() && next_open_ >= items_; }
  // The items open, in order.
  const std::vector<size_t>& open() const { return open_; }

 private:
  size_t items_ = 0;
  std::deque<std::pair<size_t, uint64_t>> queue_;
  std::vector<uint64_t> remaining_;  // per item: chunks queued or in flight
  std::vector<size_t> open_;         // the items open (FetchHooks::open), in order
  size_t next_open_ = 0;             // the next item to open
};

}  // namespace trainbench::stage

// The range fetcher's hand-over of each item's bytes IN ORDER (FetchHooks::ordered) as its
// prefix of chunks becomes contiguous: read back from the part file, or taken from the
// buffers of chunks that arrived in memory before their turn. A few chunks a call, so the
// transfers keep being serviced meanwhile. Not thread-safe: the fetch's loop thread.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "stage/range_fetcher.h"
#include "stage/stage_account.h"

namespace trainbench::stage {

class OrderedHandOver {
 public:
  explicit OrderedHandOver(PhaseClock& clock) : clock_(clock) {}

  // A fetch of `items` items begins: nothing handed over, nothing held.
  void Reset(size_t items);
  // The next chunk of `item` to hand over.
  uint64_t Next(size_t item) const { return next_[item]; }
  // Chunk `chunk` of `item`, fetched into memory: held until its turn.
  void Hold(size_t item, uint64_t chunk, std::vector<unsigned char> bytes);
  // Hands the next contiguous chunks of the `open` items (those that deliver) to `ordered`;
  // returns whether more are ready. Throws IoError when a part file cannot be read back.
  bool Deliver(const std::vector<FetchItem>& items, const std::vector<size_t>& open,
               const FetchHooks& hooks);

 private:
  // Hands chunk Next(i) of item `i` over if it is in; returns whether it was.
  bool HandOverNext(size_t i, const FetchItem& item, const FetchHooks& hooks);

  PhaseClock& clock_;
  std::vector<uint64_t> next_;                                         // per item
  std::vector<std::map<uint64_t, std::vector<unsigned char>>> early_;  // per item
  std::vector<unsigned char> read_buffer_;
};

}  // namespace trainbench::stage

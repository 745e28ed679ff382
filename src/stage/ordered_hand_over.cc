#include "stage/ordered_hand_over.h"

#include <algorithm>
#include <utility>

#include "stage/file_io.h"

namespace trainbench::stage {
namespace {

// Chunks handed over in order per loop turn, so transfers keep being serviced meanwhile.
constexpr unsigned kDeliverPerTurn = 4;

}  // namespace

void OrderedHandOver::Reset(size_t items) {
  next_.assign(items, 0);
  early_.assign(items, {});
}

void OrderedHandOver::Hold(size_t item, uint64_t chunk, std::vector<unsigned char> bytes) {
  early_[item][chunk] = std::move(bytes);
}

bool OrderedHandOver::Deliver(const std::vector<FetchItem>& items, const std::vector<size_t>& open,
                              const FetchHooks& hooks) {
  unsigned budget = kDeliverPerTurn;
  for (const size_t i : open) {
    const FetchItem& item = items[i];
    if (!item.deliver) continue;
    while (next_[i] < ChunkCount(item)) {
      if (budget == 0) return true;
      if (!HandOverNext(i, item, hooks)) break;
      ++next_[i];
      --budget;
    }
  }
  return false;
}

bool OrderedHandOver::HandOverNext(size_t i, const FetchItem& item, const FetchHooks& hooks) {
  const uint64_t c = next_[i];
  const uint64_t offset = item.begin + c * item.chunk_size;
  const uint64_t length = std::min(item.chunk_size, item.size - offset);
  if (item.fd >= 0) {
    if (!item.done[c]) return false;
    {
      PhaseScope verify(clock_, Phase::kVerify);  // reading back for the checksum
      read_buffer_.resize(length);
      PreadAll(item.fd, read_buffer_.data(), length, offset, item.part_path);
    }
    hooks.ordered(i, offset, read_buffer_.data(), length);
    return true;
  }
  const auto it = early_[i].find(c);
  if (it == early_[i].end()) return false;
  hooks.ordered(i, offset, it->second.data(), length);
  early_[i].erase(it);
  return true;
}

}  // namespace trainbench::stage

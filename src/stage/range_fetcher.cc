#include "stage/range_fetcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "stage/attempt_settler.h"
#include "stage/chunk_window.h"
#include "stage/fetch_slot.h"
#include "stage/file_io.h"
#include "stage/ordered_hand_over.h"
#include "storage/range_streams.h"

namespace trainbench::stage {

uint64_t ChunkCount(const FetchItem& item) {
  const uint64_t span = item.size - item.begin;
  return (span + item.chunk_size - 1) / item.chunk_size;
}

class RangeFetcher::Impl {
 public:
  Impl(FetchSources& sources, FetchOptions options, SourceLedger& ledger, StreamTime& stream_time,
       PhaseClock& clock)
      : sources_(sources),
        options_(options),
        stream_time_(stream_time),
        clock_(clock),
        slots_(std::max(1u, options.streams)),
        streams_(
            static_cast<unsigned>(slots_.size()),
            [this](unsigned i, const storage::RangeReply& reply, const char* data, size_t n) {
              return ReceiveIntoSlot(slots_[i], reply, data, n);
            },
            "trainbench-stage/" TRAINBENCH_VERSION),
        settler_(sources, ledger, stream_time, options_, slots_.size()),
        hand_over_(clock) {
    for (unsigned i = 0; i < slots_.size(); ++i) {
      slots_[i].index = i;
      slots_[i].live_bytes = &live_bytes_;
    }
  }

  FetchResult Run(std::vector<FetchItem>& items, const FetchHooks& hooks) {
    Begin(items, hooks);
    try {
      while (!Turn()) {
      }
    } catch (...) {
      Stop();
      throw;
    }
    SyncJournals();
    return result_;
  }

  const FetchResult& SoFar() const { return result_; }

 private:
  // A fetch of `items` begins: every chunk not done is queued (every chunk, in compare mode).
  void Begin(std::vector<FetchItem>& items, const FetchHooks& hooks) {
    items_ = &items;
    hooks_ = &hooks;
    result_ = FetchResult{};
    result_.item_bytes.assign(items.size(), 0);
    result_.differing.assign(items.size(), {});
    hand_over_.Reset(items.size());
    window_.Reset(items, options_.compare);
    sync_bytes_ = options_.journal_sync_bytes;
    if (sync_bytes_ == 0) {
      uint64_t total = 0;
      for (const auto& item : items) total += item.size - item.begin;
      sync_bytes_ = std::clamp<uint64_t>(total / 100, 1 << 20, 256 << 20);
    }
    synced_bytes_ = 0;
    last_sync_ = NowSeconds();
    last_progress_ = 0;
    last_active_ = 0;
  }

  // One turn of the loop; returns whether every chunk is fetched and handed over.
  bool Turn() {
    if (InterruptRequested())
      throw Interrupted(
          "stage interrupted; the chunks fetched are journaled: run the same "
          "command again to resume");
    OpenNext();
    Dispatch();
    streams_.PerformAndReap(
        [this](unsigned i, const storage::TransferEnd& end) { Done(slots_[i], end); });
    RestartDue();
    const bool more_to_deliver = Deliver();
    Retire();
    const double now = NowSeconds();
    if (now - last_sync_ >= options_.journal_sync_s || live_bytes_ - synced_bytes_ >= sync_bytes_) {
      SyncJournals();
      last_sync_ = now;
      synced_bytes_ = live_bytes_;
    }
    const bool finished = Finished();
    ReportProgress(now, finished);
    if (finished) return true;
    streams_.Poll(PollWait(now, more_to_deliver));
    return false;
  }

  // A failure or Ctrl-C ends the fetch: every transfer is stopped, and the journals keep
  // what they can of it.
  void Stop() {
    RecordHighWaterMarks();
    for (auto& s : slots_) {
      if (streams_.Active(s.index)) {
        streams_.Stop(s.index);
        if (!Journaled(s)) stream_time_.wasted_bytes += s.received;
      }
      s.busy = false;
    }
    try {
      SyncJournals();
    } catch (...) {
    }
  }

  // Every 0.1 s, and whenever the streams busy change: a transfer shorter than that still
  // shows its streams.
  void ReportProgress(double now, bool finished) {
    unsigned active = 0;
    for (const auto& s : slots_) active += s.busy ? 1 : 0;
    if (hooks_->progress && (finished || active != last_active_ || now - last_progress_ >= 0.1)) {
      hooks_->progress(live_bytes_, stream_time_.retries, active);
      last_progress_ = now;
      last_active_ = active;
    }
  }

  // How long to wait for the transfers: no longer than 0.1 s nor the next backoff's end, and
  // not at all while chunks are ready to hand over.
  double PollWait(double now, bool more_to_deliver) const {
    double wait = more_to_deliver ? 0 : 0.1;
    for (const auto& s : slots_)
      if (s.busy && !streams_.Active(s.index))
        wait = std::min(wait, std::max(0.0, s.retry_at - now));
    return wait;
  }

  bool Finished() const {
    if (!window_.Drained()) return false;
    for (const auto& s : slots_)
      if (s.busy) return false;
    return true;
  }

  // Whether item i's bytes are handed to FetchHooks::ordered.
  bool DeliversInOrder(size_t i) const {
    return (*items_)[i].deliver && !options_.compare && hooks_->ordered;
  }

  // Opens the next items in order while fewer than the window's are open: the streams' items,
  // and as many again whose bytes are being read back in order.
  void OpenNext() { window_.OpenNext(2 * slots_.size() + 2, *hooks_); }

  // Hands each open item whose chunks are all fetched and handed over to FetchHooks::finished.
  void Retire() {
    window_.Retire(
        [this](size_t i) {
          return DeliversInOrder(i) && hand_over_.Next(i) < ChunkCount((*items_)[i]);
        },
        *hooks_);
  }

  // Gives each free stream the next chunk queued, while its item is open (and, in memory, the
  // chunk is not too far ahead of its turn).
  void Dispatch() {
    for (auto& s : slots_) {
      if (s.busy) continue;
      const auto next = window_.Next();
      if (!next) return;
      const auto [i, c] = *next;
      const FetchItem& item = (*items_)[i];
      // In memory, chunks arriving early wait for the prefix: no more than `streams` ahead.
      if (item.fd < 0 && item.deliver && c >= hand_over_.Next(i) + slots_.size()) return;
      window_.Take();
      Assign(s, i, c);
      Start(s);
    }
  }

  // Slot `s` takes chunk `c` of item `i`, to be tried first at the best source.
  void Assign(FetchSlot& s, size_t i, uint64_t c) {
    const FetchItem& item = (*items_)[i];
    TakeChunk(s, item, i, c, options_.compare);
    if (const auto it = item.partial.find(c);
        s.fd >= 0 && it != item.partial.end() && it->second < s.length) {
      PhaseScope verify(clock_, Phase::kVerify);
      ResumeFromPart(s, item, it->second);
    }
    s.source = sources_.Best();
  }

  void Start(FetchSlot& s) {
    const FetchItem& item = (*items_)[s.item];
    storage::RangeGet get;
    if (sources_.at(s.source).origin && sources_.s3() != nullptr) {
      get.s3 = sources_.s3();
      get.s3_key = item.object.s3_key;
    } else {
      get.url = sources_.Url(s.source, item.object);
    }
    get.offset = s.offset + s.kept;
    get.length = s.length - s.kept;
    // A stalled connection (no byte for stall_timeout_s) is cut and its chunk tried again.
    get.stall_timeout_s = options_.stall_timeout_s;
    BeginAttempt(s, get.url.rfind("file://", 0) == 0);
    streams_.Start(s.index, get);
  }

  void RestartDue() {
    const double now = NowSeconds();
    for (auto& s : slots_)
      if (s.busy && !streams_.Active(s.index) && s.retry_at <= now) {
        stream_time_.wasted_s += now - s.wait_start;  // the backoff wait
        Start(s);
      }
  }

  // A finished attempt of slot `s` (its handle already out of the multi handle): settled,
  // and its chunk completed when it is whole.
  void Done(FetchSlot& s, const storage::TransferEnd& end) {
    FetchItem& item = (*items_)[s.item];
    if (!settler_.Settle(s, end, item, result_)) return;  // to be tried again
    Completed(s, item);
    window_.Fetched(s.item);
    s.busy = false;
  }

  // Slot `s`'s chunk is whole: marked done and journaled, or held in memory for its turn.
  void Completed(FetchSlot& s, FetchItem& item) {
    const std::string hex = s.sha->FinalHex();
    if (options_.compare) {
      Compare(s, item, hex);
      return;
    }
    item.done[s.chunk] = 1;
    if (item.fd >= 0) {
      if (item.journal) item.journal->AddChunk(s.chunk, hex);
    } else if (item.deliver) {
      hand_over_.Hold(s.item, s.chunk, std::move(s.buffer));
      s.buffer = {};
    }
  }

  // Compare mode: a chunk whose bytes differ from the first fetch's (transient corruption
  // on the way) is written over the part file, and its range reported.
  void Compare(FetchSlot& s, FetchItem& item, const std::string& hex) {
    const auto& chunks = item.journal->Chunks();
    const auto it = chunks.find(s.chunk);
    if (it != chunks.end() && it->second == hex) return;
    size_t written = 0;
    if (const int error = PwriteAll(item.fd, s.buffer.data(), s.length, s.offset, &written))
      throw IoError(fmt::format("cannot write {} at offset {}: {}", item.part_path,
                                s.offset + written, std::strerror(error)),
                    error);
    item.journal->AddChunk(s.chunk, hex);
    result_.differing[s.item].push_back(fmt::format("{}-{}", s.offset, s.offset + s.length - 1));
  }

  // Hands the next contiguous chunks over in order; returns whether more are ready.
  bool Deliver() {
    if (options_.compare || !hooks_->ordered) return false;
    return hand_over_.Deliver(*items_, window_.open(), *hooks_);
  }

  // Whether slot `s`'s bytes land in a journaled part file (not a repair's buffer).
  bool Journaled(const FetchSlot& s) const {
    return !options_.compare && s.fd >= 0 && (*items_)[s.item].journal != nullptr;
  }

  // Each stream's bytes of its chunk so far (those of an attempt in flight, or those kept
  // from a cut one), for the journal to record with the data's sync.
  void RecordHighWaterMarks() {
    for (const auto& s : slots_)
      if (s.busy && Journaled(s))
        (*items_)[s.item].journal->SetPartial(s.chunk,
                                              streams_.Active(s.index) ? s.received : s.kept);
  }

  void SyncJournals() {
    RecordHighWaterMarks();
    settler_.FlushLog();
    for (const size_t i : window_.open()) {
      FetchItem& item = (*items_)[i];
      if (item.journal && item.fd >= 0 && item.journal->HasPending()) item.journal->Sync(item.fd);
    }
    if (hooks_ && hooks_->on_sync) hooks_->on_sync();
  }

  FetchSources& sources_;
  FetchOptions options_;
  StreamTime& stream_time_;
  PhaseClock& clock_;
  std::vector<FetchSlot> slots_;
  storage::RangeStreams streams_;  // after slots_: its receiver writes into them
  AttemptSettler settler_;
  OrderedHandOver hand_over_;
  std::vector<FetchItem>* items_ = nullptr;
  const FetchHooks* hooks_ = nullptr;
  FetchResult result_;
  ChunkWindow window_;
  uint64_t live_bytes_ = 0;
  uint64_t sync_bytes_ = 0;  // journals are synced after this many bytes at the latest
  // The loop's marks: the last journal sync, and the last progress report.
  uint64_t synced_bytes_ = 0;
  double last_sync_ = 0, last_progress_ = 0;
  unsigned last_active_ = 0;
};

RangeFetcher::RangeFetcher(FetchSources& sources, FetchOptions options, SourceLedger& ledger,
                           StreamTime& stream_time, PhaseClock& clock)
    : impl_(new Impl(sources, options, ledger, stream_time, clock)) {}

RangeFetcher::~RangeFetcher() { delete impl_; }

FetchResult RangeFetcher::Run(std::vector<FetchItem>& items, const FetchHooks& hooks) {
  return impl_->Run(items, hooks);
}

const FetchResult& RangeFetcher::SoFar() const { return impl_->SoFar(); }

}  // namespace trainbench::stage

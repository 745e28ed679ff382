#include "stage/range_fetcher.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/strings.h"
#include "stage/checksum.h"
#include "storage/range_streams.h"

namespace trainbench::stage {

// One stream's chunk and its attempt. Named, not in the anonymous namespace: RangeFetcher::Impl
// (declared in the header) holds them.
struct FetchSlot {
  unsigned index = 0;  // its stream in RangeStreams
  bool busy = false;   // holds a chunk (in flight, or waiting to be tried again)
  size_t item = 0;
  uint64_t chunk = 0, offset = 0, length = 0, object_size = 0;
  int fd = -1;  // pwrite target, or -1: into `buffer`
  unsigned attempt = 1;
  size_t source = 0;
  double retry_at = 0, attempt_start = 0, wait_start = 0;
  double last_byte = 0;                     // when this attempt's last byte arrived
  int64_t start_ns = 0, first_byte_ns = 0;  // this attempt's, wall clock (the op-log's)
  bool file_url = false;                    // a local file: no HTTP status to check
  // Bytes of the chunk kept from earlier attempts that were cut: the next attempt asks for
  // the rest only (as `curl -C -` does), and the chunk's hash carries on over them.
  uint64_t kept = 0;
  uint64_t attempt_kept = 0;  // `kept` when this attempt started
  uint64_t resumed = 0;       // of `kept`: bytes an earlier run left (not fetched by this one)
  uint64_t restarted = 0;     // kept bytes fetched by this run, thrown away by a 200's restart
  // This attempt's response; `received` counts the chunk's bytes, kept ones included.
  uint64_t received = 0;
  bool checked = false, error_mode = false, fail_hard = false;
  std::string fail, body_text;
  int write_errno = 0;
  std::unique_ptr<Hasher> sha = std::make_unique<Hasher>(HashKind::kSha256);
  std::vector<unsigned char> buffer;
  uint64_t* live_bytes = nullptr;
};

namespace {

constexpr size_t kErrorBodyMax = 2048;
// Chunks handed over in order per loop turn, so transfers keep being serviced meanwhile.
constexpr unsigned kDeliverPerTurn = 4;

// Slot `s`'s next body bytes (`reply`: the answer's head); false stops the transfer.
bool Receive(FetchSlot& s, const storage::RangeReply& reply, const char* data, size_t n) {
  if (!s.checked) {
    s.checked = true;
    s.first_byte_ns = metrics::WallNanos();
    if (!reply.file) {
      if (reply.status == 206) {
        if (!reply.range_total || *reply.range_total != s.object_size) {
          s.fail = reply.range_total ? fmt::format(
                                           "wrong size: its Content-Range says the object has "
                                           "{} bytes, the origin said {}",
                                           *reply.range_total, s.object_size)
                                     : "wrong size: a 206 answer without the object's size";
          s.fail_hard = true;
          return false;
        }
        if (reply.range_start != s.offset + s.kept) {
          s.fail = fmt::format("answered bytes from {} when asked for {}",
                               reply.range_start.value_or(0), s.offset + s.kept);
          s.fail_hard = true;
          return false;
        }
      } else if (reply.status == 200) {
        if (s.offset == 0 && s.length == s.object_size && s.kept > 0) {
          // The rest of a cut answer was asked for and the whole object came: a server that
          // ignores Range. The chunk starts over from these bytes; the kept ones are wasted.
          s.restarted += s.kept - s.resumed;
          s.kept = s.attempt_kept = s.received = s.resumed = 0;
          s.sha->Reset();
        } else if (s.offset + s.kept != 0 || s.length != s.object_size) {
          s.fail = "ignores Range requests (HTTP 200 with the whole object)";
          s.fail_hard = true;
          return false;
        }
      } else {
        s.error_mode = true;
      }
    }
  }
  if (s.error_mode) {
    if (s.body_text.size() < kErrorBodyMax)
      s.body_text.append(data, std::min(n, kErrorBodyMax - s.body_text.size()));
    return true;
  }
  if (s.received + n > s.length) {
    s.fail = fmt::format("sent more than the {} bytes asked for", s.length);
    s.fail_hard = true;
    return false;
  }
  if (s.fd < 0) {
    std::memcpy(s.buffer.data() + s.received, data, n);
  } else {
    size_t done = 0;
    while (done < n) {
      const ssize_t w =
          ::pwrite(s.fd, data + done, n - done, static_cast<off_t>(s.offset + s.received + done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        s.write_errno = w < 0 ? errno : EIO;
        return false;
      }
      done += static_cast<size_t>(w);
    }
  }
  s.sha->Update(data, n);
  s.received += n;
  s.last_byte = NowSeconds();
  *s.live_bytes += n;
  return true;
}

// The words of an error reply: an HTML page's title ("404 Not Found"), an XML error's Code
// and Message (S3's), else its first 200 bytes on one line.
std::string Excerpt(const std::string& body) {
  auto between = [&body](const std::string& open, const std::string& close) {
    const size_t start = body.find(open);
    if (start == std::string::npos) return std::string();
    const size_t end = body.find(close, start + open.size());
    return end == std::string::npos ? std::string()
                                    : body.substr(start + open.size(), end - start - open.size());
  };
  if (const std::string title = between("<title>", "</title>"); !title.empty())
    return Printable(title.substr(0, 200));
  if (const std::string code = between("<Code>", "</Code>"); !code.empty()) {
    const std::string message = between("<Message>", "</Message>");
    return Printable((message.empty() ? code : code + ": " + message).substr(0, 200));
  }
  std::string text = body.substr(0, 200);
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return Printable(text);
}

}  // namespace

class RangeFetcher::Impl {
 public:
  Impl(FetchSources& sources, FetchOptions options, SourceLedger& ledger, StreamTime& stream_time,
       PhaseClock& clock)
      : sources_(sources),
        options_(options),
        ledger_(ledger),
        stream_time_(stream_time),
        clock_(clock),
        slots_(std::max(1u, options.streams)),
        streams_(
            static_cast<unsigned>(slots_.size()),
            [this](unsigned i, const storage::RangeReply& reply, const char* data, size_t n) {
              return Receive(slots_[i], reply, data, n);
            },
            "trainbench-stage/" TRAINBENCH_VERSION) {
    if (options_.op_log) {
      op_log_ = std::make_unique<metrics::OpLogBuffer>(options_.op_log);
      first_thread_ = options_.op_log->NextThread();  // the streams' are consecutive
      for (size_t i = 1; i < slots_.size(); ++i) options_.op_log->NextThread();
    }
    for (unsigned i = 0; i < slots_.size(); ++i) {
      slots_[i].index = i;
      slots_[i].live_bytes = &live_bytes_;
    }
  }

  FetchResult Run(std::vector<FetchItem>& items, const FetchHooks& hooks) {
    items_ = &items;
    hooks_ = &hooks;
    result_ = FetchResult{};
    result_.item_bytes.assign(items.size(), 0);
    result_.differing.assign(items.size(), {});
    next_.assign(items.size(), 0);
    early_.assign(items.size(), {});
    remaining_.assign(items.size(), 0);
    open_.clear();
    next_open_ = 0;
    queue_.clear();
    for (size_t i = 0; i < items.size(); ++i)
      for (uint64_t c = 0; c < Chunks(items[i]); ++c)
        if (options_.compare || !items[i].done[c]) {
          queue_.emplace_back(i, c);
          ++remaining_[i];
        }
    sync_bytes_ = options_.journal_sync_bytes;
    if (sync_bytes_ == 0) {
      uint64_t total = 0;
      for (const auto& item : items) total += item.size - item.begin;
      sync_bytes_ = std::clamp<uint64_t>(total / 100, 1 << 20, 256 << 20);
    }
    uint64_t synced_bytes = 0;
    double last_sync = NowSeconds(), last_progress = 0;
    unsigned last_active = 0;
    try {
      for (;;) {
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
        if (now - last_sync >= options_.journal_sync_s ||
            live_bytes_ - synced_bytes >= sync_bytes_) {
          SyncJournals();
          last_sync = now;
          synced_bytes = live_bytes_;
        }
        const bool finished = Finished();
        unsigned active = 0;
        for (const auto& s : slots_) active += s.busy ? 1 : 0;
        // Every 0.1 s, and whenever the streams busy change: a transfer shorter than that
        // still shows its streams.
        if (hooks.progress && (finished || active != last_active || now - last_progress >= 0.1)) {
          hooks.progress(live_bytes_, stream_time_.retries, active);
          last_progress = now;
          last_active = active;
        }
        if (finished) break;
        double wait = more_to_deliver ? 0 : 0.1;
        for (const auto& s : slots_)
          if (s.busy && !streams_.Active(s.index))
            wait = std::min(wait, std::max(0.0, s.retry_at - now));
        streams_.Poll(wait);
      }
    } catch (...) {
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
      throw;
    }
    SyncJournals();
    return result_;
  }

  const FetchResult& SoFar() const { return result_; }

 private:
  static uint64_t Chunks(const FetchItem& item) {
    const uint64_t span = item.size - item.begin;
    return (span + item.chunk_size - 1) / item.chunk_size;
  }

  bool Finished() const {
    if (!queue_.empty() || !open_.empty() || next_open_ < items_->size()) return false;
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
  void OpenNext() {
    const size_t window = 2 * slots_.size() + 2;
    while (next_open_ < items_->size() && open_.size() < window) {
      const size_t i = next_open_++;
      if (hooks_->open) hooks_->open(i);
      open_.push_back(i);
    }
  }

  // Hands each open item whose chunks are all fetched and handed over to FetchHooks::finished,
  // making room in the window.
  void Retire() {
    for (size_t k = 0; k < open_.size();) {
      const size_t i = open_[k];
      if (remaining_[i] > 0 || (DeliversInOrder(i) && next_[i] < Chunks((*items_)[i]))) {
        ++k;
        continue;
      }
      if (hooks_->finished) hooks_->finished(i);
      open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }

  void Dispatch() {
    for (auto& s : slots_) {
      if (s.busy) continue;
      if (queue_.empty()) return;
      const auto [i, c] = queue_.front();
      if (i >= next_open_) return;  // not open yet: the window is full
      const FetchItem& item = (*items_)[i];
      // In memory, chunks arriving early wait for the prefix: no more than `streams` ahead.
      if (item.fd < 0 && item.deliver && c >= next_[i] + slots_.size()) return;
      queue_.pop_front();
      s.busy = true;
      s.item = i;
      s.chunk = c;
      s.offset = item.begin + c * item.chunk_size;
      s.length = std::min(item.chunk_size, item.size - s.offset);
      s.object_size = item.size;
      s.fd = options_.compare ? -1 : item.fd;
      if (s.fd < 0) s.buffer.resize(s.length);
      s.attempt = 1;
      s.kept = s.resumed = 0;
      s.sha->Reset();
      if (const auto it = item.partial.find(c);
          s.fd >= 0 && it != item.partial.end() && it->second < s.length)
        ResumeChunk(s, item, it->second);
      s.source = sources_.Best();
      Start(s);
    }
  }

  // Chunk bytes an earlier run left in the part file: hashed (the chunk's hash covers all
  // of it) and kept, so the first attempt asks for the rest.
  void ResumeChunk(FetchSlot& s, const FetchItem& item, uint64_t bytes) {
    PhaseScope verify(clock_, Phase::kVerify);
    read_buffer_.resize(std::min<uint64_t>(bytes, 8 << 20));
    for (uint64_t done = 0; done < bytes;) {
      const ssize_t r = ::pread(item.fd, read_buffer_.data(),
                                std::min<uint64_t>(read_buffer_.size(), bytes - done),
                                static_cast<off_t>(s.offset + done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0)
        throw IoError(fmt::format("cannot read {} at offset {}: {}", item.part_path,
                                  s.offset + done, r < 0 ? std::strerror(errno) : "end of file"),
                      r < 0 ? errno : EIO);
      s.sha->Update(read_buffer_.data(), static_cast<size_t>(r));
      done += static_cast<uint64_t>(r);
    }
    s.kept = s.resumed = bytes;
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
    s.file_url = get.url.rfind("file://", 0) == 0;
    s.attempt_kept = s.kept;
    s.received = s.kept;
    s.checked = s.error_mode = s.fail_hard = false;
    s.fail.clear();
    s.body_text.clear();
    s.write_errno = 0;
    if (s.kept == 0) s.sha->Reset();
    s.retry_at = 0;
    s.attempt_start = s.last_byte = NowSeconds();
    s.start_ns = metrics::WallNanos();
    s.first_byte_ns = 0;
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

  // A finished attempt of slot `s` (its handle already out of the multi handle).
  void Done(FetchSlot& s, const storage::TransferEnd& end) {
    const double now = NowSeconds();
    const double duration = now - s.attempt_start;
    const long status = end.status;
    const FetchSource& source = sources_.at(s.source);
    FetchItem& item = (*items_)[s.item];
    const std::string& effective = end.effective_url;
    const std::string served_by = !effective.empty() ? UrlOrigin(effective) : source.row;
    SourceRow& asked = ledger_.Row(source.row, source.origin ? "origin" : "mirror");
    ++asked.requests;
    // The row of the server that answered: the source's own unless it redirected elsewhere.
    SourceRow& row = served_by != source.row ? ledger_.Row(served_by, "redirect") : asked;
    if (served_by != source.row) ++row.requests;

    const bool status_ok = s.file_url || status == 206 ||
                           (status == 200 && s.offset == 0 && s.length == s.object_size);
    if (s.restarted > 0) {  // counted when they arrived; fetched again since
      result_.bytes -= s.restarted;
      result_.item_bytes[s.item] -= s.restarted;
      stream_time_.wasted_bytes += s.restarted;
      s.restarted = 0;
    }
    const uint64_t fresh = s.received - s.attempt_kept;  // this attempt's bytes
    // S3's origin is the log's own endpoint (the s3:// SOURCE), so a replay finds its objects.
    const std::string log_endpoint = source.origin && sources_.s3() ? "" : served_by;
    const bool ended = end.fault == storage::TransferFault::kNone;
    if (ended && s.fail.empty() && status_ok && s.received == s.length) {
      LogAttempt(s, item, log_endpoint, fresh, "");
      row.bytes += fresh;
      row.latency_ns.Record(static_cast<uint64_t>(duration * 1e9));
      stream_time_.useful_s += duration;
      sources_.Succeeded(s.source);
      result_.bytes += fresh;
      result_.item_bytes[s.item] += fresh;
      s.kept = s.resumed = 0;
      Completed(s, item);
      --remaining_[s.item];
      s.busy = false;
      return;
    }

    if (s.write_errno != 0)
      throw IoError(
          fmt::format("cannot write {} at offset {}: {}; free space in DEST or choose "
                      "another",
                      item.part_path, s.offset + s.received, std::strerror(s.write_errno)),
          s.write_errno);
    AttemptFailure f;
    if (!s.fail.empty()) {
      f.reason = s.fail;
      f.hard = s.fail_hard;
      f.retryable = !s.fail_hard;
    } else if (status_ok && s.received < s.length && (ended || end.cut_short)) {
      // The answer began well and ended early (a close before Content-Length's end).
      const std::string curl = ended ? "" : "; " + ClassifyFailure(end).reason;
      f.reason = fmt::format("body cut short at byte {} (bytes {}-{} were asked for{})",
                             s.offset + s.received, s.offset + s.attempt_kept,
                             s.offset + s.length - 1, curl);
    } else {
      f = ClassifyFailure(end);
      if (!s.body_text.empty()) f.reason += ": " + Excerpt(s.body_text);
    }
    LogAttempt(s, item, log_endpoint, fresh, f.reason);
    ++row.retries;
    ++stream_time_.retries;
    if (s.fail.empty() && fresh > 0) {
      // Cut, stalled or short, but what arrived is the chunk's: kept, and the next attempt
      // asks for the rest. Its time up to its last byte delivered; the rest (a stall, the
      // wait for the cut to show) is wasted.
      s.kept = s.received;
      row.bytes += fresh;
      result_.bytes += fresh;
      result_.item_bytes[s.item] += fresh;
      stream_time_.useful_s += s.last_byte - s.attempt_start;
      stream_time_.wasted_s += now - s.last_byte;
    } else {
      stream_time_.wasted_s += duration;
      if (!s.fail.empty()) {
        // The source answered wrongly: nothing of the chunk is trusted, kept bytes included.
        stream_time_.wasted_bytes += s.received;
        s.kept = s.resumed = 0;
      }
    }
    const bool demoted = sources_.Failed(s.source, f);
    const std::string where = !effective.empty() ? effective : sources_.Url(s.source, item.object);
    if ((source.origin && !f.retryable) || s.attempt >= options_.max_attempts)
      throw RuntimeError(fmt::format(
          "cannot fetch {} bytes {}-{} (chunk {}): {} failed attempt{}, the last at {}: {}; {}",
          item.object.name, s.offset, s.offset + s.length - 1, s.chunk, s.attempt,
          s.attempt == 1 ? "" : "s", where, f.reason,
          source.origin && !f.retryable
              ? "the origin refuses it: check SOURCE"
              : "raise --max-attempts, add a --mirror, or run again later (the journal keeps "
                "what was fetched)"));
    ++s.attempt;
    const size_t previous = s.source;
    s.source = sources_.Best();
    s.wait_start = now;
    // Another source is tried at once; the same one after a backoff.
    s.retry_at = demoted || s.source != previous ? now : now + BackoffSeconds(s.attempt - 1);
  }

  // One GET line for slot `s`'s attempt: `bytes` of it received from `endpoint`.
  void LogAttempt(const FetchSlot& s, const FetchItem& item, const std::string& endpoint,
                  uint64_t bytes, const std::string& error) {
    if (!op_log_) return;
    metrics::OpRecord r;
    r.thread = first_thread_ + s.index;
    r.op = "GET";
    r.bytes = bytes;
    r.file = item.object.name;
    r.error = error;
    r.endpoint = endpoint;
    r.start_ns = s.start_ns;
    r.first_byte_ns = s.first_byte_ns;
    r.end_ns = metrics::WallNanos();
    op_log_->Add(r);
  }

  void Completed(FetchSlot& s, FetchItem& item) {
    const std::string hex = s.sha->FinalHex();
    if (options_.compare) {
      const auto& chunks = item.journal->Chunks();
      const auto it = chunks.find(s.chunk);
      if (it == chunks.end() || it->second != hex) {
        // Transient corruption: the first fetch's bytes differ from this one's.
        size_t done = 0;
        while (done < s.length) {
          const ssize_t w = ::pwrite(item.fd, s.buffer.data() + done, s.length - done,
                                     static_cast<off_t>(s.offset + done));
          if (w < 0 && errno == EINTR) continue;
          if (w <= 0)
            throw IoError(fmt::format("cannot write {} at offset {}: {}", item.part_path,
                                      s.offset + done, std::strerror(errno)),
                          errno);
          done += static_cast<size_t>(w);
        }
        item.journal->AddChunk(s.chunk, hex);
        result_.differing[s.item].push_back(
            fmt::format("{}-{}", s.offset, s.offset + s.length - 1));
      }
      return;
    }
    item.done[s.chunk] = 1;
    if (item.fd >= 0) {
      if (item.journal) item.journal->AddChunk(s.chunk, hex);
    } else if (item.deliver) {
      early_[s.item][s.chunk] = std::move(s.buffer);
      s.buffer = {};
    }
  }

  // Hands the next contiguous chunks over in order; returns whether more are ready.
  bool Deliver() {
    if (options_.compare || !hooks_->ordered) return false;
    unsigned budget = kDeliverPerTurn;
    for (const size_t i : open_) {
      FetchItem& item = (*items_)[i];
      if (!item.deliver) continue;
      while (next_[i] < Chunks(item)) {
        const uint64_t c = next_[i];
        const uint64_t offset = item.begin + c * item.chunk_size;
        const uint64_t length = std::min(item.chunk_size, item.size - offset);
        if (budget == 0) return true;
        if (item.fd >= 0) {
          if (!item.done[c]) break;
          {
            PhaseScope verify(clock_, Phase::kVerify);  // reading back for the checksum
            read_buffer_.resize(length);
            size_t done = 0;
            while (done < length) {
              const ssize_t r = ::pread(item.fd, read_buffer_.data() + done, length - done,
                                        static_cast<off_t>(offset + done));
              if (r < 0 && errno == EINTR) continue;
              if (r <= 0)
                throw IoError(
                    fmt::format("cannot read {} at offset {}: {}", item.part_path, offset + done,
                                r < 0 ? std::strerror(errno) : "end of file"),
                    r < 0 ? errno : EIO);
              done += static_cast<size_t>(r);
            }
          }
          hooks_->ordered(i, offset, read_buffer_.data(), length);
        } else {
          auto it = early_[i].find(c);
          if (it == early_[i].end()) break;
          hooks_->ordered(i, offset, it->second.data(), length);
          early_[i].erase(it);
        }
        ++next_[i];
        --budget;
      }
    }
    return false;
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
    if (op_log_) op_log_->Flush();  // a killed stage keeps the lines of what it journaled
    for (const size_t i : open_) {
      FetchItem& item = (*items_)[i];
      if (item.journal && item.fd >= 0 && item.journal->HasPending()) item.journal->Sync(item.fd);
    }
    if (hooks_ && hooks_->on_sync) hooks_->on_sync();
  }

  FetchSources& sources_;
  FetchOptions options_;
  SourceLedger& ledger_;
  StreamTime& stream_time_;
  PhaseClock& clock_;
  std::vector<FetchSlot> slots_;
  storage::RangeStreams streams_;                 // after slots_: its receiver writes into them
  std::unique_ptr<metrics::OpLogBuffer> op_log_;  // null: no op-log
  uint64_t first_thread_ = 0;                     // the op-log's thread of stream 0
  std::vector<FetchItem>* items_ = nullptr;
  const FetchHooks* hooks_ = nullptr;
  FetchResult result_;
  std::deque<std::pair<size_t, uint64_t>> queue_;
  std::vector<uint64_t> next_;       // per item: the next chunk to hand over in order
  std::vector<uint64_t> remaining_;  // per item: chunks queued or in flight
  std::vector<size_t> open_;         // the items open (FetchHooks::open), in order
  size_t next_open_ = 0;             // the next item to open
  std::vector<std::map<uint64_t, std::vector<unsigned char>>> early_;
  std::vector<unsigned char> read_buffer_;
  uint64_t live_bytes_ = 0;
  uint64_t sync_bytes_ = 0;  // journals are synced after this many bytes at the latest
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

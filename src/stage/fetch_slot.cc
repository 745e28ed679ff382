#include "stage/fetch_slot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/clock.h"
#include "common/strings.h"
#include "stage/file_io.h"

namespace trainbench::stage {
namespace {

constexpr size_t kErrorBodyMax = 2048;

// A 206's range against the one slot `s` asked for; false: the source answered wrongly.
bool CheckPartialAnswer(FetchSlot& s, const storage::RangeReply& reply) {
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
    s.fail = fmt::format("answered bytes from {} when asked for {}", reply.range_start.value_or(0),
                         s.offset + s.kept);
    s.fail_hard = true;
    return false;
  }
  return true;
}

// A 200 (the whole object) is right only for a chunk that is the whole object.
bool CheckWholeAnswer(FetchSlot& s) {
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
  return true;
}

// The answer's head, at its first body byte: another status than 206 or 200 is an error
// reply, whose body is kept for its words.
bool CheckAnswer(FetchSlot& s, const storage::RangeReply& reply) {
  if (reply.file) return true;
  if (reply.status == 206) return CheckPartialAnswer(s, reply);
  if (reply.status == 200) return CheckWholeAnswer(s);
  s.error_mode = true;
  return true;
}

// The chunk's next bytes, at their place in the part file or in the slot's buffer.
bool StoreBody(FetchSlot& s, const char* data, size_t n) {
  if (s.fd < 0) {
    std::memcpy(s.buffer.data() + s.received, data, n);
    return true;
  }
  size_t written = 0;
  s.write_errno = PwriteAll(s.fd, data, n, s.offset + s.received, &written);
  return s.write_errno == 0;
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

void TakeChunk(FetchSlot& s, const FetchItem& item, size_t item_index, uint64_t chunk,
               bool compare) {
  s.busy = true;
  s.item = item_index;
  s.chunk = chunk;
  s.offset = item.begin + chunk * item.chunk_size;
  s.length = std::min(item.chunk_size, item.size - s.offset);
  s.object_size = item.size;
  s.fd = compare ? -1 : item.fd;
  if (s.fd < 0) s.buffer.resize(s.length);
  s.attempt = 1;
  s.kept = s.resumed = 0;
  s.sha->Reset();
}

void ResumeFromPart(FetchSlot& s, const FetchItem& item, uint64_t bytes) {
  std::vector<unsigned char> buffer(std::min<uint64_t>(bytes, 8 << 20));
  for (uint64_t done = 0; done < bytes;) {
    const size_t n =
        PreadSome(item.fd, buffer.data(), std::min<uint64_t>(buffer.size(), bytes - done),
                  s.offset + done, item.part_path);
    s.sha->Update(buffer.data(), n);
    done += n;
  }
  s.kept = s.resumed = bytes;
}

void BeginAttempt(FetchSlot& s, bool file_url) {
  s.file_url = file_url;
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
}

bool ReceiveIntoSlot(FetchSlot& s, const storage::RangeReply& reply, const char* data, size_t n) {
  if (!s.checked) {
    s.checked = true;
    s.first_byte_ns = metrics::WallNanos();
    if (!CheckAnswer(s, reply)) return false;
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
  if (!StoreBody(s, data, n)) return false;
  s.sha->Update(data, n);
  s.received += n;
  s.last_byte = NowSeconds();
  *s.live_bytes += n;
  return true;
}

bool StatusFits(const FetchSlot& s, long status) {
  return s.file_url || status == 206 ||
         (status == 200 && s.offset == 0 && s.length == s.object_size);
}

AttemptFailure WhyAttemptFailed(const FetchSlot& s, const storage::TransferEnd& end,
                                bool status_ok) {
  AttemptFailure f;
  const bool ended = end.fault == storage::TransferFault::kNone;
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
  return f;
}

}  // namespace trainbench::stage

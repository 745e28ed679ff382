#include "metrics/op_log.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "common/error.h"

namespace trainbench::metrics {

const char* const kOpLogHeader =
    "idx\tthread\top\tclient_id\tn_objects\tbytes\tendpoint\tfile\terror\tstart\tfirst_byte\tend"
    "\tduration_ns";

namespace {

bool EndsWith(const std::string& s, const char* tail) {
  const size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// TSV fields hold no tabs or newlines: those in [begin, end) become spaces.
void BlankSeparators(char* begin, char* end) {
  for (char* c = begin; c < end; ++c)
    if (*c <= '\r' && (*c == '\t' || *c == '\n' || *c == '\r')) *c = ' ';
}

std::string Sanitized(std::string text) {
  BlankSeparators(text.data(), text.data() + text.size());
  return text;
}

// Writers into a line's reserved room: each returns where the next field goes.
char* Put(char* at, std::string_view text) {
  std::memcpy(at, text.data(), text.size());
  return at + text.size();
}

// A decimal number, without fmt's format-string parsing.
char* PutNumber(char* at, uint64_t value) {
  const fmt::format_int digits(value);
  return Put(at, {digits.data(), digits.size()});
}

// A field with its tabs and newlines made spaces.
char* PutField(char* at, std::string_view text) {
  char* end = Put(at, text);
  BlankSeparators(at, end);
  return end;
}

}  // namespace

std::string RankOpLogPath(const std::string& path, int rank, int ranks) {
  if (ranks <= 1) return path;
  return TaggedOpLogPath(path, fmt::format(".rank{:04}", rank));
}

std::string TaggedOpLogPath(const std::string& path, const std::string& tag) {
  for (const char* ext : {".tsv.zst", ".tsv"})
    if (EndsWith(path, ext) && path.size() > std::strlen(ext))
      return path.substr(0, path.size() - std::strlen(ext)) + tag + ext;
  return path + tag;
}

int64_t WallNanos() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

OpLog::OpLog(const std::string& path, std::string client_id, std::string endpoint)
    : path_(path),
      client_id_(Sanitized(std::move(client_id))),
      endpoint_(Sanitized(std::move(endpoint))) {
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr)
    throw IoError(fmt::format("--op-log {}: cannot create it: {}", path, std::strerror(errno)),
                  errno);
  if (EndsWith(path, ".zst")) {
    auto* stream = ZSTD_createCStream();
    // A fast negative level: the log must not cost the run (TSV compresses ~4x even so).
    ZSTD_initCStream(stream, -5);
    zstd_ = stream;
  }
  // An s3:// log's header waits for its endpoint_url (NoteEndpointUrl): the storages that
  // know it record into the log after it is made.
  if (endpoint_.rfind("s3://", 0) == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  EmitHeader();
}

void OpLog::EmitHeader() {
  const std::string header =
      std::string(kOpLogHeader) + (endpoint_url_.empty() ? "" : "\tendpoint_url") + "\n";
  Emit(header.data(), header.size(), true);
  header_written_ = true;
}

void OpLog::NoteEndpointUrl(std::string_view url) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (header_written_ || url.empty() || file_ == nullptr) return;
  endpoint_url_ = Sanitized(std::string(url));
  EmitHeader();
}

OpLog::~OpLog() {
  try {
    Close();
  } catch (const std::exception&) {
    // Close() is called by the owner that can report; a destructor cannot.
  }
}

void OpLog::Emit(const void* data, size_t size, bool flush) {
  if (failed_ || file_ == nullptr) return;
  if (zstd_ == nullptr) {
    failed_ = std::fwrite(data, 1, size, file_) != size || (flush && std::fflush(file_) != 0);
    return;
  }
  auto* stream = static_cast<ZSTD_CStream*>(zstd_);
  ZSTD_inBuffer in{data, size, 0};
  std::string chunk(ZSTD_CStreamOutSize(), '\0');
  const ZSTD_EndDirective mode = flush ? ZSTD_e_flush : ZSTD_e_continue;
  while (true) {
    ZSTD_outBuffer out{chunk.data(), chunk.size(), 0};
    const size_t left = ZSTD_compressStream2(stream, &out, &in, mode);
    if (ZSTD_isError(left)) {
      failed_ = true;
      return;
    }
    if (out.pos > 0 && std::fwrite(chunk.data(), 1, out.pos, file_) != out.pos) {
      failed_ = true;
      return;
    }
    if (in.pos == in.size && (mode == ZSTD_e_continue || left == 0)) break;
  }
  if (flush) failed_ = std::fflush(file_) != 0;
}

void OpLog::Write(std::string_view lines) {
  if (lines.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!header_written_) EmitHeader();
  if (endpoint_url_.empty()) {
    Emit(lines.data(), lines.size(), true);
    return;
  }
  // The column goes on here rather than in each thread's buffer: the buffers format lines
  // before the URL may be known.
  with_url_.clear();
  for (size_t at = 0; at < lines.size();) {
    const size_t end = std::min(lines.size(), lines.find('\n', at));
    with_url_.append(lines.substr(at, end - at)).append("\t").append(endpoint_url_).append("\n");
    at = end + 1;
  }
  Emit(with_url_.data(), with_url_.size(), true);
}

void OpLog::Close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (file_ == nullptr) return;
  if (!header_written_) EmitHeader();
  if (zstd_ != nullptr) {
    auto* stream = static_cast<ZSTD_CStream*>(zstd_);
    std::string chunk(ZSTD_CStreamOutSize(), '\0');
    ZSTD_inBuffer in{nullptr, 0, 0};
    while (!failed_) {
      ZSTD_outBuffer out{chunk.data(), chunk.size(), 0};
      const size_t left = ZSTD_compressStream2(stream, &out, &in, ZSTD_e_end);
      if (ZSTD_isError(left) || std::fwrite(chunk.data(), 1, out.pos, file_) != out.pos)
        failed_ = true;
      if (left == 0) break;
    }
    ZSTD_freeCStream(stream);
    zstd_ = nullptr;
  }
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (failed_ || !closed)
    throw IoError(fmt::format("--op-log {}: could not be written whole (a full disk?)", path_),
                  EIO);
}

OpLogBuffer::OpLogBuffer(std::shared_ptr<OpLog> log, size_t batch_bytes)
    : log_(std::move(log)), batch_bytes_(batch_bytes) {
  lines_.reserve(batch_bytes + 4096);
}

OpLogBuffer::~OpLogBuffer() { Flush(); }

// 2026-11-25T03:20:01.123456789Z; the date and time of day are formatted once a second.
char* OpLogBuffer::PutTime(char* at, int64_t ns) {
  if (ns <= 0) return at;
  const int64_t second = ns / 1000000000;
  if (second != second_) {
    const auto t = static_cast<std::time_t>(second);
    std::tm utc{};
    gmtime_r(&t, &utc);
    prefix_size_ = std::strftime(prefix_, sizeof prefix_, "%Y-%m-%dT%H:%M:%S.", &utc);
    second_ = second;
  }
  at = Put(at, {prefix_, prefix_size_});
  auto rest = static_cast<uint32_t>(ns % 1000000000);
  for (int i = 8; i >= 0; --i) {
    at[i] = static_cast<char>('0' + rest % 10);
    rest /= 10;
  }
  at[9] = 'Z';
  return at + 10;
}

// Formats the line into room reserved for its longest form, then trims it: a line is made per
// operation (a run's every read), so no format strings and one growth of the buffer at most.
void OpLogBuffer::Add(const OpRecord& r) {
  const std::string_view op(r.op);
  const std::string_view client = log_->client_id();  // sanitized once, by the log
  const std::string_view endpoint = r.endpoint.empty() ? log_->endpoint() : r.endpoint;
  // Five numbers of at most 20 digits and a sign, three times, thirteen separators.
  const size_t most = 5 * 21 + 3 * (sizeof prefix_ + 10) + 13 + op.size() + client.size() +
                      endpoint.size() + r.file.size() + r.error.size();
  const size_t start = lines_.size();
  lines_.resize(start + most);
  char* p = lines_.data() + start;
  p = PutNumber(p, log_->NextIndex());
  *p++ = '\t';
  p = PutNumber(p, r.thread);
  *p++ = '\t';
  p = Put(p, op);
  *p++ = '\t';
  p = Put(p, client);
  *p++ = '\t';
  p = PutNumber(p, r.n_objects);
  *p++ = '\t';
  p = PutNumber(p, r.bytes);
  *p++ = '\t';
  p = r.endpoint.empty() ? Put(p, endpoint) : PutField(p, endpoint);
  *p++ = '\t';
  p = PutField(p, r.file);
  *p++ = '\t';
  p = PutField(p, r.error);
  *p++ = '\t';
  p = PutTime(p, r.start_ns);
  *p++ = '\t';
  p = PutTime(p, r.first_byte_ns);
  *p++ = '\t';
  p = PutTime(p, r.end_ns);
  *p++ = '\t';
  const int64_t duration = r.end_ns - r.start_ns;
  if (duration < 0) *p++ = '-';
  p = PutNumber(p, static_cast<uint64_t>(duration < 0 ? -duration : duration));
  *p++ = '\n';
  lines_.resize(static_cast<size_t>(p - lines_.data()));
  if (lines_.size() >= batch_bytes_) Flush();
}

void OpLogBuffer::Flush() {
  log_->Write(lines_);
  lines_.clear();
}

}  // namespace trainbench::metrics

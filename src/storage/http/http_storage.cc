#include "storage/http_storage.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>

#include "common/error.h"
#include "common/secrets.h"
#include "storage/http_head.h"
#include "storage/range_streams.h"

namespace trainbench::storage {
namespace {

constexpr const char* kUserAgent = "trainbench";
constexpr double kStallSeconds = 30;

// Another try may mend it: a cut or timed-out connection, a server busy or failing.
bool Retriable(const TransferEnd& end) {
  if (end.fault == TransferFault::kBroken || end.fault == TransferFault::kUnreachable) return true;
  return end.fault == TransferFault::kNone && (end.status >= 500 || end.status == 429);
}

// Full jitter over 0.1 s doubling a try, as the S3 client backs off.
void Backoff(unsigned attempt) {
  thread_local std::mt19937_64 random(std::random_device{}());
  const double cap = 0.1 * static_cast<double>(1u << std::min(attempt, 6u));
  std::this_thread::sleep_for(
      std::chrono::duration<double>(std::uniform_real_distribution<double>(0, cap)(random)));
}

class HttpFile : public RandomAccessFile {
 public:
  HttpFile(HttpStorage& storage, std::string path, uint64_t size)
      : storage_(storage), path_(std::move(path)), size_(size) {}
  size_t ReadAt(uint64_t offset, void* buffer, size_t size) override {
    if (offset >= size_) return 0;
    return storage_.Get(path_, offset, buffer, std::min<uint64_t>(size, size_ - offset));
  }
  uint64_t Size() override { return size_; }

 private:
  HttpStorage& storage_;
  std::string path_;
  uint64_t size_;
};

}  // namespace

// One kept-alive connection and where its body goes.
struct HttpStorage::Connection {
  Connection()
      : streams(
            1,
            [this](unsigned, const RangeReply& reply, const char* data, size_t size) {
              return Receive(reply, data, size);
            },
            kUserAgent) {}

  bool Receive(const RangeReply& reply, const char* data, size_t size) {
    // A server that ignores the Range header answers 200 with the whole object: only right
    // when the range starts at 0 (the bytes past it are not wanted).
    const bool ranged = reply.status == 206 && reply.range_start == offset;
    if (!ranged && !(reply.status == 200 && offset == 0)) {
      wrong_answer = true;
      return reply.status < 200 || reply.status >= 300;  // an error's body is read, not kept
    }
    const size_t n = std::min(size, want - got);
    std::memcpy(buffer + got, data, n);
    got += n;
    return got < want || n == size;
  }

  RangeStreams streams;
  char* buffer = nullptr;
  uint64_t offset = 0;
  size_t want = 0, got = 0;
  bool wrong_answer = false;
};

HttpStorage::HttpStorage(std::string base_url) : base_(std::move(base_url)) {
  while (!base_.empty() && base_.back() == '/') base_.pop_back();
}

HttpStorage::~HttpStorage() = default;

std::unique_ptr<HttpStorage::Connection> HttpStorage::Take() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      auto c = std::move(idle_.back());
      idle_.pop_back();
      return c;
    }
  }
  return std::make_unique<Connection>();
}

void HttpStorage::Give(std::unique_ptr<Connection> connection) {
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(connection));
}

size_t HttpStorage::Get(const std::string& path, uint64_t offset, void* buffer, size_t size) {
  const std::string url = path.empty() ? base_ : base_ + "/" + path;
  if (size == 0) return 0;
  std::string last;
  for (unsigned attempt = 1;; ++attempt) {
    auto c = Take();
    c->buffer = static_cast<char*>(buffer);
    c->offset = offset;
    c->want = size;
    c->got = 0;
    c->wrong_answer = false;
    RangeGet get;
    get.url = url;
    get.offset = offset;
    get.length = size;
    get.stall_timeout_s = kStallSeconds;
    c->streams.Start(0, get);
    TransferEnd end;
    for (bool done = false; !done;) {
      c->streams.PerformAndReap([&](unsigned, const TransferEnd& e) {
        end = e;
        done = true;
      });
      if (!done) c->streams.Poll(1.0);
    }
    const size_t got = c->got;
    const bool wrong = c->wrong_answer;
    Give(std::move(c));
    const bool whole_or_stopped =
        end.fault == TransferFault::kNone || end.fault == TransferFault::kAborted;
    if (!wrong && whole_or_stopped && got == size) return got;
    last = end.fault != TransferFault::kNone && end.fault != TransferFault::kAborted
               ? end.error
               : fmt::format("HTTP {}{}", end.status,
                             wrong ? " without the range asked for (the server must answer "
                                     "ranged GETs with 206)"
                                   : fmt::format(", {} of {} bytes", got, size));
    if (!Retriable(end) || attempt >= kHttpAttempts)
      throw IoError(fmt::format("GET {} bytes {}-{}: {} ({} tr{})", RedactUrlPasswords(url), offset,
                                offset + size - 1, last, attempt, attempt == 1 ? "y" : "ies"),
                    0);
    Backoff(attempt);
  }
}

std::unique_ptr<RandomAccessFile> HttpStorage::Open(const std::string& path, const OpenOptions&) {
  const auto size = FileSize(path);
  if (!size) throw IoError(fmt::format("{}: no such object (HTTP 404)", Describe(path)), ENOENT);
  return std::make_unique<HttpFile>(*this, path, *size);
}

std::optional<uint64_t> HttpStorage::FileSize(const std::string& path) {
  const std::string url = path.empty() ? base_ : base_ + "/" + path;
  HttpHead head(kUserAgent);
  for (unsigned attempt = 1;; ++attempt) {
    const HeadReply reply = head.Head(url);
    if (reply.end.fault == TransferFault::kNone && reply.end.status == 404) return std::nullopt;
    const auto length = reply.headers.find("content-length");
    if (reply.end.fault == TransferFault::kNone && reply.end.status == 200 &&
        length != reply.headers.end())
      return std::strtoull(length->second.c_str(), nullptr, 10);
    if (!Retriable(reply.end) || attempt >= kHttpAttempts)
      throw IoError(
          fmt::format("HEAD {}: {}", Describe(path),
                      reply.end.fault != TransferFault::kNone
                          ? reply.end.error
                          : fmt::format("HTTP {}{}", reply.end.status,
                                        reply.end.status == 200 ? " without Content-Length" : "")),
          0);
    Backoff(attempt);
  }
}

std::unique_ptr<AtomicWriter> HttpStorage::Create(const std::string& path) {
  throw UsageError(fmt::format("{}: an http(s) URL is read, never written", Describe(path)));
}

void HttpStorage::Remove(const std::string& path) {
  throw UsageError(fmt::format("{}: an http(s) URL is read, never written", Describe(path)));
}

std::vector<ListEntry> HttpStorage::List(const std::string& prefix) {
  throw UsageError(fmt::format(
      "{}: a web server has no listing: name one object (a .tar), or stage the dataset first",
      Describe(prefix)));
}

LockAttempt HttpStorage::TryLock(const std::string& path) {
  throw UsageError(fmt::format("{}: an http(s) URL is read, never written", Describe(path)));
}

size_t HttpStorage::RemoveLeftovers(const std::string&) { return 0; }

std::string HttpStorage::Describe(const std::string& path) const {
  return RedactUrlPasswords(path.empty() ? base_ : base_ + "/" + path);
}

std::optional<std::string> HttpStorage::LocalPath(const std::string&) const { return std::nullopt; }

}  // namespace trainbench::storage

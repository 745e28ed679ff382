#include "stage/probe.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/strings.h"
#include "stage/checksum.h"
#include "storage/http_head.h"
#include "storage/s3_source.h"

namespace trainbench::stage {
namespace {

// A local file: its size from the listing, its version from its mtime.
ProbeResult ProbeLocalFile(const SourceObject& object) {
  ProbeResult p;
  p.size = object.size.value_or(0);
  struct stat st {};
  const std::string path = object.origin_url.substr(7);
  if (::stat(path.c_str(), &st) == 0)
    p.identity = fmt::format("mtime {}.{:09}", st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  return p;
}

// What a HEAD's answer says of the object, `size` bytes: its version (ETag, Last-Modified)
// and the SHA-256 of a digest header.
ProbeResult ProbeOfHead(const storage::HeadReply& response, uint64_t size) {
  ProbeResult p;
  p.size = size;
  auto header = [&](const char* name) {
    const auto it = response.headers.find(name);
    return it == response.headers.end() ? std::string() : it->second;
  };
  p.identity = fmt::format("etag {} modified {}", header("etag"), header("last-modified"));
  for (const char* name : {"repr-digest", "digest"})
    if (!p.sha256_hex) {
      if ((p.sha256_hex = Sha256FromDigestHeader(header(name))))
        p.checksum_from = fmt::format("{} header", name);
    }
  return p;
}

// HEADs of one object at its sources, each counted in the row of the source asked (and of the
// server a redirect reached), in the stream time and in the op-log.
class HeadAsker {
 public:
  HeadAsker(FetchSources& sources, const SourceObject& object, SourceLedger& ledger,
            StreamTime& stream_time, const ProbeLog& log)
      : sources_(sources),
        object_(object),
        ledger_(ledger),
        stream_time_(stream_time),
        log_(log),
        head_("trainbench-stage/" TRAINBENCH_VERSION) {}

  // One HEAD at source `i`: what it says, or nullopt when it failed (`*demoted`: the failure
  // demoted the source). Throws RuntimeError when the origin says the object is not there.
  std::optional<ProbeResult> Ask(size_t i, bool* demoted) {
    const FetchSource& source = sources_.at(i);
    const std::string url = sources_.Url(i, object_);
    const int64_t start_ns = metrics::WallNanos();
    const storage::HeadReply response = head_.Head(url);
    const std::string served_by = ServedBy(source, response.end.effective_url);
    SourceRow& row = CountRequest(ledger_, source, served_by);
    const auto length = response.headers.find("content-length");
    const bool answered =
        response.end.fault == storage::TransferFault::kNone && response.end.status == 200;
    if (answered && length != response.headers.end()) {
      stream_time_.useful_s += response.seconds;
      sources_.Succeeded(i);
      const uint64_t size = std::strtoull(length->second.c_str(), nullptr, 10);
      Log(served_by, start_ns, response.seconds, "", size);
      return ProbeOfHead(response, size);
    }
    const AttemptFailure f =
        answered ? AttemptFailure{false, true, "no Content-Length in its answer to HEAD"}
                 : ClassifyFailure(response.end);
    const std::string& effective = response.end.effective_url;
    last_error_ = fmt::format("{}: {}", !effective.empty() ? effective : url, f.reason);
    Log(served_by, start_ns, response.seconds, f.reason, 0);
    ++row.retries;
    ++stream_time_.retries;
    stream_time_.wasted_s += response.seconds;
    if (source.origin && response.end.status == 404)
      throw RuntimeError(
          fmt::format("{} does not exist at the origin (HTTP 404): check SOURCE", url));
    *demoted = sources_.Failed(i, f);
    return std::nullopt;
  }

  // "URL: why" of the last HEAD that failed.
  const std::string& last_error() const { return last_error_; }

 private:
  void Log(const std::string& endpoint, int64_t start_ns, double seconds, const std::string& error,
           uint64_t size) const {
    if (!log_) return;
    metrics::OpRecord r;
    r.op = "HEAD";
    r.file = object_.name;
    r.endpoint = endpoint;
    r.error = error;
    r.bytes = size;  // the object's size, as a logged HEAD says it
    r.start_ns = start_ns;
    r.end_ns = start_ns + static_cast<int64_t>(seconds * 1e9);
    log_(r);
  }

  FetchSources& sources_;
  const SourceObject& object_;
  SourceLedger& ledger_;
  StreamTime& stream_time_;
  const ProbeLog& log_;
  storage::HttpHead head_;
  std::string last_error_;
};

}  // namespace

std::vector<ProbeResult> ProbeS3Objects(FetchSources& sources,
                                        const std::vector<SourceObject>& objects,
                                        unsigned concurrency, SourceLedger& ledger,
                                        StreamTime& stream_time, const ProbeLog& log) {
  const storage::S3Source& s3 = *sources.s3();
  SourceRow& row = ledger.Row(sources.at(sources.Origin()).row, "origin");
  std::vector<ProbeResult> probes(objects.size());
  std::vector<std::string> keys;
  keys.reserve(objects.size());
  for (const auto& o : objects) keys.push_back(o.s3_key);
  auto done = [&](size_t i, const storage::S3Source::HeadResult& h) {
    const unsigned retries = h.attempts - 1;
    row.requests += h.attempts;
    row.retries += retries;
    stream_time.retries += retries;
    // The last attempt's time is useful, the failed attempts' and their backoffs' wasted.
    stream_time.useful_s += static_cast<double>(h.last_attempt_ns) / 1e9;
    stream_time.wasted_s += static_cast<double>(h.latency_ns - h.last_attempt_ns) / 1e9;
    const SourceObject& object = objects[i];
    if (log) {
      metrics::OpRecord r;
      r.op = "HEAD";
      r.file = object.name;  // the endpoint: the log's own (the s3:// SOURCE)
      r.error = h.found ? "" : "HTTP 404";
      r.bytes = h.content_length.value_or(0);  // the object's size, as a logged HEAD says it
      r.end_ns = metrics::WallNanos();
      r.start_ns = r.end_ns - static_cast<int64_t>(h.latency_ns);
      log(r);
    }
    if (!h.found)
      throw RuntimeError(
          fmt::format("{} does not exist (HTTP 404): check SOURCE", s3.Describe(object.s3_key)));
    ProbeResult& p = probes[i];
    p.size = h.content_length.value_or(object.size.value_or(0));
    p.identity = "etag " + h.etag;
    if ((p.md5_hex = Md5FromS3Etag(h.etag))) p.checksum_from = "S3 ETag";
  };
  s3.HeadAll(keys, concurrency, done, [] {
    if (InterruptRequested())
      throw Interrupted(
          "stage interrupted while asking S3 for the objects' sizes: run the same command again");
  });
  return probes;
}

ProbeResult ProbeObject(FetchSources& sources, const SourceObject& object, unsigned max_attempts,
                        SourceLedger& ledger, StreamTime& stream_time, const ProbeLog& log) {
  if (object.origin_url.rfind("file://", 0) == 0) return ProbeLocalFile(object);
  // The origin first, then the mirrors not demoted, round and round.
  std::vector<size_t> order{sources.Origin()};
  for (size_t i = 0; i + 1 < sources.size(); ++i) order.push_back(i);
  HeadAsker asker(sources, object, ledger, stream_time, log);
  for (unsigned attempt = 1, turn = 0; attempt <= max_attempts; ++turn) {
    const size_t i = order[turn % order.size()];
    if (sources.at(i).demoted) continue;
    if (sources.at(i).origin && sources.s3())
      return ProbeS3Objects(sources, {object}, 1, ledger, stream_time, log)[0];
    bool demoted = false;
    if (auto probe = asker.Ask(i, &demoted)) return *probe;
    ++attempt;
    // Backoff before going round again (not between different sources).
    if (!demoted && (turn + 1) % order.size() == 0) {
      const double wait = BackoffSeconds(attempt - 1);
      std::this_thread::sleep_for(std::chrono::duration<double>(wait));
      stream_time.wasted_s += wait;
    }
  }
  throw RuntimeError(
      fmt::format("cannot learn the size of {}: no source answered HEAD in {} "
                  "attempts; the last: {}; check SOURCE and --mirror, or raise "
                  "--max-attempts",
                  object.name, max_attempts, asker.last_error()));
}

}  // namespace trainbench::stage

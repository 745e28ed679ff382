#include "stage/probe.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/strings.h"
#include "stage/checksum.h"
#include "storage/s3_http.h"
#include "storage/s3_request_queue.h"

namespace trainbench::stage {
namespace {

struct HeadResponse {
  std::map<std::string, std::string> headers;  // lower-case names, the final response's
};

size_t OnHeadHeader(char* data, size_t size, size_t count, void* user) {
  auto& r = *static_cast<HeadResponse*>(user);
  const size_t n = size * count;
  std::string line(data, n);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (line.rfind("HTTP/", 0) == 0) {
    r.headers.clear();  // a redirect's headers are not the object's
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return n;
  std::string value = line.substr(colon + 1);
  while (!value.empty() && value.front() == ' ') value.erase(0, 1);
  r.headers[ToLower(line.substr(0, colon))] = value;
  return n;
}

struct EasyDeleter {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};

}  // namespace

std::vector<ProbeResult> ProbeS3Objects(FetchSources& sources,
                                        const std::vector<SourceObject>& objects,
                                        unsigned concurrency, SourceLedger& ledger,
                                        StreamTime& stream_time) {
  const storage::S3Endpoint& s3 = *sources.s3();
  SourceRow& row = ledger.Row(sources.at(sources.Origin()).row, "origin");
  std::vector<ProbeResult> probes(objects.size());
  storage::S3RequestQueue queue(
      s3, static_cast<unsigned>(std::clamp<size_t>(objects.size(), 1, std::max(1u, concurrency))));
  auto done = [&](const storage::S3Completion& c) {
    const unsigned retries = c.attempts - 1;
    row.requests += c.attempts;
    row.retries += retries;
    stream_time.retries += retries;
    // The last attempt's time is useful, the failed attempts' and their backoffs' wasted.
    stream_time.useful_s += static_cast<double>(c.last_attempt_ns) / 1e9;
    stream_time.wasted_s += static_cast<double>(c.latency_ns - c.last_attempt_ns) / 1e9;
    const SourceObject& object = objects[c.tag];
    if (c.result.curl == CURLE_OK && c.result.status == 404)
      throw RuntimeError(
          fmt::format("{} does not exist (HTTP 404): check SOURCE", s3.Describe(object.s3_key)));
    if (!c.result.Ok()) throw IoError(s3.Error(*c.request, c.result, *c.transfer), 0);
    ProbeResult& p = probes[c.tag];
    p.size = c.transfer->content_length.value_or(object.size.value_or(0));
    p.identity = "etag " + c.transfer->etag;
    if ((p.md5_hex = Md5FromS3Etag(c.transfer->etag))) p.checksum_from = "S3 ETag";
  };
  size_t next = 0, finished = 0;
  while (finished < objects.size()) {
    if (InterruptRequested())
      throw Interrupted(
          "stage interrupted while asking S3 for the objects' sizes: run the same command again");
    for (; next < objects.size() && !queue.Full(); ++next) {
      storage::S3Request r;
      r.method = "HEAD";
      r.key = objects[next].s3_key;
      queue.Submit(r, next);
    }
    finished += queue.Reap(1, 0.2, done);
  }
  return probes;
}

ProbeResult ProbeObject(FetchSources& sources, const SourceObject& object, unsigned max_attempts,
                        SourceLedger& ledger, StreamTime& stream_time) {
  if (object.origin_url.rfind("file://", 0) == 0) {
    ProbeResult p;
    p.size = object.size.value_or(0);
    struct stat st {};
    const std::string path = object.origin_url.substr(7);
    if (::stat(path.c_str(), &st) == 0)
      p.identity = fmt::format("mtime {}.{:09}", st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    return p;
  }
  // The origin first, then the mirrors not demoted, round and round.
  std::vector<size_t> order{sources.Origin()};
  for (size_t i = 0; i + 1 < sources.size(); ++i) order.push_back(i);
  std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
  std::string last_error;
  for (unsigned attempt = 1, turn = 0; attempt <= max_attempts; ++turn) {
    const size_t i = order[turn % order.size()];
    if (sources.at(i).demoted) continue;
    const FetchSource& source = sources.at(i);
    if (source.origin && sources.s3())
      return ProbeS3Objects(sources, {object}, 1, ledger, stream_time)[0];
    const std::string url = sources.Url(i, object);
    HeadResponse response;
    char error[CURL_ERROR_SIZE] = {};
    curl_easy_reset(easy.get());
    curl_easy_setopt(easy.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy.get(), CURLOPT_NOBODY, 1L);
    curl_easy_setopt(easy.get(), CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(easy.get(), CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(easy.get(), CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(easy.get(), CURLOPT_TIMEOUT_MS, 60000L);
    curl_easy_setopt(easy.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy.get(), CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(easy.get(), CURLOPT_HEADERFUNCTION, OnHeadHeader);
    curl_easy_setopt(easy.get(), CURLOPT_HEADERDATA, &response);
    curl_easy_setopt(easy.get(), CURLOPT_USERAGENT, "trainbench-stage/" TRAINBENCH_VERSION);
    const double start = NowSeconds();
    const CURLcode code = curl_easy_perform(easy.get());
    const double duration = NowSeconds() - start;
    long status = 0;
    curl_easy_getinfo(easy.get(), CURLINFO_RESPONSE_CODE, &status);
    char* effective = nullptr;
    curl_easy_getinfo(easy.get(), CURLINFO_EFFECTIVE_URL, &effective);
    const std::string served_by = effective ? UrlOrigin(effective) : source.row;
    ++ledger.Row(source.row, source.origin ? "origin" : "mirror").requests;
    SourceRow& row = ledger.Row(served_by, "redirect");
    if (served_by != source.row) ++row.requests;
    const auto length = response.headers.find("content-length");
    if (code == CURLE_OK && status == 200 && length != response.headers.end()) {
      stream_time.useful_s += duration;
      sources.Succeeded(i);
      ProbeResult p;
      p.size = std::strtoull(length->second.c_str(), nullptr, 10);
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
    AttemptFailure f = ClassifyFailure(code, status, error);
    if (code == CURLE_OK && status == 200) {
      f = {false, true, "no Content-Length in its answer to HEAD"};
    }
    last_error = fmt::format("{}: {}", effective ? effective : url, f.reason);
    ++row.retries;
    ++stream_time.retries;
    stream_time.wasted_s += duration;
    if (source.origin && status == 404)
      throw RuntimeError(
          fmt::format("{} does not exist at the origin (HTTP 404): check SOURCE", url));
    const bool demoted = sources.Failed(i, f);
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
                  object.name, max_attempts, last_error));
}

}  // namespace trainbench::stage

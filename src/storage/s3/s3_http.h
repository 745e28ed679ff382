// One S3 request on a libcurl easy handle: the URL (path-style or virtual-hosted, keys
// percent-encoded, query parameters sorted as SigV4 signs them), libcurl's own AWS SigV4
// signing (CURLOPT_AWS_SIGV4), the payload's SHA-256 in x-amz-content-sha256 (libcurl
// does not add it), the response into a caller's buffer or a string, and S3's error
// XML turned into a message that names the bucket, key and endpoint and the next thing
// to try, never a secret. Requests that may succeed on another try (5xx, SlowDown,
// timeouts, cut connections, a CompleteMultipartUpload answered 200 with an <Error> body) are
// retried with exponential backoff and full jitter, at most S3Options::max_attempts tries in
// all.
// Thread safety: S3Endpoint is immutable and thread-safe; an S3Transfer belongs to one
// easy handle and is used by one thread at a time.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "metrics/histogram.h"
#include "storage/s3/s3_options.h"

namespace trainbench::storage {

struct S3Request {
  std::string method = "GET";
  std::string key;  // the object's full key (unescaped); empty for the bucket itself
  std::vector<std::pair<std::string, std::string>> query;  // unescaped
  std::optional<std::pair<uint64_t, uint64_t>> range;      // offset, length
  const unsigned char* body = nullptr;                     // what PUT/POST sends
  size_t body_size = 0;
  std::string content_type;
  std::vector<std::string> headers;  // more request headers ("If-None-Match: *")
  // Failed statuses Perform hands back rather than throws (a conditional PUT's 412); a
  // HEAD's 404 always is.
  std::vector<long> returned_statuses;
};

// The state of one request on one easy handle: where the response goes, and what came back.
struct S3Transfer {
  S3Transfer() = default;
  S3Transfer(const S3Transfer&) = delete;
  S3Transfer& operator=(const S3Transfer&) = delete;
  ~S3Transfer();

  unsigned char* out = nullptr;  // the body goes here (a ranged GET's bytes), up to out_capacity
  uint64_t out_capacity = 0;
  uint64_t received = 0;  // body bytes received (into `out`, or `text`)
  // The body when there is no `out`, or an error body (whose <Code> Error reads: with `out`
  // too, a reply that is not a 2xx goes here, not into the caller's buffer).
  std::string text;
  long status = 0;  // of the status line last received (0 until one)
  std::string etag;
  std::optional<uint64_t> content_length;
  std::string content_range;  // "bytes FIRST-LAST/TOTAL" of a 206
  std::string request_id;
  std::string date;  // the Date header: the server's clock, for a 403 that has no body (HEAD)
  curl_slist* headers = nullptr;
  char error[CURL_ERROR_SIZE] = {};
  uint64_t started_ns = 0;
  uint64_t first_byte_ns = 0;
  // What each earlier failed try of this request met ("HTTP 503 SlowDown", "Transferred a
  // partial file (curl 18)"), counted; kept across the tries (Prepare leaves it), cleared when
  // a request begins (Perform, S3RequestQueue::Submit), so Error can tell the last try's
  // failure from what came before it.
  std::map<std::string, unsigned> failed_tries;
};

struct S3Result {
  CURLcode curl = CURLE_OK;
  long status = 0;
  // A 200 whose body is an S3 <Error> (CompleteMultipartUpload: AWS answers 200 at once and
  // may fail the assembly later); retried as a 5xx, as AWS's SDKs do.
  bool error_in_body = false;
  bool Ok() const { return curl == CURLE_OK && status >= 200 && status < 300 && !error_in_body; }
};

class S3Endpoint {
 public:
  S3Endpoint(S3Options options, S3Location location);

  const S3Options& options() const { return options_; }
  const S3Location& location() const { return location_; }
  // The full key of `path` under the prefix.
  std::string Key(std::string_view path) const;
  // "s3://bucket/key".
  std::string Describe(const std::string& key) const;
  std::string Url(const S3Request& request) const;
  // Whether URLs put the bucket in the host name (UseVirtualHost).
  bool virtual_hosted() const { return virtual_hosted_; }

  // Sets `easy` up for `request`, its response going to `transfer`; the request's body
  // must outlive the transfer.
  void Prepare(CURL* easy, const S3Request& request, S3Transfer& transfer) const;
  // The outcome of a finished transfer.
  static S3Result Finish(CURL* easy, CURLcode code);

  // Whether a failed attempt may succeed on another one.
  static bool Retryable(const S3Result& result, const S3Transfer& transfer);
  // How long to wait before attempt `attempt` (1 = the first retry): full jitter.
  double BackoffSeconds(unsigned attempt) const;
  // The message for a failed request: operation, object, endpoint, S3's code and message,
  // and what to do; never a secret. A retryable failure that ran out of tries says so, with
  // what the earlier tries met (transfer.failed_tries). A HEAD's 403 has no body to name its
  // cause: a Date header far from this host's clock names the skew; else a GET of the same
  // key is sent (one request, no retry) to learn S3's code.
  std::string Error(const S3Request& request, const S3Result& result,
                    const S3Transfer& transfer) const;

  // S3's name for what `request` does ("GetObject", "ListMultipartUploads", ...).
  static std::string Operation(const S3Request& request);
  // Why a successful reply to a ranged GET does not hold the range asked for (a 200: the
  // server or a cache ignored Range and sent the whole object; a 206 whose Content-Range
  // starts elsewhere); empty when it does. Such a reply is an error, never read as the range.
  std::string RangeError(const S3Request& request, const S3Result& result,
                         const S3Transfer& transfer) const;

  // Performs a request on this thread (its own reused easy handle), with retries;
  // throws IoError with Error()'s message when it fails. `transfer` receives the body.
  S3Result Perform(const S3Request& request, S3Transfer& transfer) const;

  // Every attempt is a request; a retry also counts what its failed attempt cost: the
  // bytes it had received and the time from its start to the next attempt.
  struct Stats {
    std::atomic<uint64_t> requests{0}, retries{0}, retry_bytes{0}, retry_ns{0};
  };
  const Stats& stats() const { return stats_; }
  // Records a finished attempt's latency under its operation (and a GET's time to first
  // byte under GET_first_byte).
  void RecordLatency(const S3Request& request, const S3Transfer& transfer) const;
  std::map<std::string, metrics::Histogram> Latencies() const;
  // Also notes what the failed try met in its transfer's failed_tries.
  void CountRetry(S3Transfer& failed, const S3Result& result, double backoff_s) const;

 private:
  // What to do about a request that failed below HTTP (libcurl's `code` and error text).
  std::string TransportHint(CURLcode code, const std::string& curl_error) const;
  // The next step for a reply with S3 error `code` (or none: by `status` alone); a
  // RequestTimeTooSkewed names the two times its body gave.
  std::string CodeHint(const S3Request& request, const std::string& target, long status,
                       const std::string& code, const std::string& request_time,
                       const std::string& server_time) const;
  // One GET of what `head` asked about (a byte of its key; a listing for the bucket), its
  // reply into `transfer`: a HEAD's 403 has no body, the GET's names S3's code.
  S3Result AskWithGet(const S3Request& head, S3Transfer& transfer) const;

  S3Options options_;
  S3Location location_;
  std::string sigv4_;    // "aws:amz:<region>:s3"
  std::string userpwd_;  // key:secret, for libcurl's signing only
  bool virtual_hosted_ = false;
  std::string base_url_;  // every URL up to the key's '/'
  mutable Stats stats_;
  mutable std::mutex latency_mutex_;
  mutable std::map<std::string, metrics::Histogram> latency_ns_;
};

// The host of "scheme://host[:port][/path]", lower-case, without the port ("[::1]" for IPv6).
std::string EndpointHost(const std::string& endpoint);
// "scheme://host[:port][/path]" without a "user[:password]@" before the host: an endpoint fit
// to be stored (an op-log's) or shown.
std::string EndpointWithoutUserinfo(const std::string& endpoint);
// An IPv4 or bracketed IPv6 address.
bool IsIpAddressHost(const std::string& host);
// Virtual-hosted addressing (http://bucket.host/key) rather than path style
// (http://host/bucket/key): see S3Options::force_path_style. Path style always for an
// address endpoint and for a bucket that cannot be a host name (or, over https, has a dot).
bool UseVirtualHost(const S3Options& options, const std::string& bucket);

}  // namespace trainbench::storage

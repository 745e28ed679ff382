#include "storage/s3/s3_http.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <pugixml.hpp>
#include <random>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "common/strings.h"
#include "storage/http/curl_multi.h"

namespace trainbench::storage {
namespace {

// The most a GET's receive buffer grows to (libcurl's default is 16 KiB, curl's tool 100 KiB).
constexpr uint64_t kMaxRecvBuffer = 256 * 1024;

// libcurl's global state, set up once before any handle.
void InitCurlOnce() {
  static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  (void)done;
}

std::string Sha256Hex(const unsigned char* data, size_t size) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data, size, digest, &length, EVP_sha256(), nullptr);
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  for (unsigned i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<S3Transfer*>(user);
  const size_t n = size * count;
  if (t.first_byte_ns == 0) t.first_byte_ns = NowNanoseconds();
  // An error reply's body is S3's <Error> document, read for its code: not the caller's data.
  const bool error_reply = t.status != 0 && (t.status < 200 || t.status >= 300);
  if (t.out && !error_reply) {
    const uint64_t room = t.out_capacity > t.received ? t.out_capacity - t.received : 0;
    const size_t take = static_cast<size_t>(std::min<uint64_t>(room, n));
    if (take > 0) std::memcpy(t.out + t.received, data, take);
    // Past the range: an error body (kept for its message), or a server that ignored the
    // Range header (kept no further than an error body needs).
    if (take < n && t.text.size() < 65536)
      t.text.append(data + take, std::min<size_t>(n - take, 65536 - t.text.size()));
  } else if (t.out) {
    if (t.text.size() < 65536) t.text.append(data, std::min<size_t>(n, 65536 - t.text.size()));
  } else {
    t.text.append(data, n);
  }
  t.received += n;
  return n;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<S3Transfer*>(user);
  const size_t n = size * count;
  std::string line(data, n);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (line.rfind("HTTP/", 0) == 0) {  // "HTTP/1.1 403 Forbidden": a response (100 Continue too)
    const size_t space = line.find(' ');
    t.status = space == std::string::npos ? 0 : std::strtol(line.c_str() + space + 1, nullptr, 10);
    return n;
  }
  const size_t colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (name == "etag") t.etag = value;
    if (name == "content-length") t.content_length = std::strtoull(value.c_str(), nullptr, 10);
    if (name == "x-amz-request-id") t.request_id = value;
    if (name == "content-range") t.content_range = value;
    if (name == "date") t.date = value;
  }
  return n;
}

struct EasyDeleter {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};

std::string ToLowerAscii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Whether a body is an S3 error document (its root element is <Error>).
bool IsErrorDocument(const std::string& body) {
  if (body.find("<Error>") == std::string::npos) return false;
  pugi::xml_document doc;
  return doc.load_buffer(body.data(), body.size()) &&
         std::string_view(doc.document_element().name()) == "Error";
}

// S3's <Error> document: its code and message, and RequestTimeTooSkewed's two times.
struct ErrorBody {
  std::string code, message, request_time, server_time;
};

ErrorBody ParseErrorBody(const std::string& text) {
  ErrorBody body;
  pugi::xml_document doc;
  if (text.empty() || !doc.load_buffer(text.data(), text.size())) return body;
  const pugi::xml_node error = doc.child("Error");
  body.code = error.child_value("Code");
  body.message = error.child_value("Message");
  body.request_time = error.child_value("RequestTime");
  body.server_time = error.child_value("ServerTime");
  return body;
}

// A failed try in words that are the same for the same failure, so tries can be counted by
// kind ("Transferred a partial file (curl 18)", not its byte count).
std::string FailureKind(const S3Result& result, const S3Transfer& t) {
  if (result.curl != CURLE_OK)
    return fmt::format("{} (curl {})", curl_easy_strerror(result.curl),
                       static_cast<int>(result.curl));
  const std::string code = ParseErrorBody(t.text).code;
  if (result.error_in_body)
    return fmt::format("HTTP {} with an error in its body{}", result.status,
                       code.empty() ? "" : ": " + code);
  return fmt::format("HTTP {}{}", result.status, code.empty() ? "" : " " + code);
}

// An HTTP Date ("Sun, 29 Nov 2026 03:56:11 GMT") in seconds since the epoch.
std::optional<int64_t> ParseHttpDate(const std::string& text) {
  std::tm tm{};
  if (strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S", &tm) == nullptr) return std::nullopt;
  return static_cast<int64_t>(timegm(&tm));
}

// The permission (IAM action) S3 checks for an operation, where it is not named after it.
std::string PermissionNote(const std::string& operation) {
  if (operation == "HeadObject") return " (the s3:GetObject permission)";
  if (operation == "HeadBucket" || operation == "ListObjectsV2" || operation == "ListObjects")
    return " (the s3:ListBucket permission)";
  if (operation == "UploadPart" || operation == "CreateMultipartUpload" ||
      operation == "CompleteMultipartUpload")
    return " (the s3:PutObject permission)";
  if (operation == "ListMultipartUploads") return " (the s3:ListBucketMultipartUploads permission)";
  return "";
}

// S3 refuses a request whose signature's time is more than 15 minutes from its own clock.
constexpr int64_t kMaxSkewSeconds = 15 * 60;

}  // namespace

std::string EndpointHost(const std::string& endpoint) {
  const size_t scheme = endpoint.find("://");
  std::string rest = endpoint.substr(scheme == std::string::npos ? 0 : scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (!rest.empty() && rest[0] == '[') return ToLowerAscii(rest.substr(0, rest.find(']') + 1));
  return ToLowerAscii(rest.substr(0, rest.find(':')));
}

std::string EndpointWithoutUserinfo(const std::string& endpoint) {
  const size_t scheme = endpoint.find("://");
  const size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t end = std::min(endpoint.size(), endpoint.find_first_of("/?#", start));
  const size_t at = endpoint.rfind('@', end == 0 ? 0 : end - 1);
  if (at == std::string::npos || at < start) return endpoint;
  return endpoint.substr(0, start) + endpoint.substr(at + 1);
}

bool IsIpAddressHost(const std::string& host) {
  if (host.empty()) return false;
  if (host[0] == '[') return true;  // IPv6
  return host.find_first_not_of("0123456789.") == std::string::npos;
}

bool UseVirtualHost(const S3Options& options, const std::string& bucket) {
  if (options.force_path_style.value_or(false)) return false;
  const std::string host = EndpointHost(options.endpoint);
  // An address cannot carry a bucket; nor can localhost unless asked for (local servers
  // seldom serve bucket.localhost; libcurl resolves *.localhost to the loopback itself).
  if (host.empty() || IsIpAddressHost(host) || host.find('@') != std::string::npos) return false;
  if (!options.force_path_style.has_value() && host.rfind("localhost", 0) == 0) return false;
  // The bucket must be a DNS name: 3..63 of [a-z0-9.-], starting and ending with a letter
  // or digit, no "..", not an IPv4 address; and no dot over https (a wildcard certificate
  // covers one label), as the AWS SDKs' endpoint rules decide.
  if (bucket.size() < 3 || bucket.size() > 63) return false;
  if (bucket.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-") != std::string::npos)
    return false;
  if (!std::isalnum(static_cast<unsigned char>(bucket.front())) ||
      !std::isalnum(static_cast<unsigned char>(bucket.back())) ||
      bucket.find("..") != std::string::npos || IsIpAddressHost(bucket))
    return false;
  const bool https = ToLowerAscii(options.endpoint).rfind("https://", 0) == 0;
  return !(https && bucket.find('.') != std::string::npos);
}

S3Transfer::~S3Transfer() {
  if (headers) curl_slist_free_all(headers);
}

S3Endpoint::S3Endpoint(S3Options options, S3Location location)
    : options_(std::move(options)), location_(std::move(location)) {
  InitCurlOnce();
  if (options_.endpoint.empty())
    options_.endpoint = fmt::format("https://s3.{}.amazonaws.com", options_.region);
  sigv4_ = fmt::format("aws:amz:{}:s3", options_.region);
  userpwd_ = options_.access_key_id + ":" + options_.secret_access_key;
  virtual_hosted_ = UseVirtualHost(options_, location_.bucket);
  // "scheme://bucket.host[:port]" or "scheme://host[:port]/bucket"; keys follow after '/'.
  // libcurl signs the Host header it sends, so either form is signed as sent.
  const size_t scheme = options_.endpoint.find("://");
  const size_t after = scheme == std::string::npos ? 0 : scheme + 3;
  base_url_ = virtual_hosted_ ? options_.endpoint.substr(0, after) + location_.bucket + "." +
                                    options_.endpoint.substr(after)
                              : options_.endpoint + "/" + location_.bucket;
}

std::string S3Endpoint::Key(std::string_view path) const {
  if (location_.prefix.empty()) return std::string(path);
  if (path.empty()) return location_.prefix;
  std::string key;
  key.reserve(location_.prefix.size() + 1 + path.size());
  key.append(location_.prefix).append("/").append(path);
  return key;
}

std::string S3Endpoint::Describe(const std::string& key) const {
  return fmt::format("s3://{}/{}", location_.bucket, key);
}

std::string S3Endpoint::Url(const S3Request& r) const {
  std::string url = base_url_ + "/" + PercentEncode(r.key, true);
  auto query = r.query;
  std::sort(query.begin(), query.end());  // SigV4 signs the query as written: sorted
  for (size_t i = 0; i < query.size(); ++i)
    url += (i == 0 ? "?" : "&") + PercentEncode(query[i].first, false) + "=" +
           PercentEncode(query[i].second, false);
  return url;
}

void S3Endpoint::Prepare(CURL* easy, const S3Request& r, S3Transfer& t) const {
  curl_easy_reset(easy);
  if (t.headers) curl_slist_free_all(t.headers);
  t.headers = nullptr;
  t.received = 0;
  t.text.clear();
  t.status = 0;
  t.date.clear();
  t.etag.clear();
  t.content_length.reset();
  t.content_range.clear();
  t.request_id.clear();
  t.error[0] = 0;
  t.started_ns = NowNanoseconds();
  t.first_byte_ns = 0;
  stats_.requests.fetch_add(1, std::memory_order_relaxed);
  const std::string url = Url(r);
  curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
  curl_easy_setopt(easy, CURLOPT_AWS_SIGV4, sigv4_.c_str());
  curl_easy_setopt(easy, CURLOPT_USERPWD, userpwd_.c_str());
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, t.error);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  // A stalled transfer (no byte for 30 s) is cut and retried.
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, 30L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  // A receive buffer as large as the GET's range (at most 256 KiB) rather than libcurl's
  // 16 KiB: a 1 MiB GET then costs ~6 recv() and their polls instead of ~65 of each.
  if (r.method == "GET")
    curl_easy_setopt(easy, CURLOPT_BUFFERSIZE,
                     static_cast<long>(std::clamp<uint64_t>(
                         r.range ? r.range->second : kMaxRecvBuffer, 16384, kMaxRecvBuffer)));
  if (!options_.ca_bundle.empty())
    curl_easy_setopt(easy, CURLOPT_CAINFO, options_.ca_bundle.c_str());
  // Every GET, HEAD and listing has an empty payload: its hash is a constant, not a digest
  // (with OpenSSL 3 each EVP_Digest also fetches the implementation by name).
  static const std::string kEmptySha256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  const std::string hash = r.body_size == 0 ? kEmptySha256 : Sha256Hex(r.body, r.body_size);
  t.headers = curl_slist_append(t.headers, ("x-amz-content-sha256: " + hash).c_str());
  if (!options_.session_token.empty())
    t.headers =
        curl_slist_append(t.headers, ("x-amz-security-token: " + options_.session_token).c_str());
  for (const auto& header : r.headers) t.headers = curl_slist_append(t.headers, header.c_str());
  if (r.range)
    t.headers = curl_slist_append(
        t.headers, fmt::format("Range: bytes={}-{}", r.range->first,
                               r.range->first + std::max<uint64_t>(1, r.range->second) - 1)
                       .c_str());
  if (r.method == "GET") {
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
  } else if (r.method == "HEAD") {
    curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    if (r.method == "PUT" || r.method == "POST") {
      curl_easy_setopt(easy, CURLOPT_POSTFIELDS,
                       r.body ? reinterpret_cast<const char*>(r.body) : "");
      curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body_size));
      t.headers = curl_slist_append(
          t.headers,
          ("Content-Type: " +
           (r.content_type.empty() ? std::string("application/octet-stream") : r.content_type))
              .c_str());
      // No "Expect:" to suppress 100-continue: libcurl 7.88 signs that empty header but
      // does not send it, and the server then refuses the signature.
    }
  }
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, t.headers);
}

void S3Endpoint::CountRetry(S3Transfer& failed, const S3Result& result, double backoff_s) const {
  ++failed.failed_tries[FailureKind(result, failed)];
  stats_.retries.fetch_add(1, std::memory_order_relaxed);
  stats_.retry_bytes.fetch_add(failed.received, std::memory_order_relaxed);
  stats_.retry_ns.fetch_add(
      NowNanoseconds() - failed.started_ns + static_cast<uint64_t>(backoff_s * 1e9),
      std::memory_order_relaxed);
}

void S3Endpoint::RecordLatency(const S3Request& r, const S3Transfer& t) const {
  const uint64_t now = NowNanoseconds();
  bool list = false;
  for (const auto& q : r.query) list = list || q.first == "list-type";
  const std::string op = list ? "LIST" : r.method;
  std::lock_guard<std::mutex> lock(latency_mutex_);
  latency_ns_[op].Record(now - t.started_ns);
  if (op == "GET" && t.first_byte_ns > 0)
    latency_ns_["GET_first_byte"].Record(t.first_byte_ns - t.started_ns);
}

std::map<std::string, metrics::Histogram> S3Endpoint::Latencies() const {
  std::lock_guard<std::mutex> lock(latency_mutex_);
  return latency_ns_;
}

S3Result S3Endpoint::Finish(CURL* easy, CURLcode code) {
  S3Result r;
  r.curl = code;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &r.status);
  return r;
}

bool S3Endpoint::Retryable(const S3Result& result, const S3Transfer& transfer) {
  if (result.error_in_body) return true;
  if (result.curl != CURLE_OK) {
    // A refused connection too: a gateway restarting comes back.
    return result.curl == CURLE_COULDNT_CONNECT || CurlTransferBroke(result.curl);
  }
  // 501 Not Implemented stays so: the server lacks the operation.
  if ((result.status >= 500 && result.status != 501) || result.status == 429) return true;
  return transfer.text.find("SlowDown") != std::string::npos;  // some stores answer 400
}

double S3Endpoint::BackoffSeconds(unsigned attempt) const {
  // Full jitter (AWS's advice): uniform in [0, min(cap, base x 2^attempt)].
  const double cap = 5.0, base = 0.05;
  const double ceiling = std::min(cap, base * static_cast<double>(1u << std::min(attempt, 16u)));
  thread_local std::mt19937_64 rng(std::random_device{}());
  return std::uniform_real_distribution<double>(0, ceiling)(rng);
}

std::string S3Endpoint::Operation(const S3Request& r) {
  auto has = [&r](const char* name) {
    return std::ranges::any_of(r.query, [name](const auto& q) { return q.first == name; });
  };
  if (r.method == "HEAD") return r.key.empty() ? "HeadBucket" : "HeadObject";
  if (r.method == "GET") {
    if (has("list-type")) return "ListObjectsV2";
    if (has("uploads")) return "ListMultipartUploads";
    if (has("uploadId")) return "ListParts";
    return r.key.empty() ? "ListObjects" : "GetObject";
  }
  if (r.method == "PUT") return has("partNumber") ? "UploadPart" : "PutObject";
  if (r.method == "POST")
    return has("uploads") ? "CreateMultipartUpload"
                          : (has("uploadId") ? "CompleteMultipartUpload" : "POST");
  if (r.method == "DELETE") return has("uploadId") ? "AbortMultipartUpload" : "DeleteObject";
  return r.method;
}

std::string S3Endpoint::RangeError(const S3Request& r, const S3Result& result,
                                   const S3Transfer& t) const {
  if (!r.range || r.method != "GET" || !result.Ok()) return "";
  const uint64_t first = r.range->first, length = std::max<uint64_t>(1, r.range->second);
  const std::string what = fmt::format("S3 {} {} bytes {}-{} at {}", Operation(r), Describe(r.key),
                                       first, first + length - 1, options_.endpoint);
  if (result.status != 206) {
    // A 200 holds the whole object: it is the range only when the range starts at 0 and
    // the object is no longer than the range.
    if (first == 0 && t.content_length && *t.content_length <= length) return "";
    return fmt::format(
        "{}: HTTP {} with {} bytes: the server (or a proxy or cache before it) ignored the "
        "Range header and sent the whole object, so the bytes asked for are not where they "
        "were asked for; use an S3 server or proxy that serves ranged GETs (206 Partial Content)",
        what, result.status,
        t.content_length ? std::to_string(*t.content_length) : std::string("an unknown number of"));
  }
  unsigned long long got_first = 0, got_last = 0;
  if (std::sscanf(t.content_range.c_str(), "bytes %llu-%llu", &got_first, &got_last) != 2 ||
      got_first != first || got_last < got_first || got_last > first + length - 1)
    return fmt::format(
        "{}: HTTP 206 with Content-Range '{}', not the range asked for; the server (or a proxy "
        "before it) answers ranged GETs wrongly",
        what, t.content_range);
  return "";
}

S3Result S3Endpoint::AskWithGet(const S3Request& head, S3Transfer& transfer) const {
  S3Request get;
  get.key = head.key;
  if (head.key.empty())
    get.query = {{"list-type", "2"}, {"max-keys", "1"}};
  else
    get.range = {{0, 1}};
  std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
  if (!easy) return {CURLE_FAILED_INIT, 0, false};
  Prepare(easy.get(), get, transfer);
  const S3Result result = Finish(easy.get(), curl_easy_perform(easy.get()));
  RecordLatency(get, transfer);
  return result;
}

std::string S3Endpoint::CodeHint(const S3Request& r, const std::string& target, long status,
                                 const std::string& code, const std::string& request_time,
                                 const std::string& server_time) const {
  const std::string credentials = options_.credentials_source.empty() ? "nowhere: none were found"
                                                                      : options_.credentials_source;
  if (code == "RequestTimeTooSkewed") {
    // The signature is dated by this host's clock; S3 allows 15 minutes either way.
    return fmt::format(
        "this host's clock{} and the server's{} differ by more than the server allows: set "
        "this host's clock right (NTP: timedatectl, chronyc tracking), or the server's",
        request_time.empty() ? "" : " (" + request_time + ")",
        server_time.empty() ? "" : " (" + server_time + ")");
  }
  if (code == "AccessDenied") {
    // The signature was accepted (else SignatureDoesNotMatch or InvalidAccessKeyId): the key
    // is known, it lacks a permission.
    return fmt::format(
        "the access key (from {}) is valid, but not allowed {}{} on {}: grant it that "
        "permission (the user's policy, or the bucket's policy or ACL: a bucket another user "
        "owns must be shared by its owner), or use a key that has it",
        credentials, Operation(r), PermissionNote(Operation(r)), Describe(target));
  }
  if (code == "SignatureDoesNotMatch") {
    // The key ID is known (else InvalidAccessKeyId): the secret signed something else.
    return fmt::format(
        "the server knows the access key, not this signature: check the secret access key "
        "(from {}), which must be that key's; or something on the way changed the request "
        "(a proxy rewriting its Host header)",
        credentials);
  }
  if (code == "InvalidAccessKeyId")
    return fmt::format(
        "the server knows no such access key: check the access key ID (from {}), and that "
        "the endpoint is the server (or account) that issued it",
        credentials);
  if (code == "AuthorizationHeaderMalformed" || code == "PermanentRedirect")
    return fmt::format(
        "the request was signed for region {}, not the bucket's: set AWS_REGION or "
        "storage.storage_options.region to the bucket's region",
        options_.region);
  if (code == "ExpiredToken" || code == "InvalidToken" || code == "TokenRefreshRequired")
    return "the session token (AWS_SESSION_TOKEN or storage.storage_options.session_token) "
           "has expired or is not valid: get new temporary credentials";
  if (status == 403)
    return fmt::format("check the access key and secret (from {}) and the region ({})", credentials,
                       options_.region);
  if (code == "NoSuchBucket")
    return fmt::format("create bucket '{}' or name an existing one (there is no such bucket at {})",
                       location_.bucket, options_.endpoint);
  if (status == 413 || code == "EntityTooLarge")
    return fmt::format(
        "the server refused a {}-byte request body as too large: lower "
        "storage.storage_options.part_size (now {} bytes) to what it accepts",
        r.body_size, options_.part_size);
  if (status == 501 || code == "NotImplemented")
    return fmt::format("this S3 server does not implement {}", Operation(r));
  if (code == "NoSuchKey" || status == 404)
    return "the object is missing: write the dataset first (trainbench datagen)";
  return "see the endpoint's logs for the request id";
}

std::string S3Endpoint::Error(const S3Request& r, const S3Result& result,
                              const S3Transfer& t) const {
  // A listing names the prefix it lists.
  std::string target = r.key;
  for (const auto& [name, value] : r.query)
    if (r.key.empty() && name == "prefix") target = value;
  const std::string what =
      fmt::format("S3 {} {} at {}", Operation(r), Describe(target), options_.endpoint);
  // Tries that ran out name how many there were and what the earlier ones met: the last
  // one's failure alone reads as if it were the only one.
  unsigned earlier = 0;
  std::vector<std::pair<unsigned, std::string>> kinds;
  for (const auto& [kind, count] : t.failed_tries) {
    earlier += count;
    kinds.emplace_back(count, kind);
  }
  std::sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a > b; });
  std::string met;
  for (const auto& [count, kind] : kinds)
    met += fmt::format("{}{} x {}", met.empty() ? "" : ", ", count, kind);
  std::string tries, more;
  if (Retryable(result, t)) {
    if (earlier == 0)
      tries = fmt::format("; it was the only try (storage.storage_options.s3_max_attempts is {})",
                          options_.max_attempts);
    else
      tries = fmt::format(
          "; that was the last of {} tries (storage.storage_options.s3_max_attempts is {}), the "
          "{} before it met: {}",
          earlier + 1, options_.max_attempts, earlier, met);
    more = "; raise storage.storage_options.s3_max_attempts to try more times";
  } else if (earlier > 0) {
    tries = fmt::format(" (on try {}; the {} before it met: {})", earlier + 1, earlier, met);
  }
  if (result.curl != CURLE_OK)
    return fmt::format(
        "{}: {} ({}){}; {}{}", what, t.error[0] ? t.error : curl_easy_strerror(result.curl),
        static_cast<int>(result.curl), tries, TransportHint(result.curl, t.error), more);
  ErrorBody body = ParseErrorBody(t.text);
  std::string request_id = t.request_id;
  if (result.error_in_body)
    return fmt::format(
        "{}: HTTP 200 with an error in its body{}{}{}; the server accepted the request, then "
        "failed it, {} times in a row: see the endpoint's logs for the request id, and run the "
        "command again (storage.storage_options.s3_max_attempts sets the tries)",
        what, body.code.empty() ? "" : ": " + body.code,
        body.message.empty() ? "" : " (" + body.message + ")",
        request_id.empty() ? "" : ", request id " + request_id, options_.max_attempts);
  std::string hint, learned;
  if (body.code.empty() && result.status == 403 && r.method == "HEAD") {
    // A HEAD's reply has no body, so its 403 does not say why. A Date header far from this
    // host's clock tells RequestTimeTooSkewed without another request; else a GET of the
    // same key is answered with the code.
    const auto server = ParseHttpDate(t.date);
    const int64_t here = static_cast<int64_t>(std::time(nullptr));
    if (server && std::llabs(*server - here) > kMaxSkewSeconds) {
      learned = " (no body: a HEAD's reply; its Date shows why)";
      hint = fmt::format(
          "this host's clock ({}) is {:.0f} min {} the server's (its reply's Date: {}), more than "
          "the 15 min S3 allows a signed request: set this host's clock right (NTP: timedatectl, "
          "chronyc tracking), or the server's",
          UtcStamp(), static_cast<double>(std::llabs(*server - here)) / 60,
          *server > here ? "behind" : "ahead of", t.date);
    } else {
      S3Transfer asked;
      const S3Result answer = AskWithGet(r, asked);
      ErrorBody got = ParseErrorBody(asked.text);
      if (answer.curl == CURLE_OK && !got.code.empty()) {
        body = std::move(got);
        if (request_id.empty()) request_id = asked.request_id;
        learned = fmt::format(" (said by a GET of the same {}: a HEAD's reply has no body)",
                              r.key.empty() ? "bucket" : "key");
      } else {
        learned = " (no body: a HEAD's reply; a GET of the same key did not say why either)";
      }
    }
  }
  const std::string& code = body.code;
  if (hint.empty())
    hint = CodeHint(r, target, result.status, code, body.request_time, body.server_time);
  return fmt::format("{}: HTTP {}{}{}{}{}{}; {}{}", what, result.status,
                     code.empty() ? "" : " " + code, learned,
                     body.message.empty() ? "" : " (" + body.message + ")",
                     request_id.empty() ? "" : ", request id " + request_id, tries, hint, more);
}

std::string S3Endpoint::TransportHint(CURLcode code, const std::string& curl_error) const {
  const std::string source =
      options_.ca_bundle_source.empty() ? "the options" : options_.ca_bundle_source;
  const std::string host = EndpointHost(options_.endpoint);
  switch (code) {
    case CURLE_PEER_FAILED_VERIFICATION:
      // OpenSSL judges a certificate's dates by this host's clock.
      if (curl_error.find("not yet valid") != std::string::npos)
        return fmt::format(
            "the endpoint's TLS certificate ({}) is not valid yet by this host's clock: this "
            "host's clock is behind (check `date`; set it right with NTP), or the certificate "
            "was issued for a later date",
            host);
      if (curl_error.find("has expired") != std::string::npos)
        return fmt::format(
            "the endpoint's TLS certificate ({}) has expired by this host's clock: renew the "
            "certificate, or, if this host's clock is ahead (check `date`), set it right",
            host);
      // libcurl's OpenSSL backend: "SSL: no alternative certificate subject name matches
      // target host name 'x'" or "SSL: certificate subject name 'y' does not match ...".
      if (curl_error.find("subject name") != std::string::npos)
        return fmt::format(
            "the endpoint's TLS certificate does not name the host connected to{}: use a name "
            "or address the certificate lists in the endpoint URL",
            virtual_hosted_
                ? fmt::format(" ({}.{}: virtual-hosted addressing needs a certificate for "
                              "*.{}; or set storage.storage_options.s3_force_path_style=true)",
                              location_.bucket, host, host)
                : fmt::format(" ({})", host));
      return fmt::format(
          "the endpoint's TLS certificate is not signed by a CA trusted here ({}): for a private "
          "or self-signed CA set storage.storage_options.ca_bundle or AWS_CA_BUNDLE to a PEM "
          "file holding that CA",
          options_.ca_bundle.empty()
              ? std::string("the system's CAs")
              : fmt::format("the CAs in {}, from {}", options_.ca_bundle, source));
    case CURLE_SSL_CACERT_BADFILE:
      return fmt::format(
          "the CA bundle '{}' (from {}) cannot be read as PEM certificates: fix "
          "storage.storage_options.ca_bundle or AWS_CA_BUNDLE",
          options_.ca_bundle, source);
    case CURLE_SSL_CONNECT_ERROR:
      return "the TLS handshake failed: check that the endpoint's port speaks https (else use "
             "http://) and its certificate";
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_OPERATION_TIMEDOUT:
      // The endpoint was reached: the answer broke off or stalled on the way.
      return fmt::format(
          "the connection to {} broke off or stalled mid-request: see the endpoint's logs (and "
          "those of any proxy or load balancer before it) and the network between",
          host);
    default:
      return "check the endpoint (AWS_ENDPOINT_URL or storage.storage_options.endpoint_url) and "
             "that it is reachable";
  }
}

S3Result S3Endpoint::Perform(const S3Request& request, S3Transfer& transfer) const {
  thread_local std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
  transfer.failed_tries.clear();
  S3Result result;
  for (unsigned attempt = 1;; ++attempt) {
    Prepare(easy.get(), request, transfer);
    result = Finish(easy.get(), curl_easy_perform(easy.get()));
    RecordLatency(request, transfer);
    if (result.Ok() && Operation(request) == "CompleteMultipartUpload" &&
        IsErrorDocument(transfer.text))
      result.error_in_body = true;
    if (const std::string wrong = RangeError(request, result, transfer); !wrong.empty())
      throw IoError(wrong, 0);
    if (result.Ok() || (request.method == "HEAD" && result.status == 404) ||
        std::ranges::find(request.returned_statuses, result.status) !=
            request.returned_statuses.end())
      return result;
    if (attempt >= options_.max_attempts || !Retryable(result, transfer)) break;
    const double backoff = BackoffSeconds(attempt);
    CountRetry(transfer, result, backoff);
    std::this_thread::sleep_for(std::chrono::duration<double>(backoff));
  }
  throw IoError(Error(request, result, transfer), 0);
}

}  // namespace trainbench::storage

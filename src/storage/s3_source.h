// An S3 bucket or prefix seen as the origin of a download (stage's SOURCE s3://...): its
// objects listed, HEADed many at a time, and named as URLs and mirror paths, and the signer
// of the ranged GETs RangeStreams makes of them. Storage's public face for that, so a
// downloader never sees libcurl or SigV4. Thread-compatible.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::storage {

class RangeGetSigner;
class S3Endpoint;
class S3Storage;

class S3Source {
 public:
  // `uri`: s3://bucket[/key-or-prefix]; `options` as DLIO's storage_options (the
  // environment and ~/.aws fill the rest). Throws UsageError on a bad URI or option.
  S3Source(const std::string& uri, const std::map<std::string, std::string>& options);
  ~S3Source();

  // The full key of `path` under the URI's key ("" for the key itself).
  std::string Key(const std::string& path) const;
  // "s3://bucket/key", for messages.
  std::string Describe(const std::string& key) const;
  // The URL a GET of `key` goes to (path-style or virtual-hosted, as the endpoint wants).
  std::string ObjectUrl(const std::string& key) const;
  // "/bucket/key", percent-encoded: the object's path under a mirror's base URL.
  std::string MirrorPath(const std::string& key) const;
  // The size of the object at `path` under the URI (HEAD); nullopt when there is none.
  std::optional<uint64_t> Size(const std::string& path);
  // Every object under the URI's prefix (ListObjectsV2 pages).
  std::vector<ListEntry> List();
  // Requests made so far (every attempt, retries included).
  uint64_t Requests() const;
  // The endpoint's URL without userinfo (Storage::EndpointUrl), for an op-log.
  std::string EndpointUrl() const;

  struct HeadResult {
    bool found = false;  // false: 404
    std::optional<uint64_t> content_length;
    std::string etag;
    unsigned attempts = 1;
    uint64_t latency_ns = 0;       // from the first attempt's start to the end, backoffs included
    uint64_t last_attempt_ns = 0;  // of that, the last attempt alone
  };
  // HEADs `keys` (full keys), `concurrency` in flight, each retried as S3 requests are;
  // done(i, result) for each as it finishes, in any order. `between` runs each turn of the
  // loop (it may throw, to stop). Throws IoError naming the object and endpoint when a HEAD
  // fails other than with a 404.
  void HeadAll(const std::vector<std::string>& keys, unsigned concurrency,
               const std::function<void(size_t, const HeadResult&)>& done,
               const std::function<void()>& between) const;

  // The signer of ranged GETs of its objects, for storage's HTTP client (RangeStreams).
  const RangeGetSigner& signer() const;

 private:
  const S3Endpoint& endpoint() const;

  std::unique_ptr<S3Storage> storage_;
  std::unique_ptr<RangeGetSigner> signer_;
};

}  // namespace trainbench::storage

// What `stage` fetches: SOURCE as an http(s) URL (one object), an s3:// object or every
// object under an s3:// prefix, or a local file or folder; and the URLs that may serve each
// object: the mirrors (caches tried in order before the origin), then the origin itself.
// A mirror is a base URL: the object's path at the origin is appended to it
// (`--mirror http://cache:3128` serves http://origin/data/x.tar as
// http://cache:3128/data/x.tar; for s3://bucket/key as http://cache:3128/bucket/key).
// Thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace trainbench::storage {
class S3Source;
}  // namespace trainbench::storage

namespace trainbench::stage {

enum class SourceKind { kHttp, kS3, kLocal };

// One object to stage.
struct SourceObject {
  std::string name;              // relative path under DEST
  std::string origin_url;        // http(s)://... or file:///...; for S3 the endpoint URL of the key
  std::string s3_key;            // S3: the object's full key
  std::string mirror_path;       // appended to a mirror's base URL ("/data/x.tar", "/bucket/key")
  std::optional<uint64_t> size;  // known from a listing or stat; else from the probe
};

class Source {
 public:
  // Parses SOURCE; `s3_options` as DLIO's storage_options (the environment and ~/.aws fill
  // the rest). Throws UsageError on a SOURCE that is none of the three.
  Source(const std::string& source, const std::map<std::string, std::string>& s3_options);
  ~Source();

  SourceKind kind() const { return kind_; }
  const std::string& text() const { return text_; }
  // The objects: one for a URL or a file; for an s3:// prefix or a folder, every object or
  // file under it (in name order). Throws RuntimeError naming SOURCE when there are none.
  std::vector<SourceObject> List();
  // The S3 bucket or prefix of an S3 source (null otherwise).
  const storage::S3Source* s3() const { return s3_.get(); }

 private:
  SourceKind kind_;
  std::string text_;
  std::unique_ptr<storage::S3Source> s3_;
};

// "scheme://host[:port]" of a URL ("file://" for a file URL), without its userinfo
// (user:password@): a per-source row's key.
std::string UrlOrigin(const std::string& url);
// The path (and query) of a URL, from its first '/' after the host; "/" when it has none.
std::string UrlPath(const std::string& url);
// The last path segment of a URL, without its query: the staged file's name.
std::string UrlBaseName(const std::string& url);
// `base` with `path` appended (one '/' between them).
std::string JoinUrl(const std::string& base, const std::string& path);

}  // namespace trainbench::stage

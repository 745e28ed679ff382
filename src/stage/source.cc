#include "stage/source.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "common/error.h"
#include "common/strings.h"
#include "storage/s3_source.h"

namespace trainbench::stage {
namespace fs = std::filesystem;

namespace {

// A file URL for a local path (percent-encoding what a URL cannot hold as is).
std::string FileUrl(const fs::path& path) {
  return "file://" + PercentEncode(fs::absolute(path).lexically_normal().string(), true);
}

// A local file, or every file under a local folder.
std::vector<SourceObject> LocalObjects(const std::string& text) {
  std::vector<SourceObject> objects;
  std::error_code ec;
  const fs::path root(text);
  if (fs::is_regular_file(root, ec)) {
    SourceObject o;
    o.name = root.filename().string();
    o.origin_url = FileUrl(root);
    o.size = fs::file_size(root, ec);
    objects.push_back(o);
    return objects;
  }
  if (!fs::is_directory(root, ec))
    throw RuntimeError(fmt::format("SOURCE '{}': no such file or folder; check the path", text));
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    SourceObject o;
    o.name = fs::relative(it->path(), root).string();
    o.origin_url = FileUrl(it->path());
    o.size = it->file_size(ec);
    objects.push_back(o);
  }
  if (ec)
    throw RuntimeError(fmt::format("SOURCE '{}': cannot list the folder: {}", text, ec.message()));
  return objects;
}

// A key that is an object is that object; otherwise a prefix of objects.
std::vector<SourceObject> S3Objects(storage::S3Source& s3) {
  std::vector<SourceObject> objects;
  const std::string key = s3.Key("");
  auto object_for = [&](const std::string& full_key, const std::string& name) {
    SourceObject o;
    o.name = name;
    o.s3_key = full_key;
    o.origin_url = s3.ObjectUrl(full_key);
    o.mirror_path = s3.MirrorPath(full_key);
    return o;
  };
  if (!key.empty()) {
    if (const auto size = s3.Size("")) {
      auto o = object_for(key, key.substr(key.rfind('/') + 1));
      o.size = *size;
      objects.push_back(o);
      return objects;
    }
  }
  for (const auto& entry : s3.List()) {
    auto o = object_for(s3.Key(entry.path), entry.path);
    o.size = entry.size_bytes;
    objects.push_back(o);
  }
  return objects;
}

}  // namespace

std::string UrlOrigin(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const size_t end = url.find_first_of("/?#", scheme + 3);
  std::string authority = url.substr(scheme + 3, end == std::string::npos ? end : end - scheme - 3);
  // Not the userinfo (user:password@): the row names the server, and holds no secret.
  authority = authority.substr(authority.rfind('@') + 1);
  return ToLower(url.substr(0, scheme + 3) + authority);
}

std::string UrlPath(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t start = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (start == std::string::npos) return "/";
  return url.substr(start, url.find('#', start) - start);
}

std::string UrlBaseName(const std::string& url) {
  std::string path = UrlPath(url);
  path = path.substr(0, path.find('?'));
  while (!path.empty() && path.back() == '/') path.pop_back();
  return path.substr(path.rfind('/') + 1);
}

std::string JoinUrl(const std::string& base, const std::string& path) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') b.pop_back();
  return path.empty() || path[0] == '/' ? b + path : b + "/" + path;
}

Source::Source(const std::string& source, const std::map<std::string, std::string>& s3_options)
    : text_(source) {
  const std::string lower = ToLower(source);
  if (StartsWith(lower, "http://") || StartsWith(lower, "https://")) {
    kind_ = SourceKind::kHttp;
    if (UrlBaseName(source).empty())
      throw UsageError(fmt::format(
          "SOURCE '{}' names no object (its path ends in '/'): HTTP cannot list a folder; name "
          "the object's URL",
          source));
  } else if (StartsWith(lower, "s3://")) {
    kind_ = SourceKind::kS3;
    s3_ = std::make_unique<storage::S3Source>(source, s3_options);
  } else if (StartsWith(lower, "file://") || lower.find("://") == std::string::npos) {
    kind_ = SourceKind::kLocal;
    text_ = StartsWith(lower, "file://") ? source.substr(7) : source;
  } else {
    throw UsageError(fmt::format(
        "SOURCE '{}': unknown scheme; give an http:// or https:// URL, s3://bucket/key (or a "
        "prefix), or a local path",
        source));
  }
}

Source::~Source() = default;

std::vector<SourceObject> Source::List() {
  if (kind_ == SourceKind::kHttp) {
    SourceObject o;
    o.name = UrlBaseName(text_);
    o.origin_url = text_;
    o.mirror_path = UrlPath(text_);
    return {o};
  }
  std::vector<SourceObject> objects =
      kind_ == SourceKind::kLocal ? LocalObjects(text_) : S3Objects(*s3_);
  std::sort(objects.begin(), objects.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  if (objects.empty())
    throw RuntimeError(
        fmt::format("SOURCE '{}' holds no objects: check the path or prefix", text_));
  return objects;
}

}  // namespace trainbench::stage

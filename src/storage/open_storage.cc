#include <fmt/format.h>

#include "common/error.h"
#include "common/secrets.h"
#include "common/strings.h"
#include "storage/http_storage.h"
#include "storage/posix_storage.h"
#include "storage/s3/s3_storage.h"
#include "storage/storage.h"

namespace trainbench::storage {

std::unique_ptr<Storage> OpenStorage(const std::string& uri,
                                     const std::map<std::string, std::string>& options) {
  if (StartsWith(uri, "file://")) return std::make_unique<PosixStorage>(uri.substr(7));
  if (StartsWith(uri, "s3://")) return std::make_unique<S3Storage>(uri, options);
  // A web server's URL is often typed as a browser shows it, in any case.
  const std::string lower = ToLower(uri.substr(0, 8));
  if (StartsWith(lower, "http://") || StartsWith(lower, "https://"))
    return std::make_unique<HttpStorage>(uri);
  const size_t scheme = uri.find("://");
  if (scheme != std::string::npos)
    throw UsageError(fmt::format(
        "storage URI '{}': scheme '{}' is not supported (use a path, file:///path, "
        "s3://bucket/prefix, or http(s)://host/path: one object on a web server, read only)",
        RedactUrlPasswords(uri), uri.substr(0, scheme)));
  return std::make_unique<PosixStorage>(uri);
}

}  // namespace trainbench::storage

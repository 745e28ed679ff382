#include <fmt/format.h>

#include "common/error.h"
#include "common/strings.h"
#include "storage/posix_storage.h"
#include "storage/s3/s3_storage.h"
#include "storage/storage.h"

namespace trainbench::storage {

std::unique_ptr<Storage> OpenStorage(const std::string& uri,
                                     const std::map<std::string, std::string>& options) {
  if (StartsWith(uri, "file://")) return std::make_unique<PosixStorage>(uri.substr(7));
  if (StartsWith(uri, "s3://")) return std::make_unique<S3Storage>(uri, options);
  const size_t scheme = uri.find("://");
  if (scheme != std::string::npos)
    throw UsageError(
        fmt::format("storage URI '{}': scheme '{}' is not supported (use a path, file:///path or "
                    "s3://bucket/prefix)",
                    uri, uri.substr(0, scheme)));
  return std::make_unique<PosixStorage>(uri);
}

void Storage::ListEach(const std::string& prefix,
                       const std::function<void(const ListEntry&)>& each) {
  for (const auto& entry : List(prefix)) each(entry);
}

std::vector<unsigned char> ReadAll(Storage& storage, const std::string& path) {
  auto file = storage.Open(path);
  std::vector<unsigned char> data(file->Size());
  const size_t n = file->ReadAt(0, data.data(), data.size());
  data.resize(n);
  return data;
}

bool S3EndpointGiven(const std::map<std::string, std::string>& options) {
  return !ResolveS3Options(options).endpoint.empty();
}

}  // namespace trainbench::storage

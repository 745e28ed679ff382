#include "storage/read_engines.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "storage/engines/null_engine.h"
#include "storage/engines/pread_engine.h"

namespace trainbench::storage {

const std::vector<ReadEngineDescription>& KnownReadEngines() {
  static const std::vector<ReadEngineDescription> kEngines = {
      {"pread", "positional reads, one per reader thread (any storage)"},
      {"uring", "io_uring: each reader thread keeps many reads in flight (file systems)"},
      {"memory", "reads of objects held in memory, completed out of order (tests)"},
      {"s3", "ranged GETs through libcurl's multi interface, many in flight per loop (S3)"},
      {"null", "completes every read at once without reading: trainbench's own overhead"},
  };
  return kEngines;
}

std::unique_ptr<ReadEngine> Storage::OpenReadEngine(SharedObjectNames objects,
                                                    const ReadEngineOptions& options) {
  if (options.engine == "pread") return MakePreadEngine(*this, std::move(objects), options);
  if (options.engine == "null") return MakeNullEngine(std::move(objects), *this);
  return nullptr;
}

namespace {

[[noreturn]] void RefuseEngine(const Storage& storage, const std::string& engine) {
  const auto names = storage.ReadEngines();
  std::string usable;
  for (size_t i = 0; i < names.size(); ++i)
    usable += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  throw UsageError(fmt::format("--io-engine {}: not available for {} (use {})", engine,
                               storage.Describe(""), usable));
}

}  // namespace

void CheckReadEngine(const Storage& storage, const std::string& engine) {
  const auto names = storage.ReadEngines();
  if (!engine.empty() && std::find(names.begin(), names.end(), engine) == names.end())
    RefuseEngine(storage, engine);
}

std::unique_ptr<ReadEngine> OpenReadEngine(Storage& storage, SharedObjectNames objects,
                                           const ReadEngineOptions& options) {
  ReadEngineOptions o = options;
  if (o.engine.empty()) o.engine = storage.DefaultReadEngine();
  if (auto engine = storage.OpenReadEngine(std::move(objects), o)) return engine;
  RefuseEngine(storage, o.engine);
}

}  // namespace trainbench::storage

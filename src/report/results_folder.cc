#include "report/results_folder.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/error.h"
#include "storage/storage.h"

namespace trainbench::report {

std::string CreateResultsFolder(const std::string& output_folder, const std::string& workload,
                                const std::string& utc_stamp) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(output_folder, ec);
  if (ec)
    throw IoError(fmt::format("cannot create output.folder '{}': {}", output_folder, ec.message()),
                  ec.value());
  for (int i = 0;; ++i) {
    const std::string name =
        fmt::format("{}-{}{}", workload, utc_stamp, i ? fmt::format("-{}", i) : "");
    const fs::path path = fs::path(output_folder) / name;
    if (fs::create_directory(path, ec)) return path.string();
    if (ec)
      throw IoError(
          fmt::format("cannot create results folder '{}': {}", path.string(), ec.message()),
          ec.value());
  }
}

void WriteResultFile(const std::string& folder, const std::string& name, const std::string& text) {
  auto storage = storage::OpenStorage(folder);
  auto out = storage->Create(name);
  out->Append(text.data(), text.size());
  out->Commit();
}

}  // namespace trainbench::report

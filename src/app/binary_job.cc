#include "app/binary_job.h"

#include "common/output_path.h"
#include "storage/storage.h"

namespace trainbench::app {

JobEnv BinaryJobEnv(ResultsSink* results) {
  JobEnv env{dist::World(), nullptr, results};
  env.open_storage = [](const std::string& uri, const std::map<std::string, std::string>& o) {
    return storage::OpenStorage(uri, o);
  };
  return env;
}

namespace {

std::unique_ptr<FolderResults> OpenFolderResults(const std::string& folder,
                                                 const std::string& log_file,
                                                 const std::string& flag) {
  if (folder.empty()) return nullptr;
  if (!flag.empty()) CheckWritableFolder(folder, flag);
  return std::make_unique<FolderResults>(folder, log_file);
}

}  // namespace

BinaryJob::BinaryJob(const std::string& folder, const std::string& log_file,
                     const std::string& flag)
    : results_(OpenFolderResults(folder, log_file, flag)), env_(BinaryJobEnv(results_.get())) {}

void EndJob(int code) { dist::AbortJob(code); }

}  // namespace trainbench::app

#include "app/frame/binary_job.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/output_path.h"
#include "common/secrets.h"
#include "common/strings.h"
#include "storage/storage.h"

namespace trainbench::app {

JobEnv BinaryJobEnv(ResultsSink* results) {
  JobEnv env{dist::World(), nullptr, results};
  // A job's folders (a dataset, checkpoints, prepared objects) are listed and written: a web
  // server's URL, which storage::OpenStorage opens for reading one object in place (train
  // --data, stage), is refused here before any request.
  env.open_storage = [](const std::string& uri, const std::map<std::string, std::string>& o) {
    const std::string lower = ToLower(uri);
    if (StartsWith(lower, "http://") || StartsWith(lower, "https://"))
      throw UsageError(fmt::format(
          "{}: a folder of a job is a path, file:///path or s3://bucket/prefix; a web server "
          "has no listing and takes no writes (stage it first: trainbench stage URL DIR)",
          RedactUrlPasswords(uri)));
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

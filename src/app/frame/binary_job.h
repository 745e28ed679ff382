// The JobEnv of the binary: the world's communicator (MPI when launched by mpirun, else a
// single process) and storage::OpenStorage.
#pragma once

#include <memory>
#include <string>

#include "app/frame/job_env.h"
#include "app/frame/results_sink.h"

namespace trainbench::app {

JobEnv BinaryJobEnv(ResultsSink* results);

// The binary's JobEnv with its results kept under `folder` (FolderResults, the log named
// `log_file`), or kept nowhere when `folder` is "". With `flag` ("--output"), the folder is
// checked first, named so in the error: one that cannot take the results must not cost the
// work. Not copyable: the env points at the results.
class BinaryJob {
 public:
  BinaryJob(const std::string& folder, const std::string& log_file, const std::string& flag = "");
  BinaryJob(const BinaryJob&) = delete;
  BinaryJob& operator=(const BinaryJob&) = delete;
  JobEnv& env() { return env_; }

 private:
  std::unique_ptr<FolderResults> results_;
  JobEnv env_;
};

// Ends every rank of the job with `code` after this one has said why (dist::AbortJob).
void EndJob(int code);

}  // namespace trainbench::app

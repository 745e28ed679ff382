#include "app/job_env.h"

namespace trainbench::app {

JobEnv BinaryJobEnv(ResultsSink* results) {
  JobEnv env{dist::World(), nullptr, results, nullptr};
  env.open_storage = [](const std::string& uri, const std::map<std::string, std::string>& o) {
    return storage::OpenStorage(uri, o);
  };
  return env;
}

void EndJob(int code) { dist::AbortJob(code); }

}  // namespace trainbench::app

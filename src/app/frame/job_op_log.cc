#include "app/frame/job_op_log.h"

#include <fmt/format.h>

namespace trainbench::app {

std::string OpLogPath(const std::string& path, dist::Communicator& ranks) {
  return metrics::RankOpLogPath(path, ranks.Rank(), ranks.Size());
}

JobOpLog::JobOpLog(const std::string& path, dist::Communicator& ranks, const std::string& endpoint,
                   const std::string& job) {
  if (path.empty()) return;
  log_ = std::make_shared<metrics::OpLog>(
      OpLogPath(path, ranks),
      fmt::format("{}:{}{}", ranks.Host(), ranks.Rank(), job.empty() ? "" : "/" + job), endpoint);
}

storage::Storage& JobOpLog::Wrap(storage::Storage& storage) {
  if (!log_) return storage;
  wrapped_.push_back(std::make_unique<storage::OpLogStorage>(storage, log_));
  return *wrapped_.back();
}

std::string JobOpLog::Close() {
  if (!log_) return "";
  for (const auto& s : wrapped_) s->Flush();
  log_->Close();
  return fmt::format("op-log: {} operations in {}", log_->Records(), log_->path());
}

}  // namespace trainbench::app

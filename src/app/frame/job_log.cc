#include "app/frame/job_log.h"

#include "common/clock.h"
#include "common/log.h"

namespace trainbench::app {

void JobLog::Line(const std::string& line) {
  if (results_) results_->AppendLog(UtcStamp() + " " + line);
}

void JobLog::Info(const std::string& line) {
  LogInfo(line);
  Line(line);
}

void JobLog::Warn(const std::string& line) {
  LogWarning(line);
  Line("warning: " + line);
}

void JobLog::Error(const std::string& line) {
  LogError(line);
  Line("error: " + line);
}

}  // namespace trainbench::app

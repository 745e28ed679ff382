// Where a job keeps what it measured: a results folder on a file system
// (<output>/<name>-<UTC stamp>/, FolderResults) for the binary, or memory (MemoryResults)
// for the jobs' unit tests, which then need no files. The log and the time series are
// appended as the job goes, so a job killed with SIGKILL keeps what it measured; every other
// file is written whole (a temporary name, then a rename) or not at all.
// Thread safety: AppendLog may be called from any thread; the rest from one.
#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "metrics/timeseries.h"
#include "storage/storage.h"

namespace trainbench::app {

// The lock file of a resumable results folder (a sweep's), as a dataset's is named.
inline constexpr const char* kResultsLockName = ".trainbench.lock";

class ResultsSink {
 public:
  virtual ~ResultsSink() = default;
  // Makes the job's place for results, named by `name` (the workload or the command) and
  // `started`, and returns it as the user sees it. Throws IoError naming the folder.
  virtual std::string Open(const std::string& name, const std::string& started) = 0;
  // The same for a job that resumes: the place named `name` alone, taken as it is when an
  // earlier invocation made it (its journal is there), and held for this job alone: throws
  // UsageError naming the holder while another invocation runs there.
  virtual std::string OpenResumable(const std::string& name) = 0;
  // Writes one results file whole; throws IoError naming it.
  virtual void WriteFile(const std::string& file, const std::string& text) = 0;
  // One line of the job's log (the caller stamps it). Failures are ignored: the log must
  // not end a job that measured.
  virtual void AppendLog(const std::string& line) = 0;
  // One row of timeseries.csv as it is sampled; WriteFile("timeseries.csv") replaces them.
  virtual void AppendRow(const metrics::TimeseriesRow& row) = 0;
  // Removes what Open made: a job refused before its first measurement leaves no folder
  // that would pass for a run.
  virtual void Discard() = 0;
};

// Results under `output_folder`; the log is `log_file` in the job's folder ("": no log). With
// `folder_name`, the job's folder is named so (a mix's job: <mix folder>/<job>), not by the
// job's name and start, and must not exist yet.
class FolderResults : public ResultsSink {
 public:
  FolderResults(std::string output_folder, std::string log_file, std::string folder_name = "");
  ~FolderResults() override;
  FolderResults(const FolderResults&) = delete;
  FolderResults& operator=(const FolderResults&) = delete;

  std::string Open(const std::string& name, const std::string& started) override;
  std::string OpenResumable(const std::string& name) override;
  void WriteFile(const std::string& file, const std::string& text) override;
  void AppendLog(const std::string& line) override;
  void AppendRow(const metrics::TimeseriesRow& row) override;
  void Discard() override;

 private:
  void OpenLog();

  const std::string output_folder_;
  const std::string log_file_;
  const std::string folder_name_;
  std::string folder_;
  std::mutex log_mutex_;
  std::FILE* log_ = nullptr;
  std::FILE* rows_ = nullptr;
  std::unique_ptr<storage::StorageLock> lock_;  // a resumable folder's, held until the end
};

// Results kept in memory, for tests.
class MemoryResults : public ResultsSink {
 public:
  std::string Open(const std::string& name, const std::string& started) override;
  std::string OpenResumable(const std::string& name) override;
  void WriteFile(const std::string& file, const std::string& text) override;
  void AppendLog(const std::string& line) override;
  void AppendRow(const metrics::TimeseriesRow& row) override;
  void Discard() override;

  std::string name;  // "" until opened
  bool discarded = false;
  std::map<std::string, std::string> files;
  std::map<std::string, int> writes;  // how many times each file was written (as the job went)
  std::vector<std::string> log;
  std::vector<metrics::TimeseriesRow> rows;

 private:
  std::mutex mutex_;
};

}  // namespace trainbench::app

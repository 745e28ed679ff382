#include "app/frame/results_sink.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/error.h"
#include "report/results_folder.h"
#include "report/timeseries_csv.h"
#include "storage/storage.h"

namespace trainbench::app {

FolderResults::FolderResults(std::string output_folder, std::string log_file,
                             std::string folder_name)
    : output_folder_(std::move(output_folder)),
      log_file_(std::move(log_file)),
      folder_name_(std::move(folder_name)) {}

FolderResults::~FolderResults() {
  if (log_) std::fclose(log_);
  if (rows_) std::fclose(rows_);
}

std::string FolderResults::Open(const std::string& name, const std::string& started) {
  if (!folder_name_.empty()) {
    const std::filesystem::path path = std::filesystem::path(output_folder_) / folder_name_;
    std::error_code ec;
    std::filesystem::create_directories(output_folder_, ec);
    if (!std::filesystem::create_directory(path, ec))
      throw IoError(fmt::format("cannot create results folder '{}': {}", path.string(),
                                ec ? ec.message() : "it exists already"),
                    ec.value());
    folder_ = path.string();
  } else {
    folder_ = report::CreateResultsFolder(output_folder_, name, started);
  }
  OpenLog();
  return folder_;
}

std::string FolderResults::OpenResumable(const std::string& name) {
  const std::string folder = report::OpenResumableFolder(output_folder_, name);
  // Two invocations of one resumable job would run its work twice, interleave its journal and
  // write one summary: the second is refused while the first holds the folder's lock (flock:
  // released however the holder ends, so a killed one leaves it free).
  auto attempt = storage::OpenStorage(folder)->TryLock(kResultsLockName);
  if (!attempt.lock)
    throw UsageError(fmt::format(
        "results folder '{}' is in use by another trainbench ({}) running the same job: wait "
        "for it to end (a rerun then takes what it finished), or give another output folder",
        folder, attempt.holder));
  lock_ = std::move(attempt.lock);
  folder_ = folder;
  OpenLog();
  return folder_;
}

void FolderResults::OpenLog() {
  if (!log_file_.empty()) log_ = std::fopen((folder_ + "/" + log_file_).c_str(), "a");
}

void FolderResults::WriteFile(const std::string& file, const std::string& text) {
  if (file == "timeseries.csv" && rows_) {  // the whole series replaces the rows so far
    std::fclose(rows_);
    rows_ = nullptr;
  }
  report::WriteResultFile(folder_, file, text);
}

void FolderResults::AppendLog(const std::string& line) {
  std::lock_guard<std::mutex> lock(log_mutex_);
  if (!log_) return;
  std::fputs((line + "\n").c_str(), log_);
  std::fflush(log_);
}

void FolderResults::AppendRow(const metrics::TimeseriesRow& row) {
  if (folder_.empty()) return;
  if (!rows_) {
    rows_ = std::fopen((folder_ + "/timeseries.csv").c_str(), "w");
    if (!rows_) return;
    std::fputs(report::TimeseriesCsvHeader().c_str(), rows_);
  }
  std::fputs(report::TimeseriesCsvLine("0", row).c_str(), rows_);
  std::fflush(rows_);
}

void FolderResults::Discard() {
  if (folder_.empty()) return;
  if (log_) std::fclose(log_);
  if (rows_) std::fclose(rows_);
  log_ = rows_ = nullptr;
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
  folder_.clear();
}

std::string MemoryResults::Open(const std::string& job_name, const std::string& started) {
  name = job_name + "-" + started;
  return "memory:" + name;
}

std::string MemoryResults::OpenResumable(const std::string& job_name) {
  name = job_name;
  return "memory:" + name;
}

void MemoryResults::WriteFile(const std::string& file, const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  files[file] = text;
  ++writes[file];
}

void MemoryResults::AppendLog(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  log.push_back(line);
}

void MemoryResults::AppendRow(const metrics::TimeseriesRow& row) { rows.push_back(row); }

void MemoryResults::Discard() { discarded = true; }

}  // namespace trainbench::app

// A job's --op-log FILE (run, its checkpoints, datagen): this rank's file, named the same
// way by every command (one per rank under mpirun: ".rankNNNN" before .tsv.zst or .tsv),
// with client id "host:rank" ("host:rank/job" for a mix's job), and the storages that record into
// it (storage::OpLogStorage). Reads of a run's dataset are recorded by its read engine
// (storage::WithOpLog through sim::ReadFlags::op_log), not here. Not thread-safe: the job's thread
// sets it up and closes it; the storages it hands out are thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dist/communicator.h"
#include "metrics/op_log.h"
#include "storage/op_log_storage.h"
#include "storage/storage.h"

namespace trainbench::app {

// This rank's file for --op-log `path`: `path` itself in a single process.
std::string OpLogPath(const std::string& path, dist::Communicator& ranks);

class JobOpLog {
 public:
  // `path` "": no log (Wrap hands back the storage itself). Else creates this rank's file,
  // recording `endpoint` (the main storage's Describe("")); throws IoError naming it.
  // `job`: the mix's job this is ("" for a job alone), whose name the client id then carries
  // ("host:rank/job"), so each line says which job of a mix it was.
  JobOpLog(const std::string& path, dist::Communicator& ranks, const std::string& endpoint,
           const std::string& job = "");

  explicit operator bool() const { return log_ != nullptr; }
  // For a read engine (null when there is no log).
  const std::shared_ptr<metrics::OpLog>& log() const { return log_; }
  // `storage` recording into the log, or `storage` itself when there is none. `storage`
  // outlives this object.
  storage::Storage& Wrap(storage::Storage& storage);
  // Hands every wrapped storage's lines to the file and closes it; returns the line a job
  // prints, "op-log: N operations in FILE". Throws IoError when the file could not be
  // written whole (a full disk).
  std::string Close();

 private:
  std::shared_ptr<metrics::OpLog> log_;
  // After log_: destroyed first, so their last lines reach the log.
  std::vector<std::unique_ptr<storage::OpLogStorage>> wrapped_;
};

}  // namespace trainbench::app

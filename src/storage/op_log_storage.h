// A forwarding Storage that records every operation in an op-log (metrics/op_log.h), so
// writes and metadata requests are logged as the read engine's reads are (op_log_engine.h):
//   PUT     an object from Create to Commit, bytes = BytesWritten; a writer that fails is
//           recorded with the error, one destroyed uncommitted with "abandoned"
//   GET     each RandomAccessFile::ReadAt, bytes read (an Open that fails: a GET with the error)
//   HEAD    FileSize (n_objects 0 when the object is missing: not an error)
//   LIST    List, n_objects = the entries
//   DELETE  Remove
// An operation that throws is recorded with the message in the error column, then the
// exception goes on. `file` is the object's full name (Describe(path)), `endpoint` the
// storage's (Describe("")). Read engines are wrapped by storage::WithOpLog, so a run's reads
// are logged once, by the engine. Lines are kept until a batch is full: Flush() (or the
// destructor) before closing the log puts every operation in the file.
// Thread-safe: many threads share one buffer behind a mutex (these operations are whole
// objects and metadata, far fewer than a run's reads); `thread` numbers each calling thread
// when it first records, with a number the log has not given before (OpLog::NextThread).
#pragma once

#include <memory>

#include "metrics/op_log.h"
#include "storage/forwarding_storage.h"

namespace trainbench::storage {

class OpLogRecorder;  // op_log_storage.cc: the buffer, shared with the writers and files

class OpLogStorage : public ForwardingStorage {
 public:
  // Records into `log`; `base` outlives this storage and what it hands out.
  OpLogStorage(Storage& base, std::shared_ptr<metrics::OpLog> log);
  ~OpLogStorage() override;

  std::unique_ptr<AtomicWriter> Create(const std::string& path) override;
  std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                         const OpenOptions& options) override;
  std::optional<uint64_t> FileSize(const std::string& path) override;
  void Remove(const std::string& path) override;
  std::vector<ListEntry> List(const std::string& prefix) override;
  std::unique_ptr<ReadEngine> OpenReadEngine(SharedObjectNames objects,
                                             const ReadEngineOptions& options) override;

  // Hands the lines kept so far to the log.
  void Flush();

 private:
  std::shared_ptr<OpLogRecorder> recorder_;
};

}  // namespace trainbench::storage

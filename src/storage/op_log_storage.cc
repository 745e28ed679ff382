#include "storage/op_log_storage.h"

#include <exception>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>

#include "storage/op_log_engine.h"

namespace trainbench::storage {

// The storage's buffer and thread numbers. Writers and files hold it too, so one that
// outlives the storage still records.
class OpLogRecorder {
 public:
  OpLogRecorder(std::shared_ptr<metrics::OpLog> log, std::string endpoint)
      : log_(std::move(log)), endpoint_(std::move(endpoint)), buffer_(log_) {}

  // One operation from `start_ns` to now.
  void Record(const char* op, std::string_view file, uint64_t n_objects, uint64_t bytes,
              int64_t start_ns, std::string_view error) {
    metrics::OpRecord r;
    r.op = op;
    r.n_objects = n_objects;
    r.bytes = bytes;
    r.file = file;
    r.error = error;
    r.endpoint = endpoint_;
    r.start_ns = start_ns;
    r.end_ns = metrics::WallNanos();
    std::lock_guard<std::mutex> lock(mutex_);
    auto [thread, added] = threads_.try_emplace(std::this_thread::get_id(), 0);
    if (added) thread->second = log_->NextThread();
    r.thread = thread->second;
    buffer_.Add(r);
  }

  void Flush() {
    std::lock_guard<std::mutex> lock(mutex_);
    buffer_.Flush();
  }

  const std::shared_ptr<metrics::OpLog>& log() const { return log_; }

 private:
  const std::shared_ptr<metrics::OpLog> log_;
  const std::string endpoint_;
  std::mutex mutex_;
  std::map<std::thread::id, uint64_t> threads_;
  metrics::OpLogBuffer buffer_;
};

namespace {

// Runs `call`; when it throws, records `op` on `file` (nothing moved) with the error and
// lets the exception go on.
template <typename Call>
auto RecordingErrors(OpLogRecorder& recorder, const char* op, std::string_view file,
                     int64_t start_ns, Call&& call) {
  try {
    return call();
  } catch (const std::exception& e) {
    recorder.Record(op, file, 1, 0, start_ns, e.what());
    throw;
  }
}

// One PUT from Create to Commit, or to the first error, or to its destruction uncommitted.
class OpLogWriter : public AtomicWriter {
 public:
  OpLogWriter(std::shared_ptr<OpLogRecorder> recorder, std::string file, int64_t start_ns,
              std::unique_ptr<AtomicWriter> base)
      : recorder_(std::move(recorder)),
        file_(std::move(file)),
        start_ns_(start_ns),
        base_(std::move(base)) {}
  ~OpLogWriter() override { Record("abandoned"); }

  void Append(const void* data, size_t size) override {
    Watched([&] { base_->Append(data, size); });
  }
  void Sync() override {
    Watched([&] { base_->Sync(); });
  }
  void Commit() override {
    // Counted before: a writer may hand its bytes over on Commit (MemoryStorage's does).
    const uint64_t bytes = base_->BytesWritten();
    Watched([&] { base_->Commit(); });
    Record({}, bytes);
  }
  uint64_t BytesWritten() const override { return base_->BytesWritten(); }

 private:
  template <typename Call>
  void Watched(Call&& call) {
    try {
      call();
    } catch (const std::exception& e) {
      Record(e.what());
      throw;
    }
  }
  // The PUT's one line: later calls (the destructor after an error) add nothing.
  void Record(std::string_view error) { Record(error, base_->BytesWritten()); }
  void Record(std::string_view error, uint64_t bytes) {
    if (recorded_) return;
    recorded_ = true;
    recorder_->Record("PUT", file_, 1, bytes, start_ns_, error);
  }

  const std::shared_ptr<OpLogRecorder> recorder_;
  const std::string file_;
  const int64_t start_ns_;
  std::unique_ptr<AtomicWriter> base_;
  bool recorded_ = false;
};

// Each ReadAt is a GET (a ranged GET on S3).
class OpLogFile : public RandomAccessFile {
 public:
  OpLogFile(std::shared_ptr<OpLogRecorder> recorder, std::string file,
            std::unique_ptr<RandomAccessFile> base)
      : recorder_(std::move(recorder)), file_(std::move(file)), base_(std::move(base)) {}

  size_t ReadAt(uint64_t offset, void* buffer, size_t size) override {
    const int64_t start = metrics::WallNanos();
    const size_t n = RecordingErrors(*recorder_, "GET", file_, start,
                                     [&] { return base_->ReadAt(offset, buffer, size); });
    recorder_->Record("GET", file_, 1, n, start, {});
    return n;
  }
  uint64_t Size() override { return base_->Size(); }

 private:
  const std::shared_ptr<OpLogRecorder> recorder_;
  const std::string file_;
  std::unique_ptr<RandomAccessFile> base_;
};

}  // namespace

OpLogStorage::OpLogStorage(Storage& base, std::shared_ptr<metrics::OpLog> log)
    : ForwardingStorage(base) {
  log->NoteEndpointUrl(base.EndpointUrl());  // where the log's s3:// names are, for a replay
  recorder_ = std::make_shared<OpLogRecorder>(std::move(log), base.Describe(""));
}

OpLogStorage::~OpLogStorage() { Flush(); }

void OpLogStorage::Flush() { recorder_->Flush(); }

std::unique_ptr<AtomicWriter> OpLogStorage::Create(const std::string& path) {
  const int64_t start = metrics::WallNanos();
  std::string file = base_.Describe(path);
  auto writer = RecordingErrors(*recorder_, "PUT", file, start, [&] { return base_.Create(path); });
  return std::make_unique<OpLogWriter>(recorder_, std::move(file), start, std::move(writer));
}

std::unique_ptr<RandomAccessFile> OpLogStorage::Open(const std::string& path,
                                                     const OpenOptions& options) {
  const int64_t start = metrics::WallNanos();
  std::string file = base_.Describe(path);
  auto opened =
      RecordingErrors(*recorder_, "GET", file, start, [&] { return base_.Open(path, options); });
  return std::make_unique<OpLogFile>(recorder_, std::move(file), std::move(opened));
}

std::optional<uint64_t> OpLogStorage::FileSize(const std::string& path) {
  const int64_t start = metrics::WallNanos();
  const std::string file = base_.Describe(path);
  const auto size =
      RecordingErrors(*recorder_, "HEAD", file, start, [&] { return base_.FileSize(path); });
  // A miss is n_objects 0 (no error: a HEAD that finds nothing answered); a hit's bytes are
  // the object's size, as sai3-bench logs a STAT, so a replay compares like with like.
  recorder_->Record("HEAD", file, size ? 1 : 0, size.value_or(0), start, {});
  return size;
}

void OpLogStorage::Remove(const std::string& path) {
  const int64_t start = metrics::WallNanos();
  const std::string file = base_.Describe(path);
  RecordingErrors(*recorder_, "DELETE", file, start, [&] { base_.Remove(path); });
  recorder_->Record("DELETE", file, 1, 0, start, {});
}

std::vector<ListEntry> OpLogStorage::List(const std::string& prefix) {
  const int64_t start = metrics::WallNanos();
  const std::string file = base_.Describe(prefix);
  auto entries =
      RecordingErrors(*recorder_, "LIST", file, start, [&] { return base_.List(prefix); });
  recorder_->Record("LIST", file, entries.size(), 0, start, {});
  return entries;
}

std::unique_ptr<ReadEngine> OpLogStorage::OpenReadEngine(SharedObjectNames objects,
                                                         const ReadEngineOptions& options) {
  // The base's engine reads through the base, not through Open above: each read once.
  return WithOpLog(base_.OpenReadEngine(std::move(objects), options), recorder_->log());
}

}  // namespace trainbench::storage

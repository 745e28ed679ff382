// An op-log: one line per storage operation, in sai3-bench's (s3dlio's) TSV columns, so its
// tools and trainbench's read each other's logs: idx, thread, op, client_id, n_objects, bytes,
// endpoint, file, error, start, first_byte, end, duration_ns (times as UTC ISO 8601 with
// nanoseconds; first_byte empty where the engine does not see it). A FILE ending in .zst is
// zstd-compressed, as sai3-bench writes them. Lines are written in batches from each thread's
// buffer and the stream is flushed at each batch, so a job killed with SIGKILL leaves a log
// that decompresses up to its last batch. A log of an s3:// endpoint has one more column
// after those, endpoint_url (the server's URL, never a key, secret or password: see
// NoteEndpointUrl), so a replay reaches the server the log was written against; readers that
// find columns by the header's names (sai3-bench's, trainbench's) read it as before.
// Thread safety: OpLog is thread-safe; an OpLogBuffer belongs to one thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace trainbench::metrics {

// The header line (no newline).
extern const char* const kOpLogHeader;

struct OpRecord {
  uint64_t thread = 0;
  const char* op = "GET";  // GET, PUT, HEAD, LIST, DELETE
  uint64_t n_objects = 1;
  uint64_t bytes = 0;
  std::string_view file;
  std::string_view error;
  // Empty: the log's. A log that records two storages (a run's dataset and its checkpoints)
  // names each one's own.
  std::string_view endpoint;
  int64_t start_ns = 0;       // wall clock, ns since the epoch
  int64_t first_byte_ns = 0;  // 0: not seen
  int64_t end_ns = 0;
};

class OpLog {
 public:
  // Creates FILE (replacing one there) and writes the header; throws IoError naming it.
  OpLog(const std::string& path, std::string client_id, std::string endpoint);
  ~OpLog();
  OpLog(const OpLog&) = delete;
  OpLog& operator=(const OpLog&) = delete;

  // Appends formatted lines (OpLogBuffer's); thread-safe.
  void Write(std::string_view lines);
  // The URL of the server an s3:// endpoint is on (storage::Storage::EndpointUrl, without
  // userinfo), from the first storage that records into the log with one: the endpoint_url
  // column, on the header and every line. The header of such a log waits for it until the
  // first lines; once they are written, a URL noted later is ignored. Thread-safe.
  void NoteEndpointUrl(std::string_view url);
  // The next record's index; thread-safe.
  uint64_t NextIndex() { return next_index_.fetch_add(1, std::memory_order_relaxed); }
  uint64_t Records() const { return next_index_.load(std::memory_order_relaxed); }
  // A number for the `thread` column not given before in this log, so the read engine's
  // queues and the threads of storages recording into the same log (a run's checkpoints) are
  // told apart; thread-safe.
  uint64_t NextThread() { return next_thread_.fetch_add(1, std::memory_order_relaxed); }
  const std::string& client_id() const { return client_id_; }
  const std::string& endpoint() const { return endpoint_; }
  const std::string& path() const { return path_; }
  // Ends the stream; later writes are dropped. Throws IoError when the file cannot be
  // completed (a full disk), naming it.
  void Close();

 private:
  void Emit(const void* data, size_t size, bool flush);
  void EmitHeader();  // with mutex_ held

  const std::string path_;
  const std::string client_id_, endpoint_;
  std::mutex mutex_;
  std::FILE* file_ = nullptr;
  void* zstd_ = nullptr;  // ZSTD_CStream*, null for a plain TSV
  std::string out_;       // compressed bytes waiting to be written
  bool header_written_ = false;
  std::string endpoint_url_;  // set: the endpoint_url column's value
  std::string with_url_;      // Write's lines with that column added
  std::atomic<uint64_t> next_index_{0};
  std::atomic<uint64_t> next_thread_{0};
  bool failed_ = false;
};

// Records of one thread, formatted as they come (numbered then) and handed to the log in
// batches of about `batch_bytes`, and when destroyed.
class OpLogBuffer {
 public:
  explicit OpLogBuffer(std::shared_ptr<OpLog> log, size_t batch_bytes = 32 * 1024);
  ~OpLogBuffer();
  void Add(const OpRecord& record);
  void Flush();

 private:
  char* PutTime(char* at, int64_t ns);

  std::shared_ptr<OpLog> log_;
  size_t batch_bytes_;
  std::string lines_;
  int64_t second_ = -1;  // the second whose "YYYY-MM-DDTHH:MM:SS." is in prefix_
  char prefix_[32] = {};
  size_t prefix_size_ = 0;
};

// Rank `rank`'s file for --op-log `path` in a job of `ranks` processes: ".rankNNNN" before
// .tsv.zst or .tsv (`path` itself for one process), so every command names them alike.
std::string RankOpLogPath(const std::string& path, int rank, int ranks);
// `path` with `tag` before .tsv.zst or .tsv (at the end otherwise): a mix's job's file
// (ops.resnet.tsv.zst), a rank's.
std::string TaggedOpLogPath(const std::string& path, const std::string& tag);

// Wall clock now, ns since the epoch.
int64_t WallNanos();

}  // namespace trainbench::metrics

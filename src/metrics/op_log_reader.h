// Reads an op-log (op_log.h's format, which is sai3-bench's): a plain or zstd-compressed TSV
// (told apart by zstd's magic number, not the name), columns found by the header's names so
// a log with extra or reordered columns reads too. A log cut short by a killed job (a
// truncated zstd frame, a last line without its newline) reads up to its last whole line and
// says how much it dropped. Thread-compatible: plain functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace trainbench::metrics {

struct OpLogEntry {
  uint64_t idx = 0;
  uint64_t thread = 0;
  std::string op;  // GET, PUT, HEAD, LIST, DELETE (sai3-bench's STAT reads as HEAD)
  std::string client_id;
  uint64_t n_objects = 1;
  uint64_t bytes = 0;
  std::string endpoint;       // the storage's root ("/data/", "s3://bucket/prefix/")
  std::string endpoint_url;   // the server of an s3:// endpoint ("http://host:7480"); "": unknown
  std::string file;           // the object's full name, or a name relative to the endpoint
  std::string error;          // "" when the operation succeeded
  int64_t start_ns = 0;       // ns since the epoch (UTC)
  int64_t first_byte_ns = 0;  // 0: not recorded
  int64_t end_ns = 0;
  uint64_t duration_ns = 0;
};

struct OpLogContents {
  std::vector<OpLogEntry> entries;  // in the file's order
  std::string dropped;  // why the end was dropped ("a truncated zstd frame"), "" when whole
};

// Throws IoError naming the file when it cannot be read, and UsageError naming the file, the
// line and the column when a line is not an op-log line (a header without idx, op, bytes,
// file, start, end; a field that is no number or time).
OpLogContents ReadOpLog(const std::string& path);

// "2026-11-25T03:20:01.123456789Z" (any number of fraction digits, "Z" or "+00:00") as ns
// since the epoch; false when it is no such time.
bool ParseUtcNanos(const std::string& text, int64_t& ns);

// The object `entry` names, relative to its endpoint (the full name less the endpoint).
std::string RelativeName(const OpLogEntry& entry);

}  // namespace trainbench::metrics

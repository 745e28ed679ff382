// One stream of the range fetcher (range_fetcher.h): the chunk it holds and its attempts at
// it. A slot takes a chunk (and the bytes of it an earlier run left), begins each attempt,
// takes in what the answer brings (checked against the range asked, written at the chunk's
// place or kept in memory, hashed) and, when an attempt ends without the whole chunk, says
// why. Not thread-safe: the fetch's loop thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stage/checksum.h"
#include "stage/fetch_sources.h"
#include "stage/range_fetcher.h"
#include "storage/range_streams.h"
#include "storage/transfer_end.h"

namespace trainbench::stage {

struct FetchSlot {
  unsigned index = 0;  // its stream in RangeStreams
  bool busy = false;   // holds a chunk (in flight, or waiting to be tried again)
  size_t item = 0;
  uint64_t chunk = 0, offset = 0, length = 0, object_size = 0;
  int fd = -1;  // pwrite target, or -1: into `buffer`
  unsigned attempt = 1;
  size_t source = 0;
  double retry_at = 0, attempt_start = 0, wait_start = 0;
  double last_byte = 0;                     // when this attempt's last byte arrived
  int64_t start_ns = 0, first_byte_ns = 0;  // this attempt's, wall clock (the op-log's)
  bool file_url = false;                    // a local file: no HTTP status to check
  // Bytes of the chunk kept from earlier attempts that were cut: the next attempt asks for
  // the rest only (as `curl -C -` does), and the chunk's hash carries on over them.
  uint64_t kept = 0;
  uint64_t attempt_kept = 0;  // `kept` when this attempt started
  uint64_t resumed = 0;       // of `kept`: bytes an earlier run left (not fetched by this one)
  uint64_t restarted = 0;     // kept bytes fetched by this run, thrown away by a 200's restart
  // This attempt's response; `received` counts the chunk's bytes, kept ones included.
  uint64_t received = 0;
  bool checked = false, error_mode = false, fail_hard = false;
  std::string fail, body_text;
  int write_errno = 0;
  std::unique_ptr<Hasher> sha = std::make_unique<Hasher>(HashKind::kSha256);
  std::vector<unsigned char> buffer;
  uint64_t* live_bytes = nullptr;
};

// Slot `s` takes chunk `chunk` of `item` (item `item_index` of the fetch), into its part file
// or (`compare`: a repair's, or an item without one) into memory: its first attempt, nothing
// of it kept yet.
void TakeChunk(FetchSlot& s, const FetchItem& item, size_t item_index, uint64_t chunk,
               bool compare);
// The first `bytes` of slot `s`'s chunk, which an earlier run left in the part file: hashed
// (the chunk's hash covers all of it) and kept, so the first attempt asks for the rest.
// Throws IoError when the part file cannot be read.
void ResumeFromPart(FetchSlot& s, const FetchItem& item, uint64_t bytes);
// A new attempt of slot `s` begins, asking for the chunk's bytes past those kept
// (`file_url`: from a file:// URL, which has no HTTP status).
void BeginAttempt(FetchSlot& s, bool file_url);

// Slot `s`'s next body bytes (`reply`: the answer's head); false stops the transfer (`fail`
// or `write_errno` says why).
bool ReceiveIntoSlot(FetchSlot& s, const storage::RangeReply& reply, const char* data, size_t n);

// Whether an answer of HTTP `status` fits the range slot `s` asked for: a 206, or a 200 for a
// chunk that is the whole object (a file:// URL has no status).
bool StatusFits(const FetchSlot& s, long status);

// Why slot `s`'s attempt, which ended as `end` without its whole chunk, failed: the answer's
// fault found on receiving it, a body cut short (`status_ok`: StatusFits), or the transfer's
// end with the words of an error reply.
AttemptFailure WhyAttemptFailed(const FetchSlot& s, const storage::TransferEnd& end,
                                bool status_ok);

}  // namespace trainbench::stage

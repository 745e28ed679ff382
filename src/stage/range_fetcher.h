// Fetches objects as parallel ranged GETs (storage::RangeStreams): each object is cut
// into chunks, at most `streams` are in flight (on kept-alive connections), each lands at
// its offset in the object's part file (pwrite) or, when the object streams into a
// consumer, in a buffer of its own. A chunk is tried at the best source not demoted
// (FetchSources); timeouts, cut connections, stalls (no byte for stall_timeout_s), 5xx and
// short bodies are retried with exponential backoff and full jitter, max_attempts tries in
// all. Redirects are followed, and the host that served each byte gets the bytes in its
// per-source row (the answering URL).
//
// Each object's bytes are also handed IN ORDER to FetchHooks::ordered as its prefix becomes
// contiguous: read back from the part file, or from the buffers of chunks that arrived early
// (at most `streams` chunks are held: a chunk starts only within that window of the first
// chunk not yet handed over). The chunks a journal lists as done are not fetched again, and
// of a chunk begun before only the bytes past its high-water mark; at each journal sync every
// stream's high-water mark in its chunk is journaled with the data.
//
// Items are opened in order (FetchHooks::open) and handed back once their chunks are all
// fetched and handed over (FetchHooks::finished), with at most 2 x `streams` + 2 open at a
// time: a prefix of a million objects holds descriptors only for the objects in flight.
//
// Compare mode (a repair after a whole-object mismatch): every chunk is fetched again into
// memory and its SHA-256 compared with the journal's; a chunk that differs is written over
// the part file and its range reported.
// Not thread-safe: Run is called by one thread, which runs every hook.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "metrics/op_log.h"
#include "stage/fetch_sources.h"
#include "stage/range_journal.h"
#include "stage/source.h"
#include "stage/stage_account.h"

namespace trainbench::stage {

struct FetchItem {
  SourceObject object;
  uint64_t size = 0;
  uint64_t begin = 0;       // the first byte to fetch (a tar's resume offset); 0 otherwise
  uint64_t chunk_size = 0;  // chunk i is [begin + i*chunk_size, ...)
  // The part file (set by FetchHooks::open when there is one); -1: into memory only
  // (streamed into a consumer).
  int fd = -1;
  std::string part_path;            // for messages
  RangeJournal* journal = nullptr;  // records each chunk fetched (when fd >= 0)
  std::vector<char> done;           // per chunk: already fetched (from the journal)
  // Chunks begun by an earlier run: index -> bytes from the chunk's start already in the
  // part file (the journal's high-water marks); only the rest is fetched.
  std::map<uint64_t, uint64_t> partial;
  bool deliver = true;  // hand the bytes in order to FetchHooks::ordered
};

// How many chunks `item` is cut into (from its `begin`).
uint64_t ChunkCount(const FetchItem& item);

struct FetchOptions {
  unsigned streams = 4;
  unsigned max_attempts = 10;
  double stall_timeout_s = 30;
  double journal_sync_s = 1.0;  // how often journals reach the disk at least
  // ... and after this many bytes (0: 1% of the items' bytes, within 1 MiB..256 MiB), so a
  // SIGKILL costs at most that (and what was in flight) at any transfer rate.
  uint64_t journal_sync_bytes = 0;
  bool compare = false;  // repair mode (see the file comment)
  // When set, each attempt a GET line: the object's name, the bytes this attempt received,
  // the source that served it, and why it failed.
  std::shared_ptr<metrics::OpLog> op_log;
};

struct FetchHooks {
  // Before item `item`'s first chunk is fetched or read back: open its part file (set
  // FetchItem::fd). Called in item order. Null: the items come open (or in memory).
  std::function<void(size_t item)> open;
  // Once item `item`'s chunks are all fetched (and handed over in order): verify, publish or
  // close it. Its journal's entries not yet synced are the hook's to sync or drop.
  std::function<void(size_t item)> finished;
  // Item `item`'s bytes [offset, offset + size), in order.
  std::function<void(size_t item, uint64_t offset, const unsigned char* data, size_t size)> ordered;
  // At each journal sync (every journal_sync_s and at the end or a stop).
  std::function<void()> on_sync;
  // About every 0.1 s: bytes fetched so far this run, retries so far, streams busy.
  std::function<void(uint64_t bytes, uint64_t retries, unsigned active)> progress;
};

struct FetchResult {
  uint64_t bytes = 0;                               // delivered by successful attempts
  std::vector<uint64_t> item_bytes;                 // per item
  std::vector<std::vector<std::string>> differing;  // compare mode: "a-b" per item
};

class RangeFetcher {
 public:
  RangeFetcher(FetchSources& sources, FetchOptions options, SourceLedger& ledger,
               StreamTime& stream_time, PhaseClock& clock);
  ~RangeFetcher();
  RangeFetcher(const RangeFetcher&) = delete;
  RangeFetcher& operator=(const RangeFetcher&) = delete;

  // Fetches every chunk of `items` not marked done. Throws RuntimeError naming the object,
  // the byte range and the last error when a chunk fails max_attempts times (or hard at the
  // origin), IoError when the part file cannot be written, and Interrupted on Ctrl-C; the
  // journals are synced before any of these leaves.
  FetchResult Run(std::vector<FetchItem>& items, const FetchHooks& hooks);
  // What the current (or last) Run has gathered so far, also when it threw: the bytes that
  // came before a failure count.
  const FetchResult& SoFar() const;

 private:
  class Impl;
  Impl* impl_;
};

}  // namespace trainbench::stage

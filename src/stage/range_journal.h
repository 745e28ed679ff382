// DEST/NAME.part.journal: which chunks of DEST/NAME.part already hold fetched bytes, with
// the SHA-256 of what each first received (so a whole-object mismatch can find the chunks
// that differ on a re-fetch), or, when a tar streams into DEST, the archive offset to go on
// from. A stage stopped any way (Ctrl-C, SIGKILL, power loss) resumes from it.
//
// Durability: entries are buffered and written at Sync(), which first fdatasyncs the part
// file (the bytes the entries promise) and then appends and fsyncs the journal, so a
// journaled chunk's bytes are on disk before its entry. Entries not yet synced are lost to
// a kill and their bytes fetched again. A torn last line (killed mid-write) is ignored.
// A chunk still arriving is journaled too, as its high-water mark (the bytes from its start
// that are in the part file), so a kill costs only what arrived since the last sync.
// No descriptor is held between syncs (a stage of a prefix keeps a journal per object).
//
// Format (text): a header line, then one entry a line:
//   trainbench-stage-journal v1 size=N chunk=C extract=0|1 id=IDENTITY
//   c INDEX SHA256HEX       (chunk INDEX, bytes [INDEX*C, min((INDEX+1)*C, N)))
//   p INDEX BYTES           (chunk INDEX's first BYTES bytes; the last line of an index counts)
//   r OFFSET                (extract: the tar's resume offset; the last one counts)
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace trainbench::stage {

struct JournalIdentity {
  uint64_t size = 0;
  uint64_t chunk_size = 0;
  bool extract = false;
  std::string id;  // what names this version of the object: ETag, Last-Modified, mtime
};

class RangeJournal {
 public:
  // Opens `path`: keeps its entries when its header matches `identity`, else starts a new
  // journal (DiscardReason() says why the old one was dropped). Throws IoError naming the
  // path when it cannot be written.
  RangeJournal(std::string path, JournalIdentity identity);
  ~RangeJournal();
  RangeJournal(const RangeJournal&) = delete;
  RangeJournal& operator=(const RangeJournal&) = delete;

  // A journal with this identity was found (its entries are the chunks done before).
  bool Resumed() const { return resumed_; }
  const std::string& DiscardReason() const { return discard_reason_; }
  const std::map<uint64_t, std::string>& Chunks() const { return chunks_; }
  // Chunks begun but not finished: index -> bytes from the chunk's start in the part file.
  const std::map<uint64_t, uint64_t>& Partials() const { return partials_; }
  uint64_t ResumeOffset() const { return resume_offset_; }
  const std::string& path() const { return path_; }

  void AddChunk(uint64_t index, const std::string& sha256_hex);
  // The first `bytes` of chunk `index` are in the part file (a stream's high-water mark).
  void SetPartial(uint64_t index, uint64_t bytes);
  void SetResumeOffset(uint64_t offset);
  bool HasPending() const { return !pending_.empty(); }
  // fdatasync(data_fd) (when >= 0), then appends what was added and fsyncs the journal
  // (opened for this, and closed again).
  void Sync(int data_fd);
  // Deletes the journal file (the object is whole under its final name).
  void Remove();

 private:
  void StartFresh();

  std::string path_;
  JournalIdentity identity_;
  bool removed_ = false;
  bool resumed_ = false;
  std::string discard_reason_;
  std::map<uint64_t, std::string> chunks_;
  std::map<uint64_t, uint64_t> partials_;
  uint64_t resume_offset_ = 0;
  std::string pending_;
};

// The journal's header line for `identity` (without the newline).
std::string JournalHeader(const JournalIdentity& identity);

}  // namespace trainbench::stage

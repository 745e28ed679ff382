#include "stage/stager.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/publish_file.h"
#include "common/secrets.h"
#include "common/strings.h"
#include "common/units.h"
#include "stage/checksum.h"
#include "stage/extract_target.h"
#include "stage/fetch_sources.h"
#include "stage/probe.h"
#include "stage/range_fetcher.h"
#include "stage/range_journal.h"
#include "stage/source.h"
#include "stage/stage_progress.h"
#include "storage/io_error.h"
#include "storage/s3_source.h"
#include "storage/storage.h"

namespace trainbench::stage {
namespace fs = std::filesystem;
namespace {

constexpr const char* kNoChecksumHint =
    "give --sha256 or --checksums; the source sent no Digest header or single-part S3 ETag";

// The same name as datagen's lock of a dataset folder (dataset/dataset_lock.h).
constexpr const char* kDestLockName = ".trainbench.lock";

// What an object must hash to, and the hasher fed its bytes in order.
struct Expected {
  std::optional<std::string> hex;
  HashKind kind = HashKind::kSha256;
  std::string from;  // "--sha256", "--checksums FILE", "digest header", "S3 ETag"
  std::unique_ptr<Hasher> hasher;
  std::optional<std::string> got;  // the digest once the last byte was fed
};

std::string Label(const Expected& e) {
  return e.hex ? fmt::format("{} ({})", HashName(e.kind), e.from) : "none";
}

// Fsyncs and publishes part as final (link, or rename: common/publish_file.h), then fsyncs the
// folder: the final name appears only for whole, verified bytes, and stays after a crash.
void Publish(int fd, const std::string& part, const std::string& final_path) {
  if (::fsync(fd) != 0)
    throw IoError(fmt::format("cannot flush '{}' to disk: {}", part, std::strerror(errno)), errno);
  if (const int error = PublishFile(part, final_path); error != 0)
    throw IoError(fmt::format("cannot put '{}' into place as '{}': {}", part, final_path,
                              std::strerror(error)),
                  error);
  const int dir = ::open(fs::path(final_path).parent_path().c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

// Hashes a whole file (the re-verification after a repair).
std::string HashFile(int fd, uint64_t size, HashKind kind, const std::string& path) {
  Hasher h(kind);
  std::vector<unsigned char> buffer(8 << 20);
  for (uint64_t offset = 0; offset < size;) {
    const ssize_t n = ::pread(fd, buffer.data(), std::min<uint64_t>(buffer.size(), size - offset),
                              static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw IoError(fmt::format("cannot read '{}' at offset {}: {}", path, offset,
                                n < 0 ? std::strerror(errno) : "end of file"),
                    n < 0 ? errno : EIO);
    h.Update(buffer.data(), static_cast<size_t>(n));
    offset += static_cast<uint64_t>(n);
  }
  return h.FinalHex();
}

class Stager {
 public:
  explicit Stager(const StageOptions& options) : o_(options) {
    if (o_.op_log) {
      probe_log_buffer_ = std::make_unique<metrics::OpLogBuffer>(o_.op_log);
      const uint64_t thread = o_.op_log->NextThread();
      probe_log_ = [this, thread](metrics::OpRecord& r) {
        r.thread = thread;
        probe_log_buffer_->Add(r);
      };
    }
  }

  StageOutcome Run() {
    StageOutcome out;
    StageAccount& a = out.account;
    a.source = RedactUrlPasswords(o_.source);
    a.dest = o_.dest;
    a.start_utc = UtcStamp();
    a.streams = o_.streams;
    a.chunk_size = o_.chunk_size;
    a.extract = o_.extract;
    try {
      Source source(o_.source, o_.s3_options);
      // Where the op-log's s3:// names are, for a replay (before its first line).
      if (o_.op_log && source.s3()) o_.op_log->NoteEndpointUrl(source.s3()->EndpointUrl());
      auto objects = source.List();
      if (objects.size() > 1 && !o_.sha256.empty())
        throw UsageError(
            fmt::format("--sha256 names one object's checksum, but SOURCE holds {} "
                        "objects: give --checksums FILE instead",
                        objects.size()));
      if (o_.extract && objects.size() != 1)
        throw UsageError(
            fmt::format("--extract streams one tar archive, but SOURCE holds {} "
                        "objects",
                        objects.size()));
      if (!o_.checksums_file.empty()) checksums_ = ReadChecksumsFile(o_.checksums_file);
      FetchSources sources(o_.mirrors, objects[0].origin_url, source.s3(), ledger_);
      // The listing's requests (a HEAD of the key, ListObjectsV2 pages) are the origin's too.
      if (source.s3())
        ledger_.Row(sources.at(sources.Origin()).row, "origin").requests += source.s3()->Requests();
      std::error_code ec;
      fs::create_directories(o_.dest, ec);
      if (ec)
        throw IoError(fmt::format("cannot create DEST '{}': {}", o_.dest, ec.message()),
                      ec.value());
      LockDest();
      if (o_.extract)
        Extract(sources, objects[0], a);
      else
        Fetch(sources, objects, a);
      a.complete = true;
    } catch (const UsageError&) {
      throw;
    } catch (const Interrupted& e) {
      a.stop_reason = "interrupted";
      out.exit_code = static_cast<int>(ExitCode::kInterrupted);
      out.error = e.what();
    } catch (const Error& e) {
      a.stop_reason = RedactUrlPasswords(e.what());  // it may quote SOURCE or a mirror
      out.exit_code = static_cast<int>(e.code());
      out.error = a.stop_reason;
    } catch (const std::exception& e) {
      a.stop_reason = RedactUrlPasswords(e.what());
      out.exit_code = static_cast<int>(ExitCode::kRuntime);
      out.error = a.stop_reason;
    }
    a.SetShares(clock_, stream_time_);
    a.sources = ledger_.rows();
    for (const auto& row : a.sources) a.bytes += row.bytes;  // repairs included
    for (auto& obj : a.objects)
      if (obj.status.empty()) obj.status = out.exit_code == 130 ? "interrupted" : "incomplete";
    a.end_utc = UtcStamp();
    for (const auto& obj : a.objects) {
      a.resumed_bytes += obj.resumed_bytes;
      a.total_bytes += obj.size;
    }
    return out;
  }

 private:
  // Two stages into one DEST would write one part file and rename it from under each other:
  // the second is refused at once, naming the first. The lock is datagen's (flock on
  // DEST/.trainbench.lock, Storage::TryLock), so a datagen into DEST excludes a stage too.
  void LockDest() {
    auto attempt = storage::OpenStorage(o_.dest, {})->TryLock(kDestLockName);
    if (!attempt.lock)
      throw RuntimeError(fmt::format(
          "DEST '{}' is being written by another trainbench ({}): wait for it to finish, or "
          "choose another DEST",
          o_.dest, attempt.holder));
    dest_lock_ = std::move(attempt.lock);
  }

  // The stage's flags as the range fetcher takes them.
  FetchOptions FetchOptionsOfStage() const {
    FetchOptions fo;
    fo.streams = o_.streams;
    fo.max_attempts = o_.max_attempts;
    fo.stall_timeout_s = o_.stall_timeout_s;
    fo.op_log = o_.op_log;
    return fo;
  }

  std::string HashPath(const std::string& path, uint64_t size, HashKind kind) {
    PhaseScope verify(clock_, Phase::kVerify);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      throw IoError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)), errno);
    struct Closer {
      int fd;
      ~Closer() { ::close(fd); }
    } closer{fd};
    return HashFile(fd, size, kind, path);
  }

  Expected ExpectedFor(const std::string& name, const ProbeResult& probe) {
    Expected e;
    if (!o_.sha256.empty()) {
      e.hex = ToLower(o_.sha256);
      e.from = "--sha256";
    } else if (!o_.checksums_file.empty()) {
      const auto it = checksums_.find(name);
      if (it == checksums_.end())
        throw UsageError(
            fmt::format("--checksums {} has no line for '{}' (names are relative to "
                        "DEST): add it, or stage without --checksums",
                        o_.checksums_file, name));
      e.hex = it->second;
      e.from = "--checksums " + o_.checksums_file;
    } else if (probe.sha256_hex) {
      e.hex = probe.sha256_hex;
      e.from = probe.checksum_from;
    } else if (probe.md5_hex) {
      e.hex = probe.md5_hex;
      e.kind = HashKind::kMd5;
      e.from = probe.checksum_from;
    }
    if (e.hex) e.hasher = std::make_unique<Hasher>(e.kind);
    return e;
  }

  // Opens item's part file (a fresh one sized to the object, `truncate`: an old one's bytes
  // dropped). Only the objects in flight are open (RangeFetcher opens them in turn).
  static void OpenPart(FetchItem& item, bool truncate) {
    item.fd = ::open(item.part_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (item.fd < 0) storage::ThrowIoError("cannot open", item.part_path, errno);
    if (truncate &&
        (::ftruncate(item.fd, 0) != 0 || ::ftruncate(item.fd, static_cast<off_t>(item.size)) != 0))
      storage::ThrowIoError(fmt::format("cannot size to {} bytes", item.size), item.part_path,
                            errno);
  }

  static void ClosePart(FetchItem& item) {
    if (item.fd >= 0) ::close(item.fd);
    item.fd = -1;
  }

  void Fetch(FetchSources& sources, std::vector<SourceObject>& objects, StageAccount& a) {
    std::vector<FetchItem> items;
    std::vector<std::unique_ptr<RangeJournal>> journals;
    std::vector<Expected> expected;
    std::vector<size_t> result_of;  // item -> index in a.objects
    std::vector<char> keep_part;    // item -> its part file holds the journal's bytes
    uint64_t to_fetch = 0;
    // S3 is asked about every object of a prefix at once, --streams HEADs in flight.
    std::vector<ProbeResult> s3_probes;
    if (sources.s3())
      s3_probes = ProbeS3Objects(sources, objects, o_.streams, ledger_, stream_time_, probe_log_);
    for (size_t k = 0; k < objects.size(); ++k) {
      SourceObject& obj = objects[k];
      ObjectResult& r = a.objects.emplace_back();
      r.name = obj.name;
      const std::string final_path = (fs::path(o_.dest) / obj.name).string();
      const ProbeResult probe = sources.s3() ? s3_probes[k]
                                             : ProbeObject(sources, obj, o_.max_attempts, ledger_,
                                                           stream_time_, probe_log_);
      r.size = probe.size;
      std::error_code ec;
      Expected e = ExpectedFor(obj.name, probe);
      if (fs::is_regular_file(final_path, ec) && fs::file_size(final_path, ec) == probe.size) {
        // A file of the right size may still be another one (a user's, an older version):
        // with a checksum known it is hashed before it counts as staged.
        if (!e.hex) {
          r.status = "present";
          r.checksum = "none (the size matches)";
          continue;
        }
        const std::string got = HashPath(final_path, probe.size, e.kind);
        if (got == *e.hex) {
          r.status = "present";
          r.checksum = Label(e) + ", hashed now";
          continue;
        }
        Warn(
            "{} is already in DEST with the right size, but its {} {} does not match {} from {}: "
            "fetching it again",
            obj.name, HashName(e.kind), got, *e.hex, e.from);
      }
      r.checksum = Label(e);
      fs::create_directories(fs::path(final_path).parent_path(), ec);
      FetchItem item;
      item.object = obj;
      item.size = probe.size;
      item.chunk_size = o_.chunk_size;
      item.part_path = final_path + ".part";
      auto journal = std::make_unique<RangeJournal>(
          item.part_path + ".journal",
          JournalIdentity{probe.size, o_.chunk_size, false, probe.identity});
      if (!journal->DiscardReason().empty())
        Warn(
            "not resuming {}: its journal {} is of another version or chunk size ({}); fetching "
            "it afresh",
            obj.name, journal->path(), journal->DiscardReason());
      // The part file is opened only when its turn comes (OpenPart): not here.
      struct stat st {};
      const bool keep = journal->Resumed() && ::stat(item.part_path.c_str(), &st) == 0 &&
                        static_cast<uint64_t>(st.st_size) == probe.size;
      const uint64_t chunks = (probe.size + o_.chunk_size - 1) / o_.chunk_size;
      item.done.assign(chunks, 0);
      if (keep) {
        for (const auto& [index, hex] : journal->Chunks()) {
          item.done[index] = 1;
          r.resumed_bytes += std::min(o_.chunk_size, probe.size - index * o_.chunk_size);
        }
        item.partial = journal->Partials();
        for (const auto& [index, bytes] : item.partial) r.resumed_bytes += bytes;
      }
      to_fetch += probe.size - r.resumed_bytes;
      item.deliver = e.hex.has_value();
      item.journal = journal.get();
      journals.push_back(std::move(journal));
      expected.push_back(std::move(e));
      result_of.push_back(a.objects.size() - 1);
      keep_part.push_back(keep ? 1 : 0);
      items.push_back(std::move(item));
    }
    struct Closer {
      std::vector<FetchItem>& items;
      ~Closer() {
        for (auto& i : items) ClosePart(i);
      }
    } closer{items};

    StageProgress progress(o_.progress, to_fetch, o_.live);
    RangeFetcher fetcher(sources, FetchOptionsOfStage(), ledger_, stream_time_, clock_);
    std::vector<size_t> bad;
    std::vector<std::string> unverified;
    FetchHooks hooks;
    hooks.open = [&](size_t i) { OpenPart(items[i], !keep_part[i]); };
    hooks.ordered = [&](size_t i, uint64_t offset, const unsigned char* data, size_t size) {
      PhaseScope verify(clock_, Phase::kVerify);
      expected[i].hasher->Update(data, size);
      if (offset + size == items[i].size) expected[i].got = expected[i].hasher->FinalHex();
    };
    // Each object is verified and renamed as soon as its last chunk is in, and closed.
    hooks.finished = [&](size_t i) {
      ObjectResult& r = a.objects[result_of[i]];
      r.fetched_bytes = fetcher.SoFar().item_bytes[i];
      Expected& e = expected[i];
      if (e.hex && !e.got) {  // an empty object has no bytes to hand over
        PhaseScope verify(clock_, Phase::kVerify);
        e.got = HashFile(items[i].fd, items[i].size, e.kind, items[i].part_path);
      }
      if (e.hex && *e.got != *e.hex) {
        journals[i]->Sync(items[i].fd);  // the chunks' hashes, for the repair or a rerun
        ClosePart(items[i]);
        bad.push_back(i);
        return;
      }
      if (!e.hex) unverified.push_back(r.name);
      Finish(items[i], *journals[i], r);
    };
    hooks.progress = progress.Hook();
    try {
      fetcher.Run(items, hooks);
    } catch (...) {
      progress.Finish();
      for (size_t i = 0; i < items.size(); ++i)
        if (a.objects[result_of[i]].status.empty())
          a.objects[result_of[i]].fetched_bytes = fetcher.SoFar().item_bytes[i];
      throw;
    }
    progress.Finish();
    // One line, not one an object: a prefix can hold a million.
    if (unverified.size() == 1)
      Warn("{} is not verified: no checksum is known for it ({})", unverified[0], kNoChecksumHint);
    else if (unverified.size() > 1)
      Warn("{} objects are not verified (e.g. {}): no checksum is known for them ({})",
           unverified.size(), unverified[0], kNoChecksumHint);
    if (bad.empty()) return;
    Repair(sources, items, journals, expected, bad, result_of, a);
  }

  void Finish(FetchItem& item, RangeJournal& journal, ObjectResult& r) {
    const std::string final_path = item.part_path.substr(0, item.part_path.size() - 5);
    Publish(item.fd, item.part_path, final_path);
    ClosePart(item);
    journal.Remove();
    r.status = "staged";
  }

  // A whole-object mismatch: fetch every chunk again and keep the bytes of those that
  // differ from what was first received (transient corruption on the way), then verify
  // again. Still wrong: the object fails, nothing gets its final name, and the part file
  // and journal stay (a rerun with the right checksum finishes at once).
  void Repair(FetchSources& sources, std::vector<FetchItem>& items,
              std::vector<std::unique_ptr<RangeJournal>>& journals, std::vector<Expected>& expected,
              const std::vector<size_t>& bad, const std::vector<size_t>& result_of,
              StageAccount& a) {
    std::vector<FetchItem> again;
    for (size_t i : bad) {
      Warn(
          "{}: {} {} does not match {} from {}; fetching every chunk again to find the ones "
          "that differ",
          items[i].object.name, HashName(expected[i].kind), *expected[i].got, *expected[i].hex,
          expected[i].from);
      again.push_back(items[i]);
      again.back().deliver = false;
    }
    struct Closer {
      std::vector<FetchItem>& items;
      ~Closer() {
        for (auto& i : items) ClosePart(i);
      }
    } closer{again};
    FetchOptions fo = FetchOptionsOfStage();
    fo.compare = true;
    // Every byte of the repair is the corruption's cost: counted as wasted.
    StreamTime repair_time;
    RangeFetcher fetcher(sources, fo, ledger_, repair_time, clock_);
    StageProgress progress(o_.progress, 0, o_.live);
    std::vector<std::string> failures;
    FetchHooks hooks;
    hooks.open = [&](size_t k) { OpenPart(again[k], false); };
    hooks.finished = [&](size_t k) {
      const size_t i = bad[k];
      ObjectResult& r = a.objects[result_of[i]];
      r.repaired_ranges = fetcher.SoFar().differing[k];
      std::string got;
      {
        PhaseScope verify(clock_, Phase::kVerify);
        got = HashFile(again[k].fd, again[k].size, expected[i].kind, again[k].part_path);
      }
      if (got == *expected[i].hex) {
        Finish(again[k], *journals[i], r);
        return;
      }
      r.status = "failed";
      journals[i]->Sync(again[k].fd);
      ClosePart(again[k]);
      failures.push_back(fmt::format(
          "{}: {} {} does not match {} from {}; {}; nothing was written under {} ({} and its "
          "journal are kept: with the right checksum a rerun finishes without fetching)",
          r.name, HashName(expected[i].kind), got, *expected[i].hex, expected[i].from,
          r.repaired_ranges.empty()
              ? std::string("every chunk fetched again matched the first fetch: the source's "
                            "bytes are not the ones the checksum describes")
              : fmt::format("chunk ranges that differed on a re-fetch and were replaced: {}",
                            fmt::join(r.repaired_ranges, ", ")),
          (fs::path(o_.dest) / r.name).string(), again[k].part_path));
    };
    hooks.progress = progress.Hook();
    const FetchResult refetched = fetcher.Run(again, hooks);
    stream_time_.wasted_s += repair_time.useful_s + repair_time.wasted_s;
    stream_time_.wasted_bytes += refetched.bytes + repair_time.wasted_bytes;
    stream_time_.retries += repair_time.retries;
    if (!failures.empty()) throw RuntimeError(fmt::format("{}", fmt::join(failures, "; ")));
  }

  void Extract(FetchSources& sources, SourceObject& obj, StageAccount& a) {
    ObjectResult& r = a.objects.emplace_back();
    r.name = obj.name;
    const ProbeResult probe =
        ProbeObject(sources, obj, o_.max_attempts, ledger_, stream_time_, probe_log_);
    r.size = probe.size;
    RangeJournal journal((fs::path(o_.dest) / (obj.name + ".extract.journal")).string(),
                         JournalIdentity{probe.size, o_.chunk_size, true, probe.identity});
    const uint64_t begin = journal.Resumed() ? journal.ResumeOffset() : 0;
    r.resumed_bytes = begin;
    auto target = MakeTarExtractTarget(o_.dest, begin);
    // The archive's checksum needs every byte: only a stream from the start can be checked.
    Expected e = ExpectedFor(obj.name, probe);
    if (begin > 0 && e.hex) {
      Warn("{}: extraction resumes at offset {}, so the archive's {} is not checked this time",
           obj.name, begin, HashName(e.kind));
      e.hex.reset();
      e.hasher.reset();
    }
    r.checksum = Label(e);
    std::vector<FetchItem> items(1);
    FetchItem& item = items[0];
    item.object = obj;
    item.size = probe.size;
    item.begin = begin;
    item.chunk_size = o_.chunk_size;
    item.part_path = "(memory)";
    item.done.assign((probe.size - begin + o_.chunk_size - 1) / o_.chunk_size, 0);
    StageProgress progress(o_.progress, probe.size - begin, o_.live);
    FetchHooks hooks;
    bool tar_failed = false;  // the extractor threw (not the fetch)
    hooks.ordered = [&](size_t, uint64_t, const unsigned char* data, size_t size) {
      if (e.hasher) {
        PhaseScope verify(clock_, Phase::kVerify);
        e.hasher->Update(data, size);
      }
      PhaseScope extract(clock_, Phase::kExtract);
      try {
        target->Feed(data, size);
      } catch (...) {
        tar_failed = true;
        throw;
      }
    };
    hooks.on_sync = [&] {
      journal.SetResumeOffset(target->ResumeOffset());
      journal.Sync(-1);
    };
    hooks.progress = progress.Hook();
    RangeFetcher fetcher(sources, FetchOptionsOfStage(), ledger_, stream_time_, clock_);
    bool progress_done = false;
    auto finish_progress = [&] {
      if (!progress_done) progress.Finish();
      progress_done = true;
    };
    try {
      fetcher.Run(items, hooks);
      finish_progress();
      r.fetched_bytes = fetcher.SoFar().bytes;
      PhaseScope extract(clock_, Phase::kExtract);
      tar_failed = true;  // from here on, a failure is the extractor's
      target->Finish();
    } catch (const RuntimeError& error) {
      // What came counts, whatever stopped the stage; a tar that cannot be read fails the
      // object, and the message names it and the way out.
      finish_progress();
      r.fetched_bytes = fetcher.SoFar().bytes;
      if (!tar_failed) throw;
      r.status = "failed";
      if (target->Members() == 0 && begin == 0) {
        journal.Remove();  // nothing to resume from
        throw RuntimeError(
            fmt::format("{}: {}; it is not a tar archive (nor a gzip'd one): drop "
                        "--extract to fetch it as a file",
                        obj.name, error.what()));
      }
      throw RuntimeError(fmt::format("{}: {}", obj.name, error.what()));
    } catch (...) {
      finish_progress();
      r.fetched_bytes = fetcher.SoFar().bytes;
      throw;
    }
    if (e.hasher) {
      const std::string got = e.hasher->FinalHex();
      if (got != *e.hex) {
        r.status = "failed";
        journal.Remove();
        throw RuntimeError(fmt::format(
            "{}: the archive's {} {} does not match {} from {}; the members extracted into {} "
            "came from these bytes: remove them and stage again",
            obj.name, HashName(e.kind), got, *e.hex, e.from, o_.dest));
      }
    }
    journal.Remove();
    r.status = "extracted";
  }

  const StageOptions& o_;
  PhaseClock clock_;
  StreamTime stream_time_;
  SourceLedger ledger_;
  std::map<std::string, std::string> checksums_;
  std::unique_ptr<storage::StorageLock> dest_lock_;         // held for the whole stage
  std::unique_ptr<metrics::OpLogBuffer> probe_log_buffer_;  // the HEADs' lines
  ProbeLog probe_log_;
};

}  // namespace

void CheckStageOptions(const StageOptions& o) {
  if (o.streams < 1 || o.streams > 256)
    throw UsageError(fmt::format("--streams {}: give 1 to 256", o.streams));
  if (o.chunk_size < 4096 || o.chunk_size > (1ull << 30))
    throw UsageError(fmt::format("--chunk-size {}: give 4 KiB to 1 GiB", o.chunk_size));
  if (o.max_attempts < 1) throw UsageError("--max-attempts: give at least 1");
  if (!(o.stall_timeout_s >= 1))
    throw UsageError(fmt::format("--stall-timeout {}: give at least 1 second", o.stall_timeout_s));
  if (!o.sha256.empty() && !IsHex(o.sha256, 64))
    throw UsageError(fmt::format("--sha256 '{}' is not 64 hex digits", o.sha256));
  if (!o.sha256.empty() && !o.checksums_file.empty())
    throw UsageError("give --sha256 or --checksums, not both");
  const std::string lower = ToLower(o.source);
  const bool remote =
      StartsWith(lower, "http://") || StartsWith(lower, "https://") || StartsWith(lower, "s3://");
  for (const auto& m : o.mirrors) {
    const std::string ml = ToLower(m);
    if (!StartsWith(ml, "http://") && !StartsWith(ml, "https://"))
      throw UsageError(fmt::format("--mirror '{}': give an http:// or https:// base URL", m));
    if (!remote)
      throw UsageError(
          fmt::format("--mirror '{}': mirrors serve remote objects; SOURCE '{}' is "
                      "a local path",
                      m, o.source));
  }
}

StageOutcome RunStage(const StageOptions& options) { return Stager(options).Run(); }

}  // namespace trainbench::stage

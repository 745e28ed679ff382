#include "stage/stager.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "common/clock.h"
#include "common/error.h"
#include "common/secrets.h"
#include "common/strings.h"
#include "stage/expected_checksum.h"
#include "stage/extract_phase.h"
#include "stage/fetch_phase.h"
#include "stage/fetch_sources.h"
#include "stage/probe.h"
#include "stage/source.h"
#include "stage/stage_context.h"
#include "storage/s3_source.h"
#include "storage/storage.h"

namespace trainbench::stage {
namespace {

// The same name as datagen's lock of a dataset folder (dataset/dataset_lock.h).
constexpr const char* kDestLockName = ".trainbench.lock";

// One stage: SOURCE listed, DEST made and locked, then its objects fetched as files
// (fetch_phase.h) or its one archive extracted (extract_phase.h), all under one time account.
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
    BeginAccount(a);
    try {
      Stage(a);
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
    EndAccount(out);
    return out;
  }

 private:
  void BeginAccount(StageAccount& a) const {
    a.source = RedactUrlPasswords(o_.source);
    a.dest = o_.dest;
    a.start_utc = UtcStamp();
    a.streams = o_.streams;
    a.chunk_size = o_.chunk_size;
    a.extract = o_.extract;
  }

  // The shares, the sources' rows and the totals, however the stage ended.
  void EndAccount(StageOutcome& out) const {
    StageAccount& a = out.account;
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
  }

  void Stage(StageAccount& a) {
    Source source(o_.source, o_.s3_options);
    // Where the op-log's s3:// names are, for a replay (before its first line).
    if (o_.op_log && source.s3()) o_.op_log->NoteEndpointUrl(source.s3()->EndpointUrl());
    const std::vector<SourceObject> objects = source.List();
    CheckObjectCount(objects.size());
    const ExpectedChecksums checksums(o_);
    FetchSources sources(o_.mirrors, objects[0].origin_url, source.s3(), ledger_);
    // The listing's requests (a HEAD of the key, ListObjectsV2 pages) are the origin's too.
    if (source.s3())
      ledger_.Row(sources.at(sources.Origin()).row, "origin").requests += source.s3()->Requests();
    MakeDest();
    LockDest();
    const StageContext ctx{o_, clock_, stream_time_, ledger_, probe_log_, checksums};
    if (o_.extract)
      ExtractArchive(ctx, sources, objects[0], a);
    else
      FetchObjects(ctx, sources, objects, a);
  }

  // The flags that depend on how many objects SOURCE holds.
  void CheckObjectCount(size_t objects) const {
    if (objects > 1 && !o_.sha256.empty())
      throw UsageError(
          fmt::format("--sha256 names one object's checksum, but SOURCE holds {} "
                      "objects: give --checksums FILE instead",
                      objects));
    if (o_.extract && objects != 1)
      throw UsageError(
          fmt::format("--extract streams one tar archive, but SOURCE holds {} "
                      "objects",
                      objects));
  }

  void MakeDest() const {
    std::error_code ec;
    std::filesystem::create_directories(o_.dest, ec);
    if (ec)
      throw IoError(fmt::format("cannot create DEST '{}': {}", o_.dest, ec.message()), ec.value());
  }

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

  const StageOptions& o_;
  PhaseClock clock_;
  StreamTime stream_time_;
  SourceLedger ledger_;
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

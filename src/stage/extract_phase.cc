#include "stage/extract_phase.h"

#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/log.h"
#include "stage/expected_checksum.h"
#include "stage/extract_target.h"
#include "stage/probe.h"
#include "stage/range_fetcher.h"
#include "stage/range_journal.h"
#include "stage/stage_progress.h"

namespace trainbench::stage {
namespace {

// The archive's checksum needs every byte: only a stream from the start can be checked.
Expected ArchiveChecksum(const StageContext& ctx, const SourceObject& obj, const ProbeResult& probe,
                         uint64_t begin) {
  Expected e = ctx.checksums.For(obj.name, probe);
  if (begin > 0 && e.hex) {
    Warn("{}: extraction resumes at offset {}, so the archive's {} is not checked this time",
         obj.name, begin, HashName(e.kind));
    e.hex.reset();
    e.hasher.reset();
  }
  return e;
}

// The archive as the range fetcher takes it: into memory, from `begin`, handed over in order.
std::vector<FetchItem> ArchiveItems(const SourceObject& obj, uint64_t size, uint64_t begin,
                                    uint64_t chunk_size) {
  std::vector<FetchItem> items(1);
  FetchItem& item = items[0];
  item.object = obj;
  item.size = size;
  item.begin = begin;
  item.chunk_size = chunk_size;
  item.part_path = "(memory)";
  item.done.assign(ChunkCount(item), 0);
  return items;
}

// The archive's bytes fetched and fed in order to the extract target (and to its hasher),
// the target's resume offset journaled at each sync.
class ArchiveStream {
 public:
  ArchiveStream(const StageContext& ctx, const SourceObject& obj, uint64_t begin,
                RangeJournal& journal, ExtractTarget& target, Expected& e, ObjectResult& r)
      : ctx_(ctx), obj_(obj), begin_(begin), journal_(journal), target_(target), e_(e), r_(r) {}

  // Fetches the archive's `size` bytes from `begin` and ends the extraction. A failure of the
  // extractor (a tar that cannot be read) fails the object, and the message names it and the
  // way out; what came counts, whatever stopped the stage.
  void Run(FetchSources& sources, uint64_t size) {
    std::vector<FetchItem> items = ArchiveItems(obj_, size, begin_, ctx_.options.chunk_size);
    StageProgress progress(ctx_.options.progress, size - begin_, ctx_.options.live);
    FetchHooks hooks;
    hooks.ordered = [this](size_t, uint64_t, const unsigned char* data, size_t n) {
      Feed(data, n);
    };
    hooks.on_sync = [this] {
      journal_.SetResumeOffset(target_.ResumeOffset());
      journal_.Sync(-1);
    };
    hooks.progress = progress.Hook();
    RangeFetcher fetcher(sources, ctx_.FetchOptionsOfStage(), ctx_.ledger, ctx_.stream_time,
                         ctx_.clock);
    try {
      fetcher.Run(items, hooks);
    } catch (const RuntimeError& error) {
      progress.Finish();
      r_.fetched_bytes = fetcher.SoFar().bytes;
      if (extractor_failed_) ExtractorFailed(error);
      throw;
    } catch (...) {
      progress.Finish();
      r_.fetched_bytes = fetcher.SoFar().bytes;
      throw;
    }
    progress.Finish();
    r_.fetched_bytes = fetcher.SoFar().bytes;
    try {
      FinishExtraction();
    } catch (const RuntimeError& error) {
      ExtractorFailed(error);
    }
  }

 private:
  void Feed(const unsigned char* data, size_t size) {
    if (e_.hasher) {
      PhaseScope verify(ctx_.clock, Phase::kVerify);
      e_.hasher->Update(data, size);
    }
    PhaseScope extract(ctx_.clock, Phase::kExtract);
    try {
      target_.Feed(data, size);
    } catch (...) {
      extractor_failed_ = true;
      throw;
    }
  }

  void FinishExtraction() {
    PhaseScope extract(ctx_.clock, Phase::kExtract);
    target_.Finish();
  }

  [[noreturn]] void ExtractorFailed(const RuntimeError& error) {
    r_.status = "failed";
    if (target_.Members() == 0 && begin_ == 0) {
      journal_.Remove();  // nothing to resume from
      throw RuntimeError(
          fmt::format("{}: {}; it is not a tar archive (nor a gzip'd one): drop "
                      "--extract to fetch it as a file",
                      obj_.name, error.what()));
    }
    throw RuntimeError(fmt::format("{}: {}", obj_.name, error.what()));
  }

  const StageContext& ctx_;
  const SourceObject& obj_;
  const uint64_t begin_;
  RangeJournal& journal_;
  ExtractTarget& target_;
  Expected& e_;
  ObjectResult& r_;
  bool extractor_failed_ = false;  // the extractor threw (not the fetch)
};

// The archive's digest against its checksum, when it streamed whole: a mismatch fails the
// object, and the members extracted are the user's to remove.
void CheckArchive(const StageContext& ctx, const SourceObject& obj, Expected& e,
                  RangeJournal& journal, ObjectResult& r) {
  if (!e.hasher) return;
  const std::string got = e.hasher->FinalHex();
  if (got == *e.hex) return;
  r.status = "failed";
  journal.Remove();
  throw RuntimeError(fmt::format(
      "{}: the archive's {} {} does not match {} from {}; the members extracted into {} "
      "came from these bytes: remove them and stage again",
      obj.name, HashName(e.kind), got, *e.hex, e.from, ctx.options.dest));
}

}  // namespace

void ExtractArchive(const StageContext& ctx, FetchSources& sources, const SourceObject& obj,
                    StageAccount& a) {
  const StageOptions& o = ctx.options;
  ObjectResult& r = a.objects.emplace_back();
  r.name = obj.name;
  const ProbeResult probe =
      ProbeObject(sources, obj, o.max_attempts, ctx.ledger, ctx.stream_time, ctx.probe_log);
  r.size = probe.size;
  RangeJournal journal((std::filesystem::path(o.dest) / (obj.name + ".extract.journal")).string(),
                       JournalIdentity{probe.size, o.chunk_size, true, probe.identity});
  const uint64_t begin = journal.Resumed() ? journal.ResumeOffset() : 0;
  r.resumed_bytes = begin;
  auto target = MakeTarExtractTarget(o.dest, begin);
  Expected e = ArchiveChecksum(ctx, obj, probe, begin);
  r.checksum = ChecksumLabel(e);
  ArchiveStream(ctx, obj, begin, journal, *target, e, r).Run(sources, probe.size);
  CheckArchive(ctx, obj, e, journal, r);
  journal.Remove();
  r.status = "extracted";
}

}  // namespace trainbench::stage

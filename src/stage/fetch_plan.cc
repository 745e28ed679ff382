#include "stage/fetch_plan.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <utility>

#include "common/log.h"
#include "stage/probe.h"
#include "stage/verify_phase.h"

namespace trainbench::stage {
namespace {

namespace fs = std::filesystem;

// Whether DEST holds the object already: a file of its size that hashes to its checksum, when
// one is known. A file of the right size may still be another one (a user's, an older
// version): with a checksum known it is hashed before it counts as staged.
bool AlreadyInDest(const StageContext& ctx, const std::string& final_path, uint64_t size,
                   const Expected& e, ObjectResult& r) {
  std::error_code ec;
  if (!fs::is_regular_file(final_path, ec) || fs::file_size(final_path, ec) != size) return false;
  if (!e.hex) {
    r.status = "present";
    r.checksum = "none (the size matches)";
    return true;
  }
  const std::string got = HashPath(ctx.clock, final_path, size, e.kind);
  if (got == *e.hex) {
    r.status = "present";
    r.checksum = ChecksumLabel(e) + ", hashed now";
    return true;
  }
  Warn(
      "{} is already in DEST with the right size, but its {} {} does not match {} from {}: "
      "fetching it again",
      r.name, HashName(e.kind), got, *e.hex, e.from);
  return false;
}

// The chunks, and bytes of chunks begun, that an earlier run left in the part file: not
// fetched again.
void ResumeFromJournal(FetchItem& item, const RangeJournal& journal, ObjectResult& r) {
  for (const auto& [index, hex] : journal.Chunks()) {
    item.done[index] = 1;
    r.resumed_bytes += std::min(item.chunk_size, item.size - index * item.chunk_size);
  }
  item.partial = journal.Partials();
  for (const auto& [index, bytes] : item.partial) r.resumed_bytes += bytes;
}

// The object fetched into DEST/NAME.part, resumed where its journal says.
void AddToPlan(const StageContext& ctx, FetchPlan& plan, const SourceObject& obj,
               const ProbeResult& probe, const std::string& final_path, Expected e, size_t result,
               ObjectResult& r) {
  std::error_code ec;
  fs::create_directories(fs::path(final_path).parent_path(), ec);
  FetchItem item;
  item.object = obj;
  item.size = probe.size;
  item.chunk_size = ctx.options.chunk_size;
  item.part_path = final_path + ".part";
  auto journal = std::make_unique<RangeJournal>(
      item.part_path + ".journal",
      JournalIdentity{probe.size, ctx.options.chunk_size, false, probe.identity});
  if (!journal->DiscardReason().empty())
    Warn(
        "not resuming {}: its journal {} is of another version or chunk size ({}); fetching "
        "it afresh",
        obj.name, journal->path(), journal->DiscardReason());
  // The part file is opened only when its turn comes (OpenPart): not here.
  struct stat st {};
  const bool keep = journal->Resumed() && ::stat(item.part_path.c_str(), &st) == 0 &&
                    static_cast<uint64_t>(st.st_size) == probe.size;
  item.done.assign(ChunkCount(item), 0);
  if (keep) ResumeFromJournal(item, *journal, r);
  plan.to_fetch += probe.size - r.resumed_bytes;
  item.deliver = e.hex.has_value();
  item.journal = journal.get();
  plan.journals.push_back(std::move(journal));
  plan.expected.push_back(std::move(e));
  plan.result_of.push_back(result);
  plan.keep_part.push_back(keep ? 1 : 0);
  plan.items.push_back(std::move(item));
}

}  // namespace

FetchPlan PlanFetch(const StageContext& ctx, FetchSources& sources,
                    const std::vector<SourceObject>& objects, StageAccount& a) {
  const StageOptions& o = ctx.options;
  FetchPlan plan;
  // S3 is asked about every object of a prefix at once, --streams HEADs in flight.
  std::vector<ProbeResult> s3_probes;
  if (sources.s3())
    s3_probes =
        ProbeS3Objects(sources, objects, o.streams, ctx.ledger, ctx.stream_time, ctx.probe_log);
  for (size_t k = 0; k < objects.size(); ++k) {
    const SourceObject& obj = objects[k];
    ObjectResult& r = a.objects.emplace_back();
    r.name = obj.name;
    const std::string final_path = (fs::path(o.dest) / obj.name).string();
    const ProbeResult probe = sources.s3() ? s3_probes[k]
                                           : ProbeObject(sources, obj, o.max_attempts, ctx.ledger,
                                                         ctx.stream_time, ctx.probe_log);
    r.size = probe.size;
    Expected e = ctx.checksums.For(obj.name, probe);
    if (AlreadyInDest(ctx, final_path, probe.size, e, r)) continue;
    r.checksum = ChecksumLabel(e);
    AddToPlan(ctx, plan, obj, probe, final_path, std::move(e), a.objects.size() - 1, r);
  }
  return plan;
}

}  // namespace trainbench::stage

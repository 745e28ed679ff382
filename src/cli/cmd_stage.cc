// `trainbench stage SOURCE DEST`: fetches a remote dataset (an http(s) URL, an s3:// object
// or prefix, a local path) into DEST as parallel ranged GETs through mirrors, resumable,
// verified, optionally streaming a tar into DEST; prints the time account and writes it to
// <--output>/stage-<UTC stamp>/summary.json. `trainbench stage --report DIR...` sums many
// jobs' results into a campaign table.
#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "app/stage_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/validators.h"
#include "common/error.h"
#include "common/units.h"

namespace trainbench::cli {
namespace {

struct StageFlags {
  app::StageJobOptions job;
  std::string source, dest;
  std::string chunk_size = "8MiB";
  std::vector<std::string> report;
  bool no_progress = false;
  std::vector<std::string> s3_options;  // key=value
};

// "8MiB", "8M" (MiB too: a chunk size is binary), "512KiB", "1048576".
uint64_t ParseChunkSize(const std::string& text) {
  const auto bytes = ParseByteSize(text, BareUnit::kBinary);
  if (!bytes || *bytes == 0)
    throw UsageError(
        fmt::format("--chunk-size '{}': give a size such as 8MiB, 512KiB or a byte count", text));
  return *bytes;
}

int Stage(StageFlags& flags) {
  if (!flags.report.empty()) {
    const auto campaign = app::StageCampaign(flags.report);
    fmt::print("{}{}\n", campaign.table, campaign.line);
    return 0;
  }
  if (flags.source.empty() || flags.dest.empty())
    throw UsageError(
        "stage needs SOURCE and DEST (or --report DIR...); see trainbench stage --help");
  auto& o = flags.job.stage;
  o.source = flags.source;
  o.dest = flags.dest;
  o.chunk_size = ParseChunkSize(flags.chunk_size);
  o.progress = !flags.no_progress;
  o.s3_options = ParseS3Options(flags.s3_options);
  CheckInterval(flags.job.interval_s);
  return ShowJobOutcome(app::StageJob(flags.job));
}

}  // namespace

void AddStageCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "stage",
      "Fetch a remote dataset into a local folder: parallel ranged GETs through mirrors, "
      "resumable, verified, optionally streaming a tar; reports where the time went");
  static StageFlags flags;
  auto& o = flags.job.stage;
  command->add_option("SOURCE", flags.source,
                      "http(s):// URL, s3://bucket/key (or a prefix: every object under it), or "
                      "a local file or folder");
  command->add_option("DEST", flags.dest, "Local folder the objects are staged into");
  command->add_option("--streams", o.streams, "Ranged GETs in flight (default 4)")
      ->check(AtLeast(1));
  command->add_option("--chunk-size", flags.chunk_size,
                      "Bytes per ranged GET, e.g. 8MiB (default), 512KiB");
  command
      ->add_option("--max-attempts", o.max_attempts,
                   "Tries per range, the first included (default 10)")
      ->check(AtLeast(1));
  command
      ->add_option("--stall-timeout", o.stall_timeout_s,
                   "Seconds without a byte before a connection is cut and its range retried "
                   "(default 30)")
      ->check(PositiveFinite());
  command->add_option("--mirror", o.mirrors,
                      "A cache tried before the origin, in the order given (repeatable): the "
                      "object's path at the origin is appended to this base URL");
  command->add_option("--sha256", o.sha256, "The object's SHA-256 (hex)");
  command->add_option("--checksums", o.checksums_file,
                      "A sha256sum-format file of the objects' checksums (names relative to "
                      "DEST)");
  command->add_flag("--extract", o.extract,
                    "SOURCE is a tar: extract it into DEST while it downloads (no copy of the "
                    "archive on disk)");
  command->add_option("--output", flags.job.output,
                      "Folder for the results: <DIR>/stage-<UTC stamp>/summary.json (default "
                      "./results)");
  command->add_flag("--no-progress", flags.no_progress, "No progress line on stderr");
  command->add_option("--op-log", flags.job.op_log,
                      "Record every request in FILE, one line per operation in sai3-bench's "
                      "op-log columns (FILE.tsv.zst: zstd-compressed): each HEAD, and each "
                      "ranged GET's attempt with the bytes it brought, its source and its error");
  command
      ->add_option("--interval", flags.job.interval_s,
                   "Seconds per row of timeseries.csv in the results (MB/s, streams busy, CPU, "
                   "memory per interval; default 1; 0: none)")
      ->check(NonNegativeFinite());
  command->add_option("--s3-option", flags.s3_options,
                      "KEY=VALUE of storage_options for an s3:// SOURCE (endpoint_url, region, "
                      "s3_force_path_style, ca_bundle, ...); the environment and ~/.aws also "
                      "count (repeatable)");
  command->add_option("--report", flags.report,
                      "Sum these result folders (or folders of them) into a campaign table "
                      "instead of staging");
  command->footer(
      "Examples:\n"
      "  trainbench stage https://origin.example/imagenet/ILSVRC2012_img_train.tar /data/in \\\n"
      "      --mirror http://cache1:8000 --mirror http://cache2:8000 --sha256 HEX\n"
      "  trainbench stage s3://bucket/datasets/resnet50/ /data/resnet50 --streams 8\n"
      "  trainbench stage https://origin.example/train.tar /data/train --extract\n"
      "  trainbench stage --report results/\n"
      "An object is written to DEST/NAME.part (journaled in DEST/NAME.part.journal, so a stop "
      "of any kind resumes without fetching again) and renamed to DEST/NAME once whole and "
      "verified against --sha256, --checksums, a Digest header or an S3 ETag. Mismatching "
      "chunks are found by fetching again and replaced; a mismatch that remains exits 1 with "
      "nothing under the final name.\n"
      "stdout: a table of where the time went (transfer, retry wasted, verify, extract; they "
      "add up to the wall time) and per source; the last line is {\"trainbench_stage\": "
      "{...}}. Exit 0 done, 1 failed, 2 usage error, 130 interrupted (Ctrl-C; rerun to "
      "resume).");
  command->callback([&action] { action = [] { return Stage(flags); }; });
}

}  // namespace trainbench::cli

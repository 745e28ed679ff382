// `trainbench stage SOURCE DEST`: fetches a remote dataset (an http(s) URL, an s3:// object
// or prefix, a local path) into DEST as parallel ranged GETs through mirrors, resumable,
// verified, optionally streaming a tar into DEST; prints the time account and writes it to
// <--output>/stage-<UTC stamp>/summary.json. `trainbench stage --report DIR...` sums many
// jobs' results into a campaign table.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "app/train/stage_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"
#include "common/error.h"
#include "common/units.h"

namespace trainbench::cli {
namespace {

struct StageFlags {
  app::StageJobOptions job;
  std::string source, dest;
  std::string chunk_size = "8MiB";
  std::vector<std::string> report;
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
  if (!flags.report.empty()) return ShowJobReport(app::StageCampaign(flags.report));
  if (flags.source.empty() || flags.dest.empty())
    throw UsageError(
        "stage needs SOURCE and DEST (or --report DIR...); see trainbench stage --help");
  auto& o = flags.job.stage;
  o.source = flags.source;
  o.dest = flags.dest;
  o.chunk_size = ParseChunkSize(flags.chunk_size);
  o.s3_options = ParseS3Options(flags.s3_options);
  return ShowJobReport(app::StageJob(flags.job));
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
                      "http(s):// URL, s3://bucket/key or prefix, or a local file or folder");
  command->add_option("DEST", flags.dest, "Local folder the objects are staged into");
  command->option_defaults()->always_capture_default();
  command->add_option("--streams", o.streams, "Ranged GETs in flight")->check(AtLeast(1));
  command->add_option("--chunk-size", flags.chunk_size, "Bytes per ranged GET (8MiB, 512KiB)");
  command->add_option("--max-attempts", o.max_attempts, "Tries per range")->check(AtLeast(1));
  command->add_option("--stall-timeout", o.stall_timeout_s, "Seconds without a byte: retry")
      ->check(PositiveFinite());
  command->option_defaults()->always_capture_default(false);
  command->add_option("--mirror", o.mirrors,
                      "Base URL of a cache tried before the origin, in order (repeatable)");
  command->add_option("--sha256", o.sha256, "The object's SHA-256 (hex)");
  command->add_option("--checksums", o.checksums_file,
                      "A sha256sum file of the objects' checksums (names relative to DEST)");
  command->add_flag("--extract", o.extract, "SOURCE is a tar: extract it into DEST as it comes");
  AddOutputFlag(*command, flags.job.output, "in <DIR>/stage-<UTC stamp>/ (default ./results)");
  AddNoProgressFlag(*command, o.progress);
  AddOpLogFlag(*command, flags.job.op_log, "every HEAD and ranged GET", /*per_rank=*/false);
  AddIntervalFlag(*command, flags.job.interval_s, "MB/s, streams busy, CPU, memory");
  AddS3OptionFlag(*command, flags.s3_options, "an s3:// SOURCE");
  command->add_option("--report", flags.report,
                      "Sum these results folders into a campaign table instead of staging");
  command->footer(
      "Examples:\n"
      "  trainbench stage https://origin.example/imagenet/train.tar /data/in --mirror \\\n"
      "      http://cache1:8000 --mirror http://cache2:8000 --sha256 HEX --extract\n"
      "  trainbench stage s3://bucket/datasets/resnet50/ /data/resnet50 --streams 8\n"
      "  trainbench stage --report results/\n"
      "A stop of any kind resumes (DEST/NAME.part and its journal); NAME appears only whole and "
      "verified. stdout: where the time went, then {\"trainbench_stage\": {...}}. Exit 0 done, 1 "
      "failed, 2 usage, 130 interrupted. More: docs/staging.md");
  command->callback(
      [&action] { action = [] { return WithS3OptionFlag([] { return Stage(flags); }); }; });
}

}  // namespace trainbench::cli

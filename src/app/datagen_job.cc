#include "app/datagen_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "app/job_checks.h"
#include "app/job_op_log.h"
#include "app/results_writer.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/units.h"
#include "config/workload_yaml.h"
#include "report/timeseries_csv.h"
#include "storage/counting_storage.h"

namespace trainbench::app {
namespace {

nlohmann::ordered_json Figures(const dataset::GenerateResult& r, const DatagenJobOptions& o,
                               unsigned threads, int ranks) {
  nlohmann::ordered_json j;
  j["format"] = o.config.dataset.format;
  j["data_folder"] = config::DatasetUri(o.config);
  j["files"] = r.manifest.files.size();
  j["files_written"] = r.files_written;
  j["files_skipped"] = r.files_skipped;
  j["files_removed"] = r.files_removed;
  j["bytes_written"] = r.bytes_written;
  j["dataset_bytes"] = r.dataset_bytes;
  j["seconds"] = r.seconds;
  j["write_MB_per_second"] =
      r.seconds > 0 ? static_cast<double>(r.bytes_written) / r.seconds / 1e6 : 0.0;
  j["files_per_second"] = r.seconds > 0 ? static_cast<double>(r.files_written) / r.seconds : 0.0;
  j["verified"] = o.generate.verify;
  j["verify_seconds"] = r.verify_seconds;
  j["threads"] = threads;
  j["ranks"] = ranks;
  return j;
}

}  // namespace

DatagenOutcome DatagenJob(const DatagenJobOptions& options, JobEnv& env) {
  CheckInterval(options.interval_s);
  const auto& config = options.config;
  // DLIO's defaults would write 8 files for a workload that reads none (a checkpointing
  // workload), and 0 files would leave a manifest of an empty dataset: both are typos.
  if (config.workflow.checkpoint && !config.workflow.train)
    throw UsageError(fmt::format(
        "{} is a checkpointing workload (workflow.checkpoint true, workflow.train false): it "
        "reads no dataset; `trainbench run {}` writes and reads its checkpoints",
        config.workload_name, config.workload_name));
  if (config.dataset.num_files_train == 0 && config.dataset.num_files_eval == 0)
    throw UsageError(
        "dataset.num_files_train and dataset.num_files_eval are 0: no file to write; give "
        "dataset.num_files_train=N (`trainbench datasize` says how many)");
  dist::Communicator& ranks = env.ranks;
  const std::string uri = config::DatasetUri(config);
  auto storage = env.open_storage(uri, config.storage.storage_options);
  // A folder that cannot be written is refused before any work, as `run` refuses its
  // output.folder (exit 2).
  if (env.check_local_folders)
    if (const auto local = storage->LocalPath(""))
      CheckWritableFolder(*local, "dataset.data_folder");
  if (!options.op_log.empty()) CheckWritableFile(options.op_log, "--op-log");
  InstallInterruptHandler();
  const unsigned threads = options.generate.threads
                               ? options.generate.threads
                               : std::max(1u, std::thread::hardware_concurrency());
  LogInfo(fmt::format("datagen {}: {} train + {} eval {} files into {} with {} threads{}",
                      config.workload_name, config.dataset.num_files_train,
                      config.dataset.num_files_eval, config.dataset.format, uri, threads,
                      ranks.Size() > 1
                          ? fmt::format(" per rank, {} ranks (rank r writes files r, r+{}, ...)",
                                        ranks.Size(), ranks.Size())
                          : ""));
  ResultsSink* results = ranks.Rank() == 0 ? env.results : nullptr;
  report::ResultEnvelope envelope = StartEnvelope("datagen", config.workload_name, ranks);
  envelope.config = config::ToJson(config);
  // The folder and its first summary before any file: a killed datagen leaves them.
  ResultsWriter writer(results, envelope, options.interval_s);
  const nlohmann::ordered_json planned = {{"format", config.dataset.format},
                                          {"data_folder", uri},
                                          {"threads", threads},
                                          {"ranks", ranks.Size()}};
  writer.Open("datagen-" + config.workload_name, planned);
  JobOpLog op_log(options.op_log, ranks, storage->Describe(""));
  // Bytes count as they are appended, so the series shows a large file's progress.
  storage::CountingStorage counting(op_log.Wrap(*storage));
  JobTimeseries sampling(
      results ? options.interval_s : 0, nullptr, nullptr,
      [&counting](metrics::IntervalProbe& p) {
        p.bytes = counting.bytes_appended();
        p.phase = metrics::LivePhase::kDatagen;
      },
      [&writer](const metrics::TimeseriesRow& row) { writer.Row(row); });
  dataset::GenerateResult result;
  try {
    result = dataset::Generate(config, counting, options.generate, &ranks);
  } catch (const std::exception& e) {
    // What was measured is kept, marked incomplete with why, before the error goes up.
    const bool interrupted = dynamic_cast<const Interrupted*>(&e) != nullptr;
    envelope.finished = UtcStamp();
    envelope.stop_reason = interrupted ? "interrupted" : e.what();
    writer.Finish(envelope, planned, sampling.Finish());
    if (!interrupted) throw;
    throw Interrupted(
        "datagen interrupted; finished files are kept and no partial file is left: "
        "re-run the same command to finish");
  }
  const TimeseriesResult timeseries = sampling.Finish();
  if (op_log) LogInfo(op_log.Close());
  envelope.finished = UtcStamp();
  envelope.complete = true;  // a datagen that fails throws
  DatagenOutcome out;
  if (ranks.Rank() != 0) return out;  // rank 0 reports for the job
  out.reports = true;
  const auto figures = Figures(result, options, threads, ranks.Size());
  out.text = fmt::format(
      "datagen: {} files ({} written, {} already complete), {} bytes ({}) written in {:.3f} s, "
      "{:.3f} GB/s; dataset {} bytes; manifest {}\n",
      result.manifest.files.size(), result.files_written, result.files_skipped,
      result.bytes_written, FormatBytes(static_cast<double>(result.bytes_written)), result.seconds,
      figures["write_MB_per_second"].get<double>() / 1e3, result.dataset_bytes,
      storage->Describe(dataset::kManifestName));
  if (options.generate.verify)
    out.text += fmt::format("verify: {} files OK in {:.2f} s\n", result.manifest.files.size(),
                            result.verify_seconds);
  out.results = writer.Finish(envelope, figures, timeseries);
  nlohmann::ordered_json line;
  line["trainbench_datagen"] = figures;
  out.line = FinalLine(line, envelope, out.results.folder);
  return out;
}

}  // namespace trainbench::app

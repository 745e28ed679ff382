#include "app/dataset/datagen_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "app/frame/job_checks.h"
#include "app/frame/job_frame.h"
#include "app/frame/job_op_log.h"
#include "app/frame/results_writer.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/json_fields.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/units.h"
#include "config/workload_yaml.h"
#include "report/timeseries_csv.h"
#include "storage/counting_storage.h"

namespace trainbench::app {
namespace {

// summary.json's figures of a datagen.
struct DatagenFigures {
  std::string format, data_folder;
  size_t files = 0;
  uint64_t files_written = 0, files_skipped = 0, files_removed = 0;
  uint64_t bytes_written = 0, dataset_bytes = 0;
  double seconds = 0, write_MB_per_second = 0, files_per_second = 0;
  bool verified = false;
  double verify_seconds = 0;
  unsigned threads = 0;
  int ranks = 1;
};
TB_JSON_FIELDS(DatagenFigures, format, data_folder, files, files_written, files_skipped,
               files_removed, bytes_written, dataset_bytes, seconds, write_MB_per_second,
               files_per_second, verified, verify_seconds, threads, ranks)

DatagenFigures Figures(const dataset::GenerateResult& r, const DatagenJobOptions& o,
                       unsigned threads, int ranks) {
  const double s = r.seconds;
  return {.format = o.config.dataset.format,
          .data_folder = config::DatasetUri(o.config),
          .files = r.manifest.files.size(),
          .files_written = r.files_written,
          .files_skipped = r.files_skipped,
          .files_removed = r.files_removed,
          .bytes_written = r.bytes_written,
          .dataset_bytes = r.dataset_bytes,
          .seconds = s,
          .write_MB_per_second = s > 0 ? static_cast<double>(r.bytes_written) / s / 1e6 : 0.0,
          .files_per_second = s > 0 ? static_cast<double>(r.files_written) / s : 0.0,
          .verified = o.generate.verify,
          .verify_seconds = r.verify_seconds,
          .threads = threads,
          .ranks = ranks};
}

// Refusals before any work (exit 2).
void CheckDatagen(const DatagenJobOptions& options) {
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
  if (!options.op_log.empty()) CheckWritableFile(options.op_log, "--op-log");
}

// The dataset's storage; a folder that cannot be written is refused before any work, as
// `run` refuses its output.folder (exit 2).
std::unique_ptr<storage::Storage> OpenDatasetStorage(const config::WorkloadConfig& config,
                                                     JobEnv& env) {
  auto storage = env.open_storage(config::DatasetUri(config), config.storage.storage_options);
  if (env.check_local_folders)
    if (const auto local = storage->LocalPath(""))
      CheckWritableFolder(*local, "dataset.data_folder");
  return storage;
}

// The work: every rank writes its files, its bytes sampled as they are appended. What was
// measured is kept, marked incomplete with why, before an error goes up.
dataset::GenerateResult Generate(JobFrame& frame, const DatagenJobOptions& options,
                                 storage::Storage& storage, const nlohmann::ordered_json& planned,
                                 TimeseriesResult& timeseries) {
  // Bytes count as they are appended, so the series shows a large file's progress.
  storage::CountingStorage counting(storage);
  auto sampling = frame.Sample([&counting](metrics::IntervalProbe& p) {
    p.bytes = counting.bytes_appended();
    p.phase = metrics::LivePhase::kDatagen;
  });
  try {
    auto result = dataset::Generate(options.config, counting, options.generate, &frame.ranks());
    timeseries = sampling->Finish();
    return result;
  } catch (const UsageError&) {
    // Refused before any file (free space, an incompatible dataset): no results folder that
    // would pass for a datagen that ran.
    sampling->Finish();
    frame.writer().Discard();
    throw;
  } catch (const std::exception& e) {
    const bool interrupted = dynamic_cast<const Interrupted*>(&e) != nullptr;
    frame.Stop(interrupted ? "interrupted" : e.what(), planned, sampling->Finish());
    if (!interrupted) throw;
    throw Interrupted(
        "datagen interrupted; finished files are kept and no partial file is left: "
        "re-run the same command to finish");
  }
}

}  // namespace

DatagenOutcome DatagenJob(const DatagenJobOptions& options, JobEnv& env) {
  CheckDatagen(options);
  const auto& config = options.config;
  auto storage = OpenDatasetStorage(config, env);
  const std::string uri = config::DatasetUri(config);
  InstallInterruptHandler();
  const unsigned threads = options.generate.threads
                               ? options.generate.threads
                               : std::max(1u, std::thread::hardware_concurrency());
  const int size = env.ranks.Size();
  LogInfo(fmt::format(
      "datagen {}: {} train + {} eval {} files into {} with {} threads{}", config.workload_name,
      config.dataset.num_files_train, config.dataset.num_files_eval, config.dataset.format, uri,
      threads,
      size > 1 ? fmt::format(" per rank, {} ranks (rank r writes files r, r+{}, ...)", size, size)
               : ""));
  JobFrame frame(env, "datagen", config.workload_name, config::ToJson(config), options.interval_s);
  // The folder and its first summary before any file: a killed datagen leaves them.
  const nlohmann::ordered_json planned = {{"format", config.dataset.format},
                                          {"data_folder", uri},
                                          {"threads", threads},
                                          {"ranks", size}};
  frame.Begin("datagen-" + config.workload_name, planned);
  JobOpLog op_log(options.op_log, frame.ranks(), storage->Describe(""));
  TimeseriesResult timeseries;
  const dataset::GenerateResult result =
      Generate(frame, options, op_log.Wrap(*storage), planned, timeseries);
  if (op_log) LogInfo(op_log.Close());
  DatagenOutcome out;
  if (!frame.lead()) return out;  // rank 0 reports for the job (a datagen that fails throws)
  const auto figures = Figures(result, options, threads, size);
  out.text = fmt::format(
      "datagen: {} files ({} written, {} already complete), {} bytes ({}) written in {:.3f} s, "
      "{:.3f} GB/s; dataset {} bytes; manifest {}\n",
      result.manifest.files.size(), result.files_written, result.files_skipped,
      result.bytes_written, FormatBytes(static_cast<double>(result.bytes_written)), result.seconds,
      figures.write_MB_per_second / 1e3, result.dataset_bytes,
      storage->Describe(dataset::kManifestName));
  if (options.generate.verify)
    out.text += fmt::format("verify: {} files OK in {:.2f} s\n", result.manifest.files.size(),
                            result.verify_seconds);
  frame.End(out, {}, figures, timeseries, "trainbench_datagen");
  return out;
}

}  // namespace trainbench::app

// `trainbench datagen WORKLOAD [overrides]`: writes the workload's dataset (train and
// eval files in DLIO's layout, plus a manifest) to dataset.data_folder.
#include <fmt/format.h>

#include <thread>

#include "cli/command.h"
#include "cli/validators.h"
#include "cli/workload_args.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/units.h"
#include "dataset/generator.h"
#include "dist/communicator.h"
#include "storage/storage.h"

namespace trainbench::cli {

void AddDatagenCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "datagen", "Generate a workload's dataset (DLIO layout and formats) with a manifest");
  command->footer(
      "Examples:\n"
      "  trainbench datagen resnet50_h100 dataset.num_files_train=8 dataset.data_folder=/tmp/d\n"
      "  trainbench datagen unet3d_h100 ++workload.dataset.data_folder=file:///mnt/fs/unet3d "
      "--verify\n"
      "Interrupted or failed runs leave no partial files; re-running finishes the rest.\n\n" +
      FormatList());
  static WorkloadArgs args;
  static unsigned threads = 0;
  static bool verify = false, no_progress = false, force = false, replace = false;
  AddWorkloadArgs(*command, args);
  command->add_option("--threads,-j", threads, "Files written in parallel (default: all cores)")
      ->check(AtLeast(0));
  command->add_flag("--verify", verify, "Re-read every file afterwards and check its structure");
  command->add_flag("--force", force,
                    "Write even when the file system has less free space than the dataset needs");
  command->add_flag("--replace", replace,
                    "Remove a dataset of other settings found in the folder (the files its "
                    "manifest lists) and write this one");
  command->add_flag("--no-progress", no_progress,
                    "No progress lines (the final line is still printed)");
  command->callback([&action] {
    action = [] {
      dist::Communicator& ranks = dist::World();
      const auto config = LoadWorkloadOrThrow(args);
      const std::string uri = config::DatasetUri(config);
      auto storage = storage::OpenStorage(uri, config.storage.storage_options);
      // A folder that cannot be written is refused before any work, as `run` refuses its
      // output.folder (exit 2).
      if (const auto local = storage->LocalPath(""))
        CheckWritableFolder(*local, "dataset.data_folder");
      InstallInterruptHandler();
      const unsigned used_threads =
          threads ? threads : std::max(1u, std::thread::hardware_concurrency());
      LogInfo(fmt::format(
          "datagen {}: {} train + {} eval {} files into {} with {} threads{}", config.workload_name,
          config.dataset.num_files_train, config.dataset.num_files_eval, config.dataset.format, uri,
          used_threads,
          ranks.Size() > 1 ? fmt::format(" per rank, {} ranks (rank r writes files r, r+{}, ...)",
                                         ranks.Size(), ranks.Size())
                           : ""));
      dataset::GenerateOptions options{threads, verify, !no_progress, force, replace};
      try {
        const auto result = dataset::Generate(config, *storage, options, &ranks);
        if (ranks.Rank() != 0) return 0;  // rank 0 reports for the job
        const double rate =
            result.seconds > 0 ? static_cast<double>(result.bytes_written) / result.seconds : 0;
        fmt::print(
            "datagen: {} files ({} written, {} already complete), {} bytes ({}) written in {:.3f} "
            "s, {:.3f} GB/s; "
            "dataset {} bytes; manifest {}\n",
            result.manifest.files.size(), result.files_written, result.files_skipped,
            result.bytes_written, FormatBytes(static_cast<double>(result.bytes_written)),
            result.seconds, rate / 1e9, result.dataset_bytes,
            storage->Describe(dataset::kManifestName));
        if (verify)
          fmt::print("verify: {} files OK in {:.2f} s\n", result.manifest.files.size(),
                     result.verify_seconds);
      } catch (const Interrupted&) {
        throw Interrupted(
            "datagen interrupted; finished files are kept and no partial file is left: "
            "re-run the same command to finish");
      }
      return 0;
    };
  });
}

}  // namespace trainbench::cli

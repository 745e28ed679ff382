// `trainbench datasize WORKLOAD --accelerators N --hosts H --host-memory-gib M`: the flags
// of app's DatasizeJob (MLPerf Storage's dataset sizing rule, so the page cache cannot hold
// the dataset; or a transformer's checkpoint) and its answer.
#include "app/dataset/datasize_job.h"
#include "app/frame/binary_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"

namespace trainbench::cli {

void AddDatasizeCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "datasize",
      "How many files the dataset needs: MLPerf Storage's rule, max(500 x batch x accelerators, "
      "5 x hosts x host memory / sample size)");
  static WorkloadArgs args;
  static app::DatasizeOptions options;
  AddWorkloadArgs(*command, args);
  command
      ->add_option("--accelerators,-a,-n", options.accelerators,
                   "Emulated accelerators in total (under mpirun: per rank, as in run)")
      ->check(AtLeast(1));
  command
      ->add_option("--hosts", options.hosts,
                   "Hosts running the benchmark (default 1; under mpirun, the ranks' hosts)")
      ->check(AtLeast(1));
  command
      ->add_option("--host-memory-gib", options.host_memory_gib,
                   "Memory per host in GiB (default: this host's; under mpirun, the mean of the "
                   "ranks' hosts)")
      ->check(PositiveFinite());
  command->add_flag("--checkpoint", options.checkpoint,
                    "Size the workload's checkpoint instead (a transformer: model.num_layers and "
                    "model.transformer), over --ranks; writes nothing");
  command
      ->add_option("--ranks", options.checkpoint_ranks,
                   "With --checkpoint: the job's ranks (default: tensor x pipeline parallelism, "
                   "or the ranks under mpirun)")
      ->check(AtLeast(1));
  command->callback([&action] {
    action = [] {
      options.config = LoadWorkloadOrThrow(args);
      options.workload = args.workload;
      auto env = app::BinaryJobEnv(nullptr);
      return ShowJobReport(app::DatasizeJob(options, env));
    };
  });
}

}  // namespace trainbench::cli

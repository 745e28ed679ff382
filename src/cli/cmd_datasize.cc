// `trainbench datasize WORKLOAD --accelerators N --hosts H --host-memory-gib M`:
// MLPerf Storage's dataset sizing rule, so the page cache cannot hold the dataset. Under
// mpirun the ranks say it themselves: hosts are the ranks' distinct hosts, memory theirs,
// and --accelerators is per rank (as in `run`), summed.
#include <fmt/format.h>

#include <cmath>
#include <map>

#include "cli/command.h"
#include "cli/validators.h"
#include "cli/workload_args.h"
#include "common/error.h"
#include "common/units.h"
#include "config/datasize.h"
#include "dist/communicator.h"
#include "metrics/process_stats.h"
#include "sim/ranks.h"

namespace trainbench::cli {

void AddDatasizeCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "datasize",
      "How many files the dataset needs: MLPerf Storage's rule, max(500 x batch x accelerators, "
      "5 x hosts x host memory / sample size)");
  static WorkloadArgs args;
  static uint64_t accelerators = 1, hosts = 1;
  static double memory_gib = 0;
  AddWorkloadArgs(*command, args);
  command
      ->add_option("--accelerators,-n", accelerators,
                   "Emulated accelerators in total (under mpirun: per rank, as in run)")
      ->check(AtLeast(1));
  command
      ->add_option("--hosts", hosts,
                   "Hosts running the benchmark (default 1; under mpirun, the ranks' hosts)")
      ->check(AtLeast(1));
  command
      ->add_option("--host-memory-gib", memory_gib,
                   "Memory per host in GiB (default: this host's; under mpirun, the mean of the "
                   "ranks' hosts)")
      ->check(PositiveFinite());
  command->callback([&action] {
    action = [] {
      dist::Communicator& ranks = dist::World();
      const auto config = LoadWorkloadOrThrow(args);
      if (ranks.Size() > 1) {
        const auto layout = sim::ExchangeRankLayout(ranks, accelerators);
        if (ranks.Rank() != 0) return 0;  // rank 0 answers for the job
        accelerators = layout.total_accelerators;
        std::map<std::string, uint64_t> memory;
        for (const auto& rank : layout.ranks) memory[rank.host] = rank.memory_bytes;
        hosts = memory.size();
        double total = 0;
        for (const auto& [host, bytes] : memory) total += static_cast<double>(bytes);
        if (memory_gib <= 0) memory_gib = total / static_cast<double>(hosts) / kGiB;
        fmt::print("ranks            {} on {} host(s), {} accelerators\n", ranks.Size(), hosts,
                   accelerators);
      } else if (memory_gib <= 0) {
        memory_gib = static_cast<double>(metrics::HostMemoryBytes()) / kGiB;
      }
      const auto size = config::ComputeDataSize(config, accelerators, hosts, memory_gib);
      fmt::print("workload         {}\n", config.workload_name);
      fmt::print("rule             samples = max(500 x {} x {}, 5 x {} x {:.2f} GiB / {:.0f} B)\n",
                 config.reader.batch_size, accelerators, hosts, memory_gib,
                 config.dataset.record_length_bytes);
      fmt::print("samples          {}\n", size.samples);
      fmt::print("files            {} ({} samples per file)\n", size.files,
                 config.dataset.num_samples_per_file);
      fmt::print("size             {:.2f} GB ({:.2f} GiB)\n", size.bytes / kGB, size.bytes / kGiB);
      fmt::print(
          "\nGenerate and run with:\n  trainbench datagen {} dataset.num_files_train={}\n"
          "  trainbench run {} dataset.num_files_train={} --accelerators {}\n",
          args.workload, size.files, args.workload, size.files, accelerators);
      return 0;
    };
  });
}

}  // namespace trainbench::cli

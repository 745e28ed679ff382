#include "train/launch_environment.h"

#include <fmt/format.h>

#include <cstdlib>

#include "common/error.h"

namespace trainbench::train {
namespace {

// The integer in environment variable `name`, or `fallback` when unset.
int EnvInt(const char* name, int fallback, int min) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < min || value > 1 << 20)
    throw UsageError(
        fmt::format("environment {}={}: expected an integer of at least {}", name, text, min));
  return static_cast<int>(value);
}

// The first host of a Slurm node list: "node[07-09,12],gpu3" gives node07. Slurm writes
// ranges only in brackets, so the name ends at the first top-level comma, and a bracket
// contributes its first number (with its zero padding).
std::string FirstSlurmHost(const std::string& nodelist) {
  const size_t open = nodelist.find('[');
  const size_t comma = nodelist.find(',');
  if (open == std::string::npos || (comma != std::string::npos && comma < open))
    return nodelist.substr(0, comma);
  const size_t end = nodelist.find_first_of(",-]", open + 1);
  const size_t close = nodelist.find(']', open);
  std::string host = nodelist.substr(0, open) + nodelist.substr(open + 1, end - open - 1);
  // A suffix after the bracket ("rack[1-2]n") belongs to every name.
  if (close != std::string::npos) {
    const size_t next = nodelist.find(',', close);
    host += nodelist.substr(close + 1, next == std::string::npos ? next : next - close - 1);
  }
  return host;
}

}  // namespace

LaunchInfo ReadLaunchEnvironment() {
  LaunchInfo info;
  if (std::getenv("WORLD_SIZE")) {
    info.launcher = "torchrun";
    info.world_size = EnvInt("WORLD_SIZE", 1, 1);
    info.rank = EnvInt("RANK", 0, 0);
    info.local_rank = EnvInt("LOCAL_RANK", info.rank, 0);
  } else if (std::getenv("OMPI_COMM_WORLD_SIZE")) {
    info.launcher = "mpirun";
    info.world_size = EnvInt("OMPI_COMM_WORLD_SIZE", 1, 1);
    info.rank = EnvInt("OMPI_COMM_WORLD_RANK", 0, 0);
    info.local_rank = EnvInt("OMPI_COMM_WORLD_LOCAL_RANK", info.rank, 0);
  } else if (std::getenv("SLURM_PROCID") && std::getenv("SLURM_STEP_NUM_TASKS")) {
    // srun's tasks. SLURM_STEP_NUM_TASKS (set by srun only) keeps a batch script's own
    // process, which sees SLURM_PROCID=0 and the job's SLURM_NTASKS, a single process.
    info.launcher = "slurm";
    info.world_size = EnvInt("SLURM_STEP_NUM_TASKS", 1, 1);
    info.rank = EnvInt("SLURM_PROCID", 0, 0);
    info.local_rank = EnvInt("SLURM_LOCALID", 0, 0);
    // Rank 0 runs on the step's first node under srun's default block distribution; not on
    // SLURM_LAUNCH_NODE_IPADDR, which is where srun ran (a login node, often).
    for (const char* name : {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST"}) {
      const char* nodes = std::getenv(name);
      if (nodes && *nodes) {
        info.master_addr = FirstSlurmHost(nodes);
        break;
      }
    }
  }
  if (info.rank >= info.world_size)
    throw UsageError(fmt::format("rank {} is not below the world size {} ({} environment)",
                                 info.rank, info.world_size, info.launcher));
  if (const char* addr = std::getenv("MASTER_ADDR"); addr && *addr) info.master_addr = addr;
  info.master_port = EnvInt("MASTER_PORT", info.master_port, 1);
  if (info.master_port > 65535)
    throw UsageError(fmt::format("environment MASTER_PORT={}: not a port", info.master_port));
  return info;
}

}  // namespace trainbench::train

#include "app/official_commands.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

namespace trainbench::app {
namespace {

// "resnet50_h100" -> {"resnet50", "h100"}; a workload without a known suffix keeps its
// model's name and no type.
std::pair<std::string, std::string> ModelAndType(const config::WorkloadConfig& c) {
  const std::string& name = c.workload_name;
  const size_t cut = name.rfind('_');
  if (cut != std::string::npos) {
    const std::string type = name.substr(cut + 1);
    for (const char* known : {"a100", "h100", "b200", "mi355", "v100"})
      if (type == known) return {name.substr(0, cut), type};
  }
  return {c.model.name, ""};
}

}  // namespace

OfficialCommands OfficialCommandsFor(const config::WorkloadConfig& c, uint64_t accelerators,
                                     const std::vector<std::string>& hosts,
                                     double host_memory_gib) {
  OfficialCommands out;
  const uint64_t host_count = std::max<size_t>(1, hosts.size());
  out.size = config::ComputeDataSize(c, accelerators, host_count, host_memory_gib);
  const auto [model, type] = ModelAndType(c);
  const std::string host_list = fmt::format("{}", fmt::join(hosts, ","));
  const auto memory = static_cast<uint64_t>(std::floor(host_memory_gib));
  const std::string folder = config::DatasetUri(c);
  const std::string type_flag = type.empty() ? "" : " --accelerator-type " + type;
  out.datasize = fmt::format(
      "mlpstorage training datasize --model {}{} --num-accelerators {} --num-client-hosts {} "
      "--client-host-memory-in-gb {}",
      model, type_flag, accelerators, host_count, memory);
  out.datagen = fmt::format(
      "mlpstorage training datagen --hosts {} --model {} --num-processes {} --data-dir {} "
      "--param dataset.num_files_train={}",
      host_list, model, accelerators, folder, out.size.files);
  out.run = fmt::format(
      "mlpstorage training run --hosts {} --num-client-hosts {} --model {}{} "
      "--num-accelerators {} --client-host-memory-in-gb {} --data-dir {} --results-dir "
      "results --param dataset.num_files_train={}",
      host_list, host_count, model, type_flag, accelerators, memory, folder, out.size.files);
  out.dlio = fmt::format(
      "mpirun -np {} dlio_benchmark workload={} ++workload.dataset.data_folder={} "
      "++workload.dataset.num_files_train={} ++workload.workflow.generate_data=False",
      accelerators, c.workload_name, folder, out.size.files);
  return out;
}

}  // namespace trainbench::app

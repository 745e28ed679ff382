// The table of every key of sai3-bench's config that trainbench knows, with what it does with
// it (sai3_config.h's Sai3Key): walk.cc checks a config's keys against it, docs/sai3-bench.md
// lists it. One key a line.
#include "config/sai3/sai3_config.h"

namespace trainbench::config {
namespace {

constexpr const char* kAgents =
    "sai3-bench's agents and controller (gRPC, SSH, containers): "
    "trainbench's ranks are mpirun's";

}  // namespace

const std::vector<Sai3Key>& Sai3Keys() {
  static const std::vector<Sai3Key> kKeys = {
      {"target", "supported", ""},
      {"duration", "supported", ""},
      {"concurrency", "supported", ""},
      {"op_log_path", "supported", ""},
      {"page_cache_mode", "supported", ""},
      {"dynamic_put_pool", "ignored",
       "GETs choose among the objects there when the workload starts"},
      {"cache_checkpoint_interval_secs", "ignored", "sai3-bench's agents' KV cache"},
      {"multi_endpoint", "refused",
       "trainbench runs against one target: give one endpoint (--s3-option endpoint_url=...)"},
      {"perf_log", "group", ""},
      {"perf_log.enabled", "supported", ""},
      {"perf_log.interval", "supported", ""},
      {"perf_log.path", "ignored", "the series goes to timeseries.csv in the results folder"},
      {"prepare", "group", ""},
      {"prepare.ensure_objects", "list", ""},
      {"prepare.ensure_objects[].base_uri", "supported", ""},
      {"prepare.ensure_objects[].count", "supported", ""},
      {"prepare.ensure_objects[].min_size", "supported", ""},
      {"prepare.ensure_objects[].max_size", "supported", ""},
      {"prepare.ensure_objects[].size_spec", "supported", ""},
      {"prepare.ensure_objects[].fill", "supported", ""},
      {"prepare.ensure_objects[].dedup_factor", "supported", ""},
      {"prepare.ensure_objects[].compress_factor", "supported", ""},
      {"prepare.ensure_objects[].use_multi_endpoint", "supported", ""},
      {"prepare.directory_structure", "group", ""},
      {"prepare.directory_structure.width", "supported", ""},
      {"prepare.directory_structure.depth", "supported", ""},
      {"prepare.directory_structure.files_per_dir", "supported", ""},
      {"prepare.directory_structure.distribution", "supported", ""},
      {"prepare.directory_structure.dir_mask", "supported", ""},
      {"prepare.cleanup", "supported", ""},
      {"prepare.force_overwrite", "supported", ""},
      {"prepare.cleanup_only", "supported", ""},
      {"prepare.prepare_strategy", "ignored",
       "trainbench prepares with `concurrency` writers over all sets at once"},
      {"prepare.skip_verification", "ignored",
       "prepare keeps a journal and skips the objects already whole (resume), never lists first"},
      {"prepare.post_prepare_delay", "ignored", "the workload starts once every rank prepared"},
      {"prepare.cleanup_mode", "ignored", "cleanup removes only what prepare wrote"},
      {"prepare.key_prefix_shards", "refused",
       "trainbench names objects as sai3-bench's prepare does without shards"},
      {"workload", "list", ""},
      {"workload[].op", "supported", ""},
      {"workload[].path", "supported", ""},
      {"workload[].weight", "supported", ""},
      {"workload[].object_size", "supported", ""},
      {"workload[].size_distribution", "supported", ""},
      {"workload[].use_multi_endpoint", "supported", ""},
      {"workload[].concurrency", "ignored",
       "one pool of `concurrency` workers does every op, each choosing by weight"},
      {"distributed", "group", ""},
      {"distributed.agents", "supported", ""},
      {"distributed.shared_filesystem", "ignored",
       "every rank writes its share of the objects into the one target"},
      {"distributed.tree_creation_mode", "ignored",
       "each rank prepares its 1/N of the objects, folders with them"},
      {"distributed.path_selection", "ignored", "every rank's GETs choose among all objects"},
      {"distributed.partition_overlap", "ignored", "every rank's GETs choose among all objects"},
      {"distributed.path_template", "ignored", "every rank writes into the one target"},
      {"distributed.start_delay", "ignored", "the ranks start together after a barrier"},
      {"distributed.grpc_keepalive_interval", "ignored", kAgents},
      {"distributed.grpc_keepalive_timeout", "ignored", kAgents},
      {"distributed.agent_ready_timeout", "ignored", kAgents},
      {"distributed.barrier_sync", "ignored", "the ranks meet at MPI barriers"},
      {"distributed.ssh", "ignored", kAgents},
      {"distributed.deployment", "ignored", kAgents},
      {"distributed.kv_cache_dir", "ignored", "sai3-bench's agents' KV cache"},
      {"distributed.stages", "ignored",
       "trainbench runs prepare, then the workload for `duration`, then cleanup"},
      {"output", "group", ""},
      {"output.folder", "supported", ""},
  };
  return kKeys;
}

}  // namespace trainbench::config

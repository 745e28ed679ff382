// A sai3-bench config (its YAML: target, duration, concurrency, prepare.ensure_objects,
// directory_structure, a weighted `workload` of get/put/stat/list/delete) as trainbench runs
// it with `trainbench run CONFIG.yaml [key=value ...]` (docs/sai3-bench.md lists every key).
// Every key sai3-bench documents is known: the ones trainbench acts on are read and checked;
// those that only tune sai3-bench's own agents or stages (gRPC, SSH, barriers, KV cache) are
// warnings; those whose effect trainbench cannot give (multi_endpoint, dedup and compress
// factors above 1, cleanup_only) are refused. An unknown key is refused naming the nearest
// known one. Refusals are UsageError (exit 2), before any work.
// This folder: keys.cc (the key table), walk.cc (a config's keys against it), place.cc (where
// a value came from, for errors), values.cc (the values' forms), prepare.cc and
// workload_ops.cc (the two sections), load.cc (the file and its overrides, config/override.h's
// grammar shared with the workload YAML).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace trainbench::config {

// How big objects are: fixed (min == max), uniform in [min, max], or lognormal of `mean` and
// `std_dev` clamped to [min, max].
struct Sai3Sizes {
  std::string type = "fixed";
  uint64_t min = 0, max = 0;
  double mean = 0, std_dev = 0;
};

// One prepare.ensure_objects entry.
struct Sai3ObjectSet {
  std::string base_uri;  // where the objects go (the target's storage when under it)
  uint64_t count = 0;
  Sai3Sizes sizes;
  bool zero_fill = false;  // fill: zero (random otherwise)
};

// prepare.directory_structure: width^depth folders named by dir_mask ("%d" the level, then
// the place among its siblings), objects in the leaves (bottom) or in every folder (all).
struct Sai3Tree {
  uint64_t width = 0, depth = 0, files_per_dir = 0;  // width 0: no tree, objects flat
  bool bottom = true;
  std::string dir_mask = "sai3bench.d%d_w%d.dir";
};

struct Sai3Op {
  std::string op;    // get, put, stat, list, delete
  std::string path;  // a glob under the target (get, stat, delete), a prefix (list, put)
  double weight = 0;
  Sai3Sizes sizes;  // put
};

struct Sai3Config {
  std::string source;  // the file
  std::string name;    // its stem, for results
  std::string target;  // file:///path, a path or s3://bucket/prefix/
  double duration_s = 60;
  unsigned concurrency = 32;
  std::vector<Sai3ObjectSet> ensure_objects;
  Sai3Tree tree;
  bool force_overwrite = false;  // prepare writes every object again
  bool cleanup = false;          // remove what prepare wrote at the end
  std::vector<Sai3Op> workload;
  bool perf_log = true;
  double interval_s = 1;
  std::string op_log_path;  // op_log_path ("": none)
  // page_cache_mode: normal, sequential, random, dontneed or auto ("": none given), the
  // advice each GET's file gets as it is opened on a file:// target.
  std::string page_cache_mode;
  uint64_t agents = 0;        // distributed.agents listed (0: standalone)
  std::string output_folder;  // trainbench's output.folder ("": the default)
  nlohmann::json resolved;    // the config as run, for summary.json
};

struct LoadedSai3 {
  Sai3Config config;
  std::vector<std::string> warnings;
};

inline constexpr unsigned kMaxSai3Concurrency = 4096;

// Whether `path` is a YAML file with sai3-bench's shape: a `workload` list of ops, or a
// `prepare` with ensure_objects, at the top (DLIO's `workload` is a map).
bool IsSai3Config(const std::string& path);

// Loads `path`, applies the overrides ("concurrency=4", "prepare.ensure_objects.0.count=64";
// a list index may be left out where the list has one entry; the index after the last adds
// an entry: workload.1.op=put), checks every key and value.
LoadedSai3 LoadSai3Config(const std::string& path, const std::vector<std::string>& overrides);

// "60s", "5m", "2h", "1d" or plain seconds; throws std::invalid_argument.
double Sai3Seconds(const std::string& text);
// 1048576, "1,048,576", "32KB" (10^3), "1MiB" (2^20); throws std::invalid_argument.
uint64_t Sai3Bytes(const std::string& text);

// Every key path trainbench knows ("prepare.ensure_objects[].count"), with what it does with
// it: "supported" (read; some refuse values they cannot give), "ignored" (a warning says why),
// "refused", or "group"/"list" (a map or list of maps of keys below it).
struct Sai3Key {
  const char* path;
  const char* status;
  const char* why;  // ignored or refused: the reason, for the message
};
const std::vector<Sai3Key>& Sai3Keys();

}  // namespace trainbench::config

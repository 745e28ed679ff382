#include "config/workload.h"

#include "common/strings.h"

namespace trainbench::config {

double TimeDistribution::Mean() const {
  switch (kind) {
    case Kind::kConstant:
    case Kind::kNormal:
    case Kind::kExponential:
    case Kind::kPoisson:
      return mean;
    case Kind::kUniform:
      return (min + max) / 2;
    case Kind::kGamma:
      return shape * scale;
  }
  return mean;
}

TimeDistribution PreprocessTime(const ReaderConfig& reader) {
  TimeDistribution t = reader.preprocess_time;
  if (reader.preprocess_time_stdev > 0 && t.kind == TimeDistribution::Kind::kConstant) {
    t.kind = TimeDistribution::Kind::kNormal;
    t.stdev = reader.preprocess_time_stdev;
  }
  return t;
}

std::string ToString(Compression compression) {
  switch (compression) {
    case Compression::kNone:
      return "none";
    case Compression::kGzip:
      return "gzip";
    case Compression::kLzf:
      return "lzf";
    case Compression::kBz2:
      return "bz2";
    case Compression::kZip:
      return "zip";
    case Compression::kXz:
      return "xz";
    case Compression::kSnappy:
      return "snappy";
    case Compression::kLz4:
      return "lz4";
    case Compression::kZstd:
      return "zstd";
  }
  return "?";
}

std::string ToString(Shuffle shuffle) {
  switch (shuffle) {
    case Shuffle::kOff:
      return "off";
    case Shuffle::kSeed:
      return "seed";
    case Shuffle::kRandom:
      return "random";
  }
  return "?";
}

std::string ToString(ReadType read_type) {
  return read_type == ReadType::kOnDemand ? "on_demand" : "memory";
}

std::string ToString(FileAccess file_access) {
  return file_access == FileAccess::kMulti ? "multi" : "shared";
}

std::string ToString(StorageType storage_type) {
  return storage_type == StorageType::kLocalFs ? "local_fs" : "s3";
}

std::string ToString(CheckpointMode mode) {
  return mode == CheckpointMode::kDefault ? "default" : "subset";
}

std::string ToString(CheckpointType type) {
  return type == CheckpointType::kRankZero ? "rank_zero" : "all_ranks";
}

std::string DatasetUri(const WorkloadConfig& config) {
  const std::string& folder = config.dataset.data_folder;
  if (folder.find("://") != std::string::npos) return folder;
  std::string root = config.storage.storage_root;
  if (config.storage.storage_type == StorageType::kS3) {
    while (!root.empty() && root.back() == '/') root.pop_back();
    std::string key = folder;
    while (StartsWith(key, "./")) key = key.substr(2);
    while (!key.empty() && key.front() == '/') key.erase(0, 1);
    return "s3://" + root + "/" + key;
  }
  if (folder.empty() || folder.front() == '/' || root.empty() || root == "./" || root == ".")
    return folder;
  if (root.back() != '/') root.push_back('/');
  return root + folder;
}

}  // namespace trainbench::config

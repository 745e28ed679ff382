// The resolved workload: DLIO's key groups as plain structs, filled from defaults,
// then the workload YAML, then command-line overrides. Passed down by const reference;
// nothing below the CLI reads flags or globals. Field names are DLIO's key names.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace trainbench::config {

// DLIO's dataset.compression; which a format can write is the format's check to say
// (snappy, lz4 and zstd: parquet only).
enum class Compression { kNone, kGzip, kLzf, kBz2, kZip, kXz, kSnappy, kLz4, kZstd };
enum class Shuffle { kOff, kSeed, kRandom };
enum class ReadType { kOnDemand, kMemory };
enum class FileAccess { kMulti, kShared };
enum class StorageType { kLocalFs, kS3 };
// DLIO's checkpoint.type: rank 0 writes the whole checkpoint, or every rank its share.
enum class CheckpointType { kRankZero, kAllRanks };
// DLIO's checkpoint.mode: the whole job's checkpoint, or (subset) these ranks' shards of a
// job of model.parallelism.data x tensor x pipeline ranks; MLPerf Storage v3.0 allows the
// subset only for llama3 8B on 8 processes (one 8-GPU node; Rules 4.3.5).
enum class CheckpointMode { kDefault, kSubset };

// A time in seconds drawn per step: a constant, or a seeded distribution.
struct TimeDistribution {
  enum class Kind { kConstant, kNormal, kUniform, kGamma, kExponential, kPoisson };
  Kind kind = Kind::kConstant;
  double mean = 0;   // constant value, normal mean, exponential mean, poisson lambda
  double stdev = 0;  // normal
  double min = 0;    // uniform
  double max = 0;    // uniform
  double shape = 0;  // gamma
  double scale = 0;  // gamma
  double Mean() const;
};

// A transformer's shape (DLIO's model.transformer): with model.num_layers, the checkpoint's
// size follows from it (sim/llm_checkpoint.h) instead of model_size_bytes.
struct TransformerConfig {
  uint64_t vocab_size = 0;
  uint64_t hidden_size = 0;
  uint64_t ffn_hidden_size = 0;
  uint64_t num_attention_heads = 0;
  uint64_t num_kv_heads = 0;
};

// How the model is split over ranks (DLIO's model.parallelism): tensor x pipeline ranks
// hold one copy; data parallelism is the rest of the ranks unless set (then the ranks are
// a subset of a larger job); ZeRO's stage decides who holds which states.
struct ParallelismConfig {
  uint64_t tensor = 1;
  uint64_t pipeline = 1;
  uint64_t data = 0;  // 0: ranks / (tensor x pipeline)
  uint64_t zero_stage = 0;
};

struct ModelConfig {
  std::string name = "default";
  std::string type = "default";
  uint64_t model_size_bytes = 10240;
  uint64_t num_layers = 0;
  std::string model_datatype = "fp16";
  std::string optimizer_datatype = "fp32";
  ParallelismConfig parallelism;
  TransformerConfig transformer;
};

struct WorkflowConfig {
  bool generate_data = false;
  bool train = true;
  bool evaluation = false;
  bool checkpoint = false;
};

// One column of DLIO's dataset.parquet.columns: `size` elements of `dtype` per row.
struct ParquetColumn {
  std::string name;
  std::string dtype = "float32";  // numpy's names: float32, int64, uint8, ...
  uint64_t size = 1;
  bool read = true;  // DLIO's selective reading: false = a reader skips the column
  bool operator==(const ParquetColumn&) const = default;
};

// DLIO's dataset.parquet block. row_group_size 0: one row group per file.
struct ParquetConfig {
  uint64_t row_group_size = 0;
  std::string read_mode = "default";   // "row_group": DLIO reads whole row groups
  std::vector<ParquetColumn> columns;  // empty: one uint8 column "data" of the sample size
};

struct DatasetConfig {
  double record_length_bytes = 65536;
  double record_length_bytes_stdev = 0;
  uint64_t record_length_bytes_resize = 0;
  uint64_t num_files_train = 8;
  uint64_t num_files_eval = 0;
  uint64_t num_samples_per_file = 1;
  uint64_t num_subfolders_train = 0;
  uint64_t num_subfolders_eval = 0;
  std::string data_folder = "./data/";
  std::string file_prefix = "img";
  // A format's name, lower case ("tfrecord", "npz"): formats/ describes each (config/
  // cannot see them), and the commands reject an unknown name when they load a workload.
  std::string format = "tfrecord";
  Compression compression = Compression::kNone;
  int64_t compression_level = 4;
  uint64_t chunk_size = 0;
  bool enable_chunking = false;
  ParquetConfig parquet;
};

struct ReaderConfig {
  std::string data_loader = "tensorflow";
  uint64_t batch_size = 1;
  uint64_t batch_size_eval = 1;
  uint64_t read_threads = 1;
  uint64_t computation_threads = 1;
  uint64_t prefetch_size = 2;
  Shuffle file_shuffle = Shuffle::kOff;
  Shuffle sample_shuffle = Shuffle::kOff;
  uint64_t shuffle_size = 1024;
  uint64_t transfer_size = 262144;
  ReadType read_type = ReadType::kOnDemand;
  FileAccess file_access = FileAccess::kMulti;
  bool odirect = false;
  bool dont_use_mmap = false;
  // DLIO's emulated preprocessing (JPEG decode, augmentation): a reader worker holds each
  // sample this long after its bytes arrive. preprocess_time_stdev is DLIO's flat spelling
  // of a normal's spread; PreprocessTime() folds the two into one distribution.
  TimeDistribution preprocess_time;
  double preprocess_time_stdev = 0;
};

struct TrainConfig {
  uint64_t epochs = 1;
  TimeDistribution computation_time;
  int64_t total_training_steps = -1;
  uint64_t seed = 123;
  bool seed_change_epoch = true;
};

struct EvaluationConfig {
  TimeDistribution eval_time;
  uint64_t eval_after_epoch = 1;
  uint64_t epochs_between_evals = 1;
};

struct CheckpointConfig {
  std::string checkpoint_folder = "./checkpoints/";
  uint64_t checkpoint_after_epoch = 1;
  uint64_t epochs_between_checkpoints = 1;
  int64_t steps_between_checkpoints = -1;
  bool fsync = false;
  int64_t num_checkpoints_write = -1;
  int64_t num_checkpoints_read = -1;
  // trainbench's: a checkpointing workload's rank r reads back the shard of rank
  // (r + read_shard_offset) mod ranks, so with an offset of a host's rank count no rank
  // reads what its own host wrote (and may still cache). 0: its own.
  uint64_t read_shard_offset = 0;
  CheckpointType type = CheckpointType::kRankZero;
  CheckpointMode mode = CheckpointMode::kDefault;
};

struct MetricConfig {
  double au = 0.90;
  uint64_t exclude_start_steps = 1;
};

struct OutputConfig {
  std::string folder = "output";
  std::string log_file = "trainbench.log";
};

struct StorageConfig {
  StorageType storage_type = StorageType::kLocalFs;
  std::string storage_root = "./";
  std::map<std::string, std::string> storage_options;
};

struct WorkloadConfig {
  std::string workload_name = "default";  // built-in name or the YAML file's stem
  std::string source = "defaults";        // where the workload came from
  ModelConfig model;
  std::string framework = "tensorflow";
  WorkflowConfig workflow;
  DatasetConfig dataset;
  ReaderConfig reader;
  TrainConfig train;
  EvaluationConfig evaluation;
  CheckpointConfig checkpoint;
  MetricConfig metric;
  OutputConfig output;
  StorageConfig storage;
};

// Names as they appear in YAML ("tfrecord", "on_demand", ...).
std::string ToString(Compression compression);
std::string ToString(Shuffle shuffle);
std::string ToString(ReadType read_type);
std::string ToString(FileAccess file_access);
std::string ToString(StorageType storage_type);
std::string ToString(CheckpointType type);
std::string ToString(CheckpointMode mode);

// reader.preprocess_time with reader.preprocess_time_stdev folded in: a constant with a
// stdev is DLIO's normal(mean, stdev).
TimeDistribution PreprocessTime(const ReaderConfig& reader);

// Where the dataset lives, as a URI or local path: data_folder, resolved against
// storage_root (and the s3:// bucket when storage_type is s3).
std::string DatasetUri(const WorkloadConfig& config);

}  // namespace trainbench::config

#include "config/schema.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "common/secrets.h"
#include "common/strings.h"

namespace trainbench::config {
namespace {

constexpr double kMaxRecordBytes = 1099511627776.0;  // 1 TiB

using Parse = std::function<void(WorkloadConfig&, const YAML::Node&)>;
using Emit = std::function<YAML::Node(const WorkloadConfig&)>;

int64_t ParseInteger(const YAML::Node& node, int64_t min) {
  const std::string text = ScalarText(node);
  size_t used = 0;
  long double value = 0;
  try {
    value = std::stold(text, &used);
  } catch (...) {
    throw std::invalid_argument("got '" + text + "'");
  }
  if (used != text.size() || value != std::floor(value))
    throw std::invalid_argument("got '" + text + "'");
  // A count past 64 bits is no count any storage holds (it read as "expected an integer",
  // which it is).
  if (value > static_cast<long double>(std::numeric_limits<int64_t>::max()))
    throw std::invalid_argument("got '" +
                                (text.size() > 18 ? text.substr(0, 6) + "...'" : text + "'") +
                                ", too large: at most 2^63 - 1");
  if (value < min) throw std::invalid_argument("got " + text);
  return static_cast<int64_t>(value);
}

double ParseNumber(const YAML::Node& node, double min) {
  const std::string text = ScalarText(node);
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    throw std::invalid_argument("got '" + text + "'");
  }
  if (used != text.size() || !std::isfinite(value))
    throw std::invalid_argument("got '" + text + "'");
  if (value < min) throw std::invalid_argument("got " + text);
  return value;
}

bool ParseBool(const YAML::Node& node) {
  const std::string text = ToLower(ScalarText(node));
  if (text == "true" || text == "yes" || text == "on" || text == "1") return true;
  if (text == "false" || text == "no" || text == "off" || text == "0") return false;
  throw std::invalid_argument("got '" + node.Scalar() + "'");
}

template <typename E>
E ParseEnum(const YAML::Node& node, const std::vector<std::pair<std::string, E>>& names) {
  const std::string text = ToLower(ScalarText(node));
  for (const auto& [name, value] : names)
    if (text == name) return value;
  throw std::invalid_argument("got '" + node.Scalar() + "'");
}

template <typename E>
std::string EnumExpected(const std::vector<std::pair<std::string, E>>& names) {
  std::string out = "one of";
  std::string last;
  for (const auto& [name, value] : names) {
    (void)value;
    if (name == last) continue;
    out += (last.empty() ? " " : ", ") + name;
    last = name;
  }
  return out;
}

template <typename T>
YAML::Node Node(const T& value) {
  return YAML::Node(value);
}

// yaml-cpp prints doubles with 17 digits (0.32300000000000001); fmt gives the shortest
// text that reads back to the same double.
template <>
YAML::Node Node(const double& value) {
  return YAML::Node(fmt::format("{}", value));
}

// Key builders. `access` is a generic lambda returning a reference to the field, so
// one expression serves both parse (mutable) and emit (const).
template <typename Access>
KeySpec UnsignedKey(std::string path, Access access, uint64_t min = 0) {
  return {std::move(path),
          "an integer >= " + std::to_string(min),
          true,
          false,
          [access, min](WorkloadConfig& c, const YAML::Node& n) {
            access(c) = static_cast<uint64_t>(ParseInteger(n, static_cast<int64_t>(min)));
          },
          [access](const WorkloadConfig& c) { return Node(access(c)); }};
}

template <typename Access>
KeySpec SignedKey(std::string path, Access access, int64_t min) {
  return {
      std::move(path),
      "an integer >= " + std::to_string(min),
      true,
      false,
      [access, min](WorkloadConfig& c, const YAML::Node& n) { access(c) = ParseInteger(n, min); },
      [access](const WorkloadConfig& c) { return Node(access(c)); }};
}

template <typename Access>
KeySpec NumberKey(std::string path, Access access, double min, double max = 1e300) {
  std::string expected = "a number >= " + YAML::Node(min).as<std::string>();
  if (max < 1e300) expected += " and <= " + YAML::Node(max).as<std::string>();
  return {std::move(path),
          expected,
          true,
          false,
          [access, min, max](WorkloadConfig& c, const YAML::Node& n) {
            const double v = ParseNumber(n, min);
            if (v > max) throw std::invalid_argument("got " + n.Scalar());
            access(c) = v;
          },
          [access](const WorkloadConfig& c) { return Node(access(c)); }};
}

template <typename Access>
KeySpec BoolKey(std::string path, Access access) {
  return {std::move(path),
          "true or false",
          true,
          false,
          [access](WorkloadConfig& c, const YAML::Node& n) { access(c) = ParseBool(n); },
          [access](const WorkloadConfig& c) { return Node(access(c)); }};
}

template <typename Access>
KeySpec StringKey(std::string path, Access access) {
  return {std::move(path),
          "a string",
          true,
          false,
          [access](WorkloadConfig& c, const YAML::Node& n) { access(c) = ScalarText(n); },
          [access](const WorkloadConfig& c) { return Node(access(c)); }};
}

template <typename Access>
KeySpec LowerStringKey(std::string path, Access access, std::string expected) {
  return {std::move(path),
          std::move(expected),
          true,
          false,
          [access](WorkloadConfig& c, const YAML::Node& n) { access(c) = ToLower(ScalarText(n)); },
          [access](const WorkloadConfig& c) { return Node(access(c)); }};
}

template <typename E, typename Access>
KeySpec EnumKey(std::string path, Access access, std::vector<std::pair<std::string, E>> names) {
  return {
      std::move(path),
      EnumExpected(names),
      true,
      false,
      [access, names](WorkloadConfig& c, const YAML::Node& n) { access(c) = ParseEnum(n, names); },
      [access](const WorkloadConfig& c) { return Node(ToString(access(c))); }};
}

// computation_time / eval_time: a number, {mean, stdev}, or {type: dist, ...}.
TimeDistribution ParseTime(const YAML::Node& node) {
  using Kind = TimeDistribution::Kind;
  TimeDistribution t;
  if (node.IsScalar()) {
    t.mean = ParseNumber(node, 0);
    return t;
  }
  if (!node.IsMap()) throw std::invalid_argument("got a list");
  std::string type = node["type"] ? ToLower(ScalarText(node["type"])) : "";
  if (type.empty()) type = node["stdev"] ? "normal" : "constant";
  auto get = [&](const char* name, bool required) {
    if (!node[name]) {
      if (required) throw std::invalid_argument(type + " needs '" + name + "'");
      return 0.0;
    }
    return ParseNumber(node[name], 0);
  };
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    if (key != "type" && key != "mean" && key != "stdev" && key != "min" && key != "max" &&
        key != "shape" && key != "scale" && key != "lam" && key != "lambda")
      throw std::invalid_argument("unknown field '" + key + "'");
  }
  if (type == "constant") {
    t.mean = get("mean", true);
  } else if (type == "normal") {
    t.kind = Kind::kNormal;
    t.mean = get("mean", true);
    t.stdev = get("stdev", false);
  } else if (type == "uniform") {
    t.kind = Kind::kUniform;
    t.min = get("min", true);
    t.max = get("max", true);
    if (t.max < t.min) throw std::invalid_argument("uniform needs min <= max");
  } else if (type == "gamma") {
    t.kind = Kind::kGamma;
    t.shape = get("shape", true);
    t.scale = get("scale", true);
    if (t.shape <= 0) throw std::invalid_argument("gamma needs shape > 0");
  } else if (type == "exponential") {
    t.kind = Kind::kExponential;
    t.mean = node["scale"] ? get("scale", true) : get("mean", true);
  } else if (type == "poisson") {
    t.kind = Kind::kPoisson;
    t.mean = node["lam"]      ? get("lam", true)
             : node["lambda"] ? get("lambda", true)
                              : get("mean", true);
  } else {
    throw std::invalid_argument("unknown distribution '" + type + "'");
  }
  return t;
}

YAML::Node EmitTime(const TimeDistribution& t) {
  using Kind = TimeDistribution::Kind;
  if (t.kind == Kind::kConstant) return Node(t.mean);
  YAML::Node node;
  switch (t.kind) {
    case Kind::kNormal:
      node["type"] = "normal";
      node["mean"] = Node(t.mean);
      node["stdev"] = Node(t.stdev);
      break;
    case Kind::kUniform:
      node["type"] = "uniform";
      node["min"] = Node(t.min);
      node["max"] = Node(t.max);
      break;
    case Kind::kGamma:
      node["type"] = "gamma";
      node["shape"] = Node(t.shape);
      node["scale"] = Node(t.scale);
      break;
    case Kind::kExponential:
      node["type"] = "exponential";
      node["scale"] = Node(t.mean);
      break;
    case Kind::kPoisson:
      node["type"] = "poisson";
      node["lam"] = Node(t.mean);
      break;
    case Kind::kConstant:
      break;
  }
  return node;
}

template <typename Access>
KeySpec TimeKey(std::string path, Access access) {
  return {std::move(path),
          "seconds as a number, {mean, stdev}, or {type: normal|uniform|gamma|exponential|poisson, "
          "...}",
          true,
          false,
          [access](WorkloadConfig& c, const YAML::Node& n) { access(c) = ParseTime(n); },
          [access](const WorkloadConfig& c) { return EmitTime(access(c)); }};
}

// A DLIO key trainbench reads without error but does not act on.
KeySpec Ignored(std::string path) {
  return {std::move(path), "any value", false, false, [](WorkloadConfig&, const YAML::Node&) {},
          nullptr};
}

// dataset.parquet.columns: a list of {name, dtype, size, read} maps, or of bare names
// (DLIO reads a bare name as one float32).
std::vector<ParquetColumn> ParseParquetColumns(const YAML::Node& node) {
  if (!node.IsSequence())
    throw std::invalid_argument("got a " + std::string(node.IsMap() ? "map" : "scalar"));
  std::vector<ParquetColumn> columns;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node& item = node[i];
    const std::string where = fmt::format("column {}", i);
    ParquetColumn column;
    if (item.IsScalar()) {
      column.name = item.Scalar();
    } else if (item.IsMap()) {
      for (const auto& field : item) {
        const std::string key = field.first.Scalar();
        try {
          if (key == "name") {
            column.name = ScalarText(field.second);
          } else if (key == "dtype") {
            column.dtype = ToLower(ScalarText(field.second));
          } else if (key == "size") {
            column.size = static_cast<uint64_t>(ParseInteger(field.second, 1));
          } else if (key == "read") {
            column.read = ParseBool(field.second);
          } else {
            throw std::invalid_argument("unknown field (known: name, dtype, size, read)");
          }
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument(fmt::format("{} '{}': {}", where, key, e.what()));
        }
      }
    } else {
      throw std::invalid_argument(where + " is a list");
    }
    if (column.name.empty()) throw std::invalid_argument(where + " has no name");
    for (const auto& other : columns)
      if (other.name == column.name)
        throw std::invalid_argument(fmt::format("{}: name '{}' appears twice", where, column.name));
    columns.push_back(std::move(column));
  }
  return columns;
}

KeySpec ParquetColumnsKey() {
  return {"dataset.parquet.columns",
          "a list of {name, dtype, size, read} (dtype: float32, float64, int32, uint8, ...; size: "
          "elements per row; read: true or false)",
          true,
          false,
          [](WorkloadConfig& c, const YAML::Node& n) {
            c.dataset.parquet.columns = ParseParquetColumns(n);
          },
          [](const WorkloadConfig& c) {
            YAML::Node list(YAML::NodeType::Sequence);
            for (const auto& column : c.dataset.parquet.columns) {
              YAML::Node item;
              item["name"] = column.name;
              item["dtype"] = column.dtype;
              item["size"] = column.size;
              item["read"] = column.read;
              list.push_back(item);
            }
            return list;
          }};
}

const std::vector<std::pair<std::string, Shuffle>> kShuffleNames = {{"off", Shuffle::kOff},
                                                                    {"seed", Shuffle::kSeed},
                                                                    {"random", Shuffle::kRandom},
                                                                    {"false", Shuffle::kOff},
                                                                    {"true", Shuffle::kSeed}};

std::vector<KeySpec> BuildSchema() {
  std::vector<KeySpec> keys;
  // model
  keys.push_back(StringKey(
      "model.name", [](auto& c) -> auto& { return c.model.name; }));
  keys.push_back(StringKey(
      "model.type", [](auto& c) -> auto& { return c.model.type; }));
  keys.push_back(UnsignedKey(
      "model.model_size_bytes", [](auto& c) -> auto& { return c.model.model_size_bytes; }));
  keys.push_back(UnsignedKey(
      "model.num_layers", [](auto& c) -> auto& { return c.model.num_layers; }));
  keys.push_back(LowerStringKey(
      "model.model_datatype", [](auto& c) -> auto& { return c.model.model_datatype; },
      "fp16, bf16, fp32, fp64, int8 or uint8"));
  keys.push_back(LowerStringKey(
      "model.optimizer_datatype", [](auto& c) -> auto& { return c.model.optimizer_datatype; },
      "fp16, bf16, fp32, fp64, int8 or uint8"));
  keys.push_back(UnsignedKey(
      "model.parallelism.tensor", [](auto& c) -> auto& { return c.model.parallelism.tensor; }, 1));
  keys.push_back(UnsignedKey(
      "model.parallelism.pipeline", [](auto& c) -> auto& { return c.model.parallelism.pipeline; },
      1));
  keys.push_back(UnsignedKey(
      "model.parallelism.data", [](auto& c) -> auto& { return c.model.parallelism.data; }));
  keys.push_back(UnsignedKey(
      "model.parallelism.zero_stage",
      [](auto& c) -> auto& { return c.model.parallelism.zero_stage; }));
  keys.push_back(UnsignedKey(
      "model.transformer.vocab_size",
      [](auto& c) -> auto& { return c.model.transformer.vocab_size; }));
  keys.push_back(UnsignedKey(
      "model.transformer.hidden_size",
      [](auto& c) -> auto& { return c.model.transformer.hidden_size; }));
  keys.push_back(UnsignedKey(
      "model.transformer.ffn_hidden_size",
      [](auto& c) -> auto& { return c.model.transformer.ffn_hidden_size; }));
  keys.push_back(UnsignedKey(
      "model.transformer.num_attention_heads",
      [](auto& c) -> auto& { return c.model.transformer.num_attention_heads; }));
  keys.push_back(UnsignedKey(
      "model.transformer.num_kv_heads",
      [](auto& c) -> auto& { return c.model.transformer.num_kv_heads; }));
  for (const char* k : {"model.optimization_groups", "model.layer_parameters"})
    keys.push_back(Ignored(k));
  keys.push_back(StringKey(
      "framework", [](auto& c) -> auto& { return c.framework; }));
  // workflow
  keys.push_back(BoolKey(
      "workflow.generate_data", [](auto& c) -> auto& { return c.workflow.generate_data; }));
  keys.push_back(BoolKey(
      "workflow.train", [](auto& c) -> auto& { return c.workflow.train; }));
  keys.push_back(BoolKey(
      "workflow.evaluation", [](auto& c) -> auto& { return c.workflow.evaluation; }));
  keys.push_back(BoolKey(
      "workflow.checkpoint", [](auto& c) -> auto& { return c.workflow.checkpoint; }));
  keys.push_back(Ignored("workflow.profiling"));
  keys.push_back(Ignored("workflow.debug"));
  // dataset
  // A sample of at most 1 TiB: beyond, sizes wrapped where formats store them (1e30 became
  // 49-byte samples) and no storage holds a file of them.
  keys.push_back(NumberKey(
      "dataset.record_length_bytes", [](auto& c) -> auto& { return c.dataset.record_length_bytes; },
      1, kMaxRecordBytes));
  keys.push_back(NumberKey(
      "dataset.record_length_bytes_stdev",
      [](auto& c) -> auto& { return c.dataset.record_length_bytes_stdev; }, 0, kMaxRecordBytes));
  keys.push_back(UnsignedKey(
      "dataset.record_length_bytes_resize",
      [](auto& c) -> auto& { return c.dataset.record_length_bytes_resize; }));
  keys.push_back(UnsignedKey(
      "dataset.num_files_train", [](auto& c) -> auto& { return c.dataset.num_files_train; }));
  keys.push_back(UnsignedKey(
      "dataset.num_files_eval", [](auto& c) -> auto& { return c.dataset.num_files_eval; }));
  keys.push_back(UnsignedKey(
      "dataset.num_samples_per_file",
      [](auto& c) -> auto& { return c.dataset.num_samples_per_file; }, 1));
  keys.push_back(UnsignedKey(
      "dataset.num_subfolders_train",
      [](auto& c) -> auto& { return c.dataset.num_subfolders_train; }));
  keys.push_back(UnsignedKey(
      "dataset.num_subfolders_eval",
      [](auto& c) -> auto& { return c.dataset.num_subfolders_eval; }));
  keys.push_back(StringKey(
      "dataset.data_folder", [](auto& c) -> auto& { return c.dataset.data_folder; }));
  keys.push_back(StringKey(
      "dataset.file_prefix", [](auto& c) -> auto& { return c.dataset.file_prefix; }));
  // A format's name; which names exist is formats/' registry's to say (the commands check
  // it when they load a workload). Lower case, as the names were matched before.
  keys.push_back(LowerStringKey(
      "dataset.format", [](auto& c) -> auto& { return c.dataset.format; },
      "a format name (`trainbench workloads` lists them)"));
  keys.push_back(EnumKey<Compression>("dataset.compression",
                                      [](auto& c) -> auto& { return c.dataset.compression; },
                                      {{"none", Compression::kNone},
                                       {"gzip", Compression::kGzip},
                                       {"lzf", Compression::kLzf},
                                       {"bz2", Compression::kBz2},
                                       {"zip", Compression::kZip},
                                       {"xz", Compression::kXz},
                                       {"snappy", Compression::kSnappy},
                                       {"lz4", Compression::kLz4},
                                       {"zstd", Compression::kZstd}}));
  keys.push_back(SignedKey(
      "dataset.compression_level", [](auto& c) -> auto& { return c.dataset.compression_level; },
      0));
  keys.push_back(UnsignedKey(
      "dataset.chunk_size", [](auto& c) -> auto& { return c.dataset.chunk_size; }));
  keys.push_back(BoolKey(
      "dataset.enable_chunking", [](auto& c) -> auto& { return c.dataset.enable_chunking; }));
  keys.push_back(Ignored("dataset.keep_files"));
  // dataset.parquet: DLIO's Parquet block (the parquet format's check says what it accepts).
  keys.push_back(UnsignedKey(
      "dataset.parquet.row_group_size",
      [](auto& c) -> auto& { return c.dataset.parquet.row_group_size; }));
  keys.push_back({"dataset.parquet.read_mode", "one of default, row_group", true, false,
                  [](WorkloadConfig& c, const YAML::Node& n) {
                    c.dataset.parquet.read_mode = ParseEnum<std::string>(
                        n, {{"default", "default"}, {"row_group", "row_group"}});
                  },
                  [](const WorkloadConfig& c) { return Node(c.dataset.parquet.read_mode); }});
  keys.push_back(ParquetColumnsKey());
  // reader
  keys.push_back(StringKey(
      "reader.data_loader", [](auto& c) -> auto& { return c.reader.data_loader; }));
  keys.push_back(UnsignedKey(
      "reader.batch_size", [](auto& c) -> auto& { return c.reader.batch_size; }, 1));
  keys.push_back(UnsignedKey(
      "reader.batch_size_eval", [](auto& c) -> auto& { return c.reader.batch_size_eval; }, 1));
  keys.push_back(UnsignedKey(
      "reader.read_threads", [](auto& c) -> auto& { return c.reader.read_threads; }, 1));
  keys.push_back(UnsignedKey(
      "reader.computation_threads", [](auto& c) -> auto& { return c.reader.computation_threads; },
      1));
  keys.push_back(UnsignedKey(
      "reader.prefetch_size", [](auto& c) -> auto& { return c.reader.prefetch_size; }));
  keys.push_back(EnumKey<Shuffle>(
      "reader.file_shuffle", [](auto& c) -> auto& { return c.reader.file_shuffle; },
      kShuffleNames));
  keys.push_back(EnumKey<Shuffle>(
      "reader.sample_shuffle", [](auto& c) -> auto& { return c.reader.sample_shuffle; },
      kShuffleNames));
  keys.push_back(UnsignedKey(
      "reader.shuffle_size", [](auto& c) -> auto& { return c.reader.shuffle_size; }, 1));
  keys.push_back(UnsignedKey(
      "reader.transfer_size", [](auto& c) -> auto& { return c.reader.transfer_size; }, 1));
  keys.push_back(
      EnumKey<ReadType>("reader.read_type", [](auto& c) -> auto& { return c.reader.read_type; },
                        {{"on_demand", ReadType::kOnDemand}, {"memory", ReadType::kMemory}}));
  keys.push_back(EnumKey<FileAccess>(
      "reader.file_access", [](auto& c) -> auto& { return c.reader.file_access; },
      {{"multi", FileAccess::kMulti}, {"shared", FileAccess::kShared}}));
  keys.push_back(BoolKey(
      "reader.odirect", [](auto& c) -> auto& { return c.reader.odirect; }));
  keys.push_back(BoolKey(
      "reader.dont_use_mmap", [](auto& c) -> auto& { return c.reader.dont_use_mmap; }));
  keys.push_back(TimeKey(
      "reader.preprocess_time", [](auto& c) -> auto& { return c.reader.preprocess_time; }));
  keys.push_back(NumberKey(
      "reader.preprocess_time_stdev",
      [](auto& c) -> auto& { return c.reader.preprocess_time_stdev; }, 0));
  // train
  keys.push_back(UnsignedKey(
      "train.epochs", [](auto& c) -> auto& { return c.train.epochs; }, 1));
  keys.push_back(TimeKey(
      "train.computation_time", [](auto& c) -> auto& { return c.train.computation_time; }));
  keys.push_back(SignedKey(
      "train.total_training_steps", [](auto& c) -> auto& { return c.train.total_training_steps; },
      -1));
  keys.push_back(UnsignedKey(
      "train.seed", [](auto& c) -> auto& { return c.train.seed; }));
  keys.push_back(BoolKey(
      "train.seed_change_epoch", [](auto& c) -> auto& { return c.train.seed_change_epoch; }));
  // evaluation
  keys.push_back(TimeKey(
      "evaluation.eval_time", [](auto& c) -> auto& { return c.evaluation.eval_time; }));
  keys.push_back(UnsignedKey(
      "evaluation.eval_after_epoch",
      [](auto& c) -> auto& { return c.evaluation.eval_after_epoch; }));
  keys.push_back(UnsignedKey(
      "evaluation.epochs_between_evals",
      [](auto& c) -> auto& { return c.evaluation.epochs_between_evals; }, 1));
  // checkpoint
  keys.push_back(StringKey(
      "checkpoint.checkpoint_folder",
      [](auto& c) -> auto& { return c.checkpoint.checkpoint_folder; }));
  keys.push_back(UnsignedKey(
      "checkpoint.checkpoint_after_epoch",
      [](auto& c) -> auto& { return c.checkpoint.checkpoint_after_epoch; }));
  keys.push_back(UnsignedKey(
      "checkpoint.epochs_between_checkpoints",
      [](auto& c) -> auto& { return c.checkpoint.epochs_between_checkpoints; }, 1));
  keys.push_back(SignedKey(
      "checkpoint.steps_between_checkpoints",
      [](auto& c) -> auto& { return c.checkpoint.steps_between_checkpoints; }, -1));
  keys.push_back(BoolKey(
      "checkpoint.fsync", [](auto& c) -> auto& { return c.checkpoint.fsync; }));
  keys.push_back(SignedKey(
      "checkpoint.num_checkpoints_write",
      [](auto& c) -> auto& { return c.checkpoint.num_checkpoints_write; }, -1));
  keys.push_back(SignedKey(
      "checkpoint.num_checkpoints_read",
      [](auto& c) -> auto& { return c.checkpoint.num_checkpoints_read; }, -1));
  keys.push_back(UnsignedKey(
      "checkpoint.read_shard_offset",
      [](auto& c) -> auto& { return c.checkpoint.read_shard_offset; }));
  keys.push_back(Ignored("checkpoint.time_between_checkpoints"));
  keys.push_back(EnumKey<CheckpointType>(
      "checkpoint.type", [](auto& c) -> auto& { return c.checkpoint.type; },
      {{"rank_zero", CheckpointType::kRankZero}, {"all_ranks", CheckpointType::kAllRanks}}));
  keys.push_back(EnumKey<CheckpointMode>(
      "checkpoint.mode", [](auto& c) -> auto& { return c.checkpoint.mode; },
      {{"default", CheckpointMode::kDefault}, {"subset", CheckpointMode::kSubset}}));
  // metric, output, storage
  keys.push_back(NumberKey(
      "metric.au", [](auto& c) -> auto& { return c.metric.au; }, 0, 1));
  keys.push_back(UnsignedKey(
      "metric.exclude_start_steps", [](auto& c) -> auto& { return c.metric.exclude_start_steps; }));
  keys.push_back(StringKey(
      "output.folder", [](auto& c) -> auto& { return c.output.folder; }));
  keys.push_back(StringKey(
      "output.log_file", [](auto& c) -> auto& { return c.output.log_file; }));
  keys.push_back(EnumKey<StorageType>(
      "storage.storage_type", [](auto& c) -> auto& { return c.storage.storage_type; },
      {{"local_fs", StorageType::kLocalFs}, {"s3", StorageType::kS3}}));
  keys.push_back(StringKey(
      "storage.storage_root", [](auto& c) -> auto& { return c.storage.storage_root; }));
  KeySpec options{
      "storage.storage_options",
      "a map of option: value",
      true,
      true,
      [](WorkloadConfig& c, const YAML::Node& n) {
        if (!n.IsMap())
          throw std::invalid_argument("got a " + std::string(n.IsSequence() ? "list" : "scalar"));
        // Its names are the storage backend's: checked as the workload loads (OptionNameCheck).
        for (const auto& e : n) c.storage.storage_options[e.first.Scalar()] = ScalarText(e.second);
      },
      [](const WorkloadConfig& c) {
        YAML::Node n(YAML::NodeType::Map);
        // Secrets are never written back (config.yaml in results, `trainbench config`).
        for (const auto& [k, v] : c.storage.storage_options)
          n[k] = IsSecretName(k) ? std::string(kRedacted) : v;
        return n;
      }};
  keys.push_back(std::move(options));
  // Read into the config (and printed) but not acted on: DLIO's framework knobs that change
  // nothing in emulated reads.
  for (auto& key : keys)
    if (key.path == "model.type" || key.path == "reader.data_loader" ||
        key.path == "dataset.record_length_bytes_resize" ||
        key.path == "reader.computation_threads" || key.path == "reader.dont_use_mmap")
      key.acted_on = false;
  keys.push_back(Ignored("profiling.profiler"));
  keys.push_back(Ignored("profiling.iostat_devices"));
  return keys;
}

}  // namespace

const std::vector<KeySpec>& Schema() {
  static const std::vector<KeySpec> kSchema = BuildSchema();
  return kSchema;
}

const KeySpec* FindKey(const std::string& path) {
  for (const auto& key : Schema())
    if (key.path == path) return &key;
  return nullptr;
}

std::string CanonicalKey(const std::string& path) {
  static const std::map<std::string, std::string> kAliases = {
      {"model.model_size", "model.model_size_bytes"},
      {"checkpoint.model_size", "model.model_size_bytes"},
      {"dataset.record_length", "dataset.record_length_bytes"},
      {"dataset.record_length_stdev", "dataset.record_length_bytes_stdev"},
      {"dataset.record_length_resize", "dataset.record_length_bytes_resize"},
      {"profiling.profiling", "workflow.profiling"},
  };
  const auto it = kAliases.find(path);
  return it == kAliases.end() ? path : it->second;
}

std::string ScalarText(const YAML::Node& node) {
  if (!node.IsScalar())
    throw std::invalid_argument("expected a single value, not a " +
                                std::string(node.IsMap() ? "map" : "list"));
  return node.Scalar();
}

}  // namespace trainbench::config

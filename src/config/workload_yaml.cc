#include "config/workload_yaml.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "common/error.h"
#include "common/secrets.h"
#include "common/strings.h"
#include "config/builtin_workloads.h"
#include "config/override.h"
#include "config/schema.h"

namespace trainbench::config {
namespace {

using Where = std::function<std::string(const YAML::Node&)>;

bool IsSection(const std::string& path) {
  for (const auto& key : Schema())
    if (StartsWith(key.path, path + ".")) return true;
  return false;
}

std::vector<std::string> AllPaths() {
  std::vector<std::string> paths;
  for (const auto& key : Schema()) paths.push_back(key.path);
  return paths;
}

// Every key and every group of keys (dataset, reader.*), for the nearest to a typo.
std::vector<std::string> AllPathsAndGroups() {
  std::vector<std::string> names = AllPaths();
  for (const auto& path : AllPaths())
    for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1))
      names.push_back(path.substr(0, dot));
  return names;
}

[[noreturn]] void UnknownKey(const std::string& path, const std::string& where) {
  std::string message = fmt::format("{}: unknown key '{}'", where, path);
  const std::string nearest = NearestMatch(path, AllPathsAndGroups());
  if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
  message += "; `trainbench config --keys` lists every key";
  throw UsageError(message);
}

// A free-form map's names (storage.storage_options') through `check`, as parse's errors.
void CheckMapNames(const KeySpec& spec, const YAML::Node& map, const OptionNameCheck& check) {
  if (!spec.any_map || !check) return;
  for (const auto& entry : map)
    if (const std::string wrong = check(entry.first.Scalar()); !wrong.empty())
      throw std::invalid_argument(wrong);
}

void Walk(const YAML::Node& map, const std::string& prefix, const Where& where,
          const OptionNameCheck& check, WorkloadConfig& config, std::vector<std::string>& ignored,
          std::vector<std::string>& defaulted) {
  // YAML forbids a key twice in one map; yaml-cpp keeps both and the last would win silently.
  std::map<std::string, YAML::Mark> seen;
  for (const auto& entry : map) {
    const std::string name = entry.first.Scalar();
    const auto [first, fresh] = seen.emplace(name, entry.first.Mark());
    if (!fresh)
      throw UsageError(
          fmt::format("{}: key '{}' appears twice in one map (lines {} and {}): keep one of them",
                      where(entry.first), prefix.empty() ? name : prefix + "." + name,
                      first->second.line + 1, entry.first.Mark().line + 1));
    const YAML::Node& value = entry.second;
    const std::string path = CanonicalKey(prefix.empty() ? name : prefix + "." + name);
    if (const KeySpec* spec = FindKey(path)) {
      if (!spec->acted_on)
        ignored.push_back(fmt::format("{} (line {})", path, entry.first.Mark().line + 1));
      if (value.IsNull()) {  // "key:" with no value keeps the default, and says so
        if (spec->acted_on)
          defaulted.push_back(fmt::format("{} (line {})", path, entry.first.Mark().line + 1));
        continue;
      }
      try {
        spec->parse(config, value);
        CheckMapNames(*spec, value, check);
      } catch (const std::invalid_argument& e) {
        throw UsageError(
            fmt::format("{}: {}: expected {}; {}", where(value), path, spec->expected, e.what()));
      }
      continue;
    }
    if (path == "model" && value.IsScalar()) {  // older DLIO form: "model: unet3d"
      config.model.name = value.Scalar();
      continue;
    }
    if (IsSection(path)) {
      if (value.IsNull()) continue;
      if (!value.IsMap())
        throw UsageError(fmt::format("{}: '{}' is a group of keys; expected a map under it",
                                     where(value), path));
      Walk(value, path, where, check, config, ignored, defaulted);
      continue;
    }
    // A subkey of a free-form map (storage.storage_options.endpoint_url) set on its own.
    const size_t dot = path.rfind('.');
    if (dot != std::string::npos) {
      const KeySpec* parent = FindKey(path.substr(0, dot));
      if (parent && parent->any_map) {
        YAML::Node wrapped;
        wrapped[path.substr(dot + 1)] = value;
        try {
          parent->parse(config, wrapped);
          CheckMapNames(*parent, wrapped, check);
        } catch (const std::invalid_argument& e) {
          throw UsageError(
              fmt::format("{}: {}: expected a scalar; {}", where(value), path, e.what()));
        }
        continue;
      }
    }
    UnknownKey(path, where(entry.first));
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("cannot read workload file '{}'", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One warning per source naming every DLIO key it sets that trainbench does not act on.
// A key with no value (YAML null) keeps its default: said, so a value lost in editing is seen.
void WarnDefaulted(const std::string& source, const std::vector<std::string>& defaulted,
                   std::vector<std::string>& warnings) {
  if (defaulted.empty()) return;
  std::string keys;
  for (const auto& k : defaulted) keys += (keys.empty() ? "" : ", ") + k;
  warnings.push_back(fmt::format(
      "{}: no value for {}: the default is used (give a value, or remove the key)", source, keys));
}

void WarnIgnored(const std::string& source, const std::vector<std::string>& ignored,
                 std::vector<std::string>& warnings) {
  if (ignored.empty()) return;
  std::string keys;
  for (const auto& k : ignored) keys += (keys.empty() ? "" : ", ") + k;
  warnings.push_back(
      fmt::format("{}: DLIO keys trainbench accepts but does not act on: {}", source, keys));
}

void Validate(const WorkloadConfig& c) {
  if (c.dataset.record_length_bytes_stdev > 0 && c.dataset.record_length_bytes < 1)
    throw UsageError("dataset.record_length_bytes must be >= 1");
  if (c.reader.preprocess_time_stdev > 0 &&
      c.reader.preprocess_time.kind != TimeDistribution::Kind::kConstant)
    throw UsageError(
        "reader.preprocess_time_stdev goes with a constant reader.preprocess_time (DLIO's "
        "pair); reader.preprocess_time is already a distribution: give its spread there, e.g. "
        "reader.preprocess_time={mean: 0.004, stdev: 0.001}");
  // DLIO's rule: a subset is of a job whose size these keys cannot tell without it.
  if (c.checkpoint.mode == CheckpointMode::kSubset && c.model.parallelism.data == 0)
    throw UsageError(
        "checkpoint.mode=subset writes these ranks' shards of a larger job: set "
        "model.parallelism.data to that job's data parallelism (MLPerf Storage's subset, "
        "llama3_8b on 8 processes: model.parallelism.data=8)");
}

// yaml-cpp reads a tab in indentation as "illegal map value" and the like: name the tab.
std::string TabHint(const std::string& text, int line) {
  size_t start = 0;
  for (int i = 0; i < line && start != std::string::npos; ++i) {
    start = text.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (start == std::string::npos) return "";
  const std::string this_line = text.substr(start, text.find('\n', start) - start);
  if (this_line.find('\t') == std::string::npos) return "";
  return fmt::format(" (line {} has a tab: YAML indents with spaces, never tabs)", line + 1);
}

}  // namespace

namespace {

// A file `trainbench config` wrote ("# trainbench resolved workload 'W' (from built-in B)")
// holds the DLIO keys trainbench does not act on with its built-in's values: those are
// trainbench's own, not a user's setting to warn about. A value changed from the built-in's
// still warns.
void DropBuiltinsOwn(const std::string& yaml_text, const YAML::Node& root,
                     std::vector<std::string>& ignored) {
  static const std::regex kHeader(
      R"(^# trainbench resolved workload '[^']*' \(from built-in (\S+)\))");
  std::smatch m;
  const std::string first = yaml_text.substr(0, yaml_text.find('\n'));
  if (ignored.empty() || !std::regex_search(first, m, kHeader)) return;
  WorkloadConfig builtin;
  try {
    builtin = LoadWorkload(m[1].str(), {}).config;
  } catch (const UsageError&) {
    return;  // a built-in of another version: warn as for any file
  }
  std::erase_if(ignored, [&](const std::string& entry) {
    const std::string path = entry.substr(0, entry.find(" (line"));
    const KeySpec* spec = FindKey(path);
    if (!spec || !spec->emit) return false;
    // Copies of handles, never assignments: Node's operator= writes through the handle.
    std::vector<YAML::Node> chain{root};
    for (const auto& part : Split(path, '.')) {
      const YAML::Node& at = chain.back();
      if (!at.IsMap() || !at[part]) return false;
      chain.push_back(at[part]);
    }
    return YAML::Dump(chain.back()) == YAML::Dump(spec->emit(builtin));
  });
}

}  // namespace

void ApplyYaml(const std::string& yaml_text, const std::string& source, WorkloadConfig& config,
               std::vector<std::string>& warnings, const OptionNameCheck& check) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw UsageError(fmt::format("{}:{}: invalid YAML: {}{}", source, e.mark.line + 1, e.msg,
                                 TabHint(yaml_text, e.mark.line)));
  }
  if (root.IsNull())
    throw UsageError(fmt::format(
        "{}: empty (no keys): a workload file sets at least dataset and reader keys; start from "
        "a built-in's: trainbench config resnet50_h100 > mine.yaml",
        source));
  if (!root.IsMap())
    throw UsageError(fmt::format("{}: expected a map of DLIO key groups at the top", source));
  const Where where = [&source](const YAML::Node& node) {
    return fmt::format("{}:{}", source, node.Mark().line + 1);
  };
  std::vector<std::string> ignored, defaulted;
  Walk(root, "", where, check, config, ignored, defaulted);
  DropBuiltinsOwn(yaml_text, root, ignored);
  WarnIgnored(source, ignored, warnings);
  WarnDefaulted(source, defaulted, warnings);
}

void ApplyOverride(const std::string& override_text, WorkloadConfig& config,
                   std::vector<std::string>& warnings, const OptionNameCheck& check) {
  Override o = ParseOverride(override_text, "example: dataset.num_files_train=16");
  if (StartsWith(o.key, "workload.")) o.key = o.key.substr(9);  // Hydra's ++workload.KEY
  if (o.value.IsNull())
    throw UsageError(fmt::format("override '{}' has no value (example: {}=16)", o.shown, o.key));
  // Set into an empty tree and walked like file content.
  YAML::Node root(YAML::NodeType::Map);
  SetOverride(root, o);
  const std::string shown = o.shown;
  const Where where = [&shown](const YAML::Node&) {
    return fmt::format("command-line override '{}'", shown);
  };
  std::vector<std::string> ignored, defaulted;
  Walk(root, "", where, check, config, ignored, defaulted);
  for (auto* names : {&ignored, &defaulted})
    for (auto& name : *names) name = name.substr(0, name.find(" (line"));  // no lines here
  WarnIgnored(fmt::format("command-line override '{}'", shown), ignored, warnings);
  WarnDefaulted(fmt::format("command-line override '{}'", shown), defaulted, warnings);
}

LoadedWorkload LoadWorkload(const std::string& workload, const std::vector<std::string>& overrides,
                            const OptionNameCheck& check) {
  LoadedWorkload loaded;
  WorkloadConfig& config = loaded.config;
  const BuiltinWorkload* builtin = nullptr;
  for (const auto& b : BuiltinWorkloads())
    if (b.name == workload) builtin = &b;
  if (builtin != nullptr) {
    config.workload_name = builtin->name;
    config.source = "built-in " + builtin->name;
    // Built-ins keep DLIO's keys as the MLPerf configs have them; a warning about those would
    // ask users to fix what is not theirs. Their own file and overrides still warn.
    std::vector<std::string> builtin_notes;
    ApplyYaml(builtin->yaml, "workloads/" + builtin->name + ".yaml", config, builtin_notes, check);
  } else if (std::filesystem::is_regular_file(workload)) {
    config.workload_name = std::filesystem::path(workload).stem().string();
    config.source = workload;
    ApplyYaml(ReadFile(workload), workload, config, loaded.warnings, check);
  } else {
    std::vector<std::string> names;
    for (const auto& b : BuiltinWorkloads()) names.push_back(b.name);
    std::string message =
        fmt::format("unknown workload '{}': not a built-in and not a file", workload);
    const std::string nearest = NearestMatch(workload, names);
    if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
    message += "; `trainbench workloads` lists the built-ins";
    throw UsageError(message);
  }
  for (const auto& o : overrides) ApplyOverride(o, config, loaded.warnings, check);
  Validate(config);
  return loaded;
}

std::string ToYaml(const WorkloadConfig& config) {
  // A map from the start: a default-constructed Node has no storage until first written,
  // and the handles below must share the root's.
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& key : Schema()) {
    if (!key.emit) continue;
    // Nested to any depth (dataset.parquet.columns is three deep). Node's operator= assigns
    // the value rather than rebinding the handle, so descend through a chain of handles.
    const auto parts = Split(key.path, '.');
    std::vector<YAML::Node> chain{root};
    for (size_t i = 0; i + 1 < parts.size(); ++i) chain.push_back(chain.back()[parts[i]]);
    chain.back()[parts.back()] = key.emit(config);
  }
  YAML::Emitter out;
  out << root;
  return fmt::format("# trainbench resolved workload '{}' (from {})\n{}\n", config.workload_name,
                     config.source, out.c_str());
}

namespace {

// A YAML scalar as JSON: YAML's scalars are untyped text, so a number or a boolean is
// recognised by its spelling, as a YAML 1.2 core-schema reader does.
nlohmann::json ScalarJson(const std::string& text) {
  if (text == "true" || text == "false") return text == "true";
  if (text == "~" || text == "null") return nullptr;
  size_t used = 0;
  try {
    const long long i = std::stoll(text, &used);
    if (used == text.size()) return i;
    const double d = std::stod(text, &used);
    if (used == text.size()) return d;
  } catch (const std::exception&) {
  }
  return text;
}

nlohmann::json NodeJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& kv : node) out[kv.first.as<std::string>()] = NodeJson(kv.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& item : node) out.push_back(NodeJson(item));
      return out;
    }
    case YAML::NodeType::Scalar:
      return ScalarJson(node.Scalar());
    default:
      return nullptr;
  }
}

}  // namespace

nlohmann::json ToJson(const WorkloadConfig& config) {
  // From the YAML that config.yaml holds: one rendering of the resolved config (secrets
  // masked there) in both files.
  return YamlTextToJson(ToYaml(config));
}

nlohmann::json YamlTextToJson(const std::string& yaml_text) {
  return NodeJson(YAML::Load(yaml_text));
}

}  // namespace trainbench::config

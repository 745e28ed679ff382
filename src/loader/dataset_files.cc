#include "loader/dataset_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "common/error.h"
#include "common/log.h"
#include "dataset/manifest.h"
#include "dataset/plan.h"

namespace trainbench::loader {
namespace {

using dataset::Split;

std::string Extension(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext.empty() ? "" : ext.substr(1);
}

// Settings a run depends on; the manifest's differing from the config is an error.
void CheckGenerationKey(const nlohmann::json& manifest_key, const nlohmann::json& config_key,
                        const std::string& where, const std::string& datagen) {
  std::vector<std::string> differences;
  for (const auto& [key, value] : config_key.items()) {
    if (key == "seed") continue;  // other bytes, same shape: a run measures the same thing
    if (!manifest_key.contains(key)) continue;
    const auto& m = manifest_key.at(key);
    const bool same =
        (m.is_number() && value.is_number()) ? m.get<double>() == value.get<double>() : m == value;
    if (!same)
      differences.push_back(fmt::format("{}: dataset {}, config {}", key, m.dump(), value.dump()));
  }
  if (differences.empty()) return;
  std::string list;
  for (const auto& d : differences) list += "\n  " + d;
  throw RuntimeError(
      fmt::format("the dataset at {} does not match the config (dataset.* keys):{}\n"
                  "write a matching dataset in its place with `{} --replace`, or set the keys to "
                  "the dataset's values",
                  where, list, datagen));
}

formats::WrittenFile ScanFile(const config::WorkloadConfig& config, storage::Storage& storage,
                              const formats::FileFormat& format, const std::string& path,
                              uint64_t size) {
  auto f = format.Scan(path, storage);
  f.size_bytes = size;
  if (format.description().traits.whole_file_samples) {
    // An image file holds num_samples_per_file samples to DLIO (each decodes the image).
    f.num_samples = std::max<uint64_t>(1, config.dataset.num_samples_per_file);
    f.samples.assign(f.num_samples, {0, size});
  }
  return f;
}

std::vector<formats::WrittenFile> ListSplit(const config::WorkloadConfig& config,
                                            storage::Storage& storage, Split split, uint64_t wanted,
                                            const std::string& datagen) {
  const std::string folder = split == Split::kTrain ? "train" : "valid";
  const std::string key = split == Split::kTrain ? "num_files_train" : "num_files_eval";
  const auto format = formats::MakeFormat(config);
  const auto& readable = format->description().extensions;
  const std::string ext(readable.front());
  std::vector<storage::ListEntry> matching;
  std::map<std::string, uint64_t> other_extensions;
  for (auto& e : storage.List(folder)) {
    const std::string name = std::filesystem::path(e.path).filename().string();
    if (name.empty() || name.front() == '.') continue;  // temporaries, journals
    const std::string file_ext = Extension(e.path);
    if (std::find(readable.begin(), readable.end(), file_ext) != readable.end())
      matching.push_back(std::move(e));
    else
      ++other_extensions[file_ext];
  }
  if (matching.empty() && split == Split::kTrain && other_extensions.empty())
    throw RuntimeError(
        fmt::format("no dataset at {} (no {} and no {}/ files): generate it with\n  {}",
                    storage.Describe(""), dataset::kManifestName, folder, datagen));
  if (matching.size() < wanted) {
    std::string others;
    for (const auto& [e, n] : other_extensions) others += fmt::format(" {} .{} files;", n, e);
    throw RuntimeError(fmt::format(
        "the dataset at {} has {} .{} files in {}/ but the config asks for {} (dataset.{}, "
        "format {});{} write a matching dataset with\n  {}",
        storage.Describe(""), matching.size(), ext, folder, wanted, key, config.dataset.format,
        others.empty() ? "" : " found" + others, datagen));
  }
  // As DLIO: the first num_files_* files in the order of their names (across subfolders).
  std::stable_sort(matching.begin(), matching.end(), [](const auto& a, const auto& b) {
    return std::filesystem::path(a.path).filename() < std::filesystem::path(b.path).filename();
  });
  matching.resize(wanted);
  std::vector<formats::WrittenFile> files;
  for (const auto& e : matching)
    files.push_back(ScanFile(config, storage, *format, e.path, e.size_bytes));
  return files;
}

std::vector<formats::WrittenFile> FromManifest(const dataset::Manifest& manifest,
                                               const dataset::DatasetPlan& plan, Split split,
                                               storage::Storage& storage,
                                               const std::string& datagen) {
  const std::string folder = split == Split::kTrain ? "train/" : "valid/";
  const std::string key = split == Split::kTrain ? "num_files_train" : "num_files_eval";
  std::map<std::string, const formats::WrittenFile*> by_path;
  std::vector<const formats::WrittenFile*> in_split;
  for (const auto& f : manifest.files) {
    by_path[f.path] = &f;
    if (f.path.rfind(folder, 0) == 0) in_split.push_back(&f);
  }
  uint64_t wanted = 0;
  for (const auto& p : plan.files) wanted += p.split == split ? 1 : 0;
  if (in_split.size() < wanted)
    throw RuntimeError(fmt::format(
        "the dataset at {} has {} {} files but the config asks for {} (dataset.{}={}); write "
        "a matching dataset with\n  {}",
        storage.Describe(""), in_split.size(), folder.substr(0, folder.size() - 1), wanted, key,
        wanted, datagen));
  std::vector<formats::WrittenFile> files;
  std::string first_missing;
  for (const auto& p : plan.files) {
    if (p.split != split) continue;
    auto it = by_path.find(p.path);
    if (it == by_path.end()) {
      first_missing = p.path;
      break;
    }
    files.push_back(*it->second);
  }
  if (!first_missing.empty()) {
    // More files than asked for (DLIO names carry the count), or names of an older
    // trainbench (".h5", ".jpg"): take the first ones, as DLIO does with a folder holding
    // more files than num_files_*.
    if (in_split.size() > wanted)
      LogWarning(fmt::format("the dataset at {} has {} {} files; using the first {} (dataset.{})",
                             storage.Describe(""), in_split.size(),
                             folder.substr(0, folder.size() - 1), wanted, key));
    files.clear();
    for (uint64_t i = 0; i < wanted; ++i) files.push_back(*in_split[i]);
  }
  // One listing of the split's folder gives every size (one request a page on S3, not a
  // HEAD per file); a file it lacks is asked for on its own before it is called missing.
  std::map<std::string, uint64_t> listed;
  for (const auto& e : storage.List(folder.substr(0, folder.size() - 1)))
    listed[e.path] = e.size_bytes;
  for (const auto& f : files) {
    const auto it = listed.find(f.path);
    const auto size =
        it != listed.end() ? std::optional<uint64_t>(it->second) : storage.FileSize(f.path);
    if (!size)
      throw RuntimeError(fmt::format("dataset file {} is in the manifest but missing; re-run\n  {}",
                                     storage.Describe(f.path), datagen));
    if (*size != f.size_bytes)
      throw RuntimeError(fmt::format(
          "dataset file {} is {} bytes but the manifest says {}: it changed after datagen; "
          "re-run\n  {}",
          storage.Describe(f.path), *size, f.size_bytes, datagen));
  }
  return files;
}

uint64_t Sum(const std::vector<formats::WrittenFile>& files) {
  uint64_t total = 0;
  for (const auto& f : files) total += f.size_bytes;
  return total;
}

}  // namespace

uint64_t DatasetFiles::TrainBytes() const { return Sum(train); }
uint64_t DatasetFiles::TotalBytes() const { return Sum(train) + Sum(eval); }

DatasetFiles ResolveDataset(const config::WorkloadConfig& config, storage::Storage& storage,
                            const std::string& datagen) {
  DatasetFiles files;
  const bool want_eval = config.workflow.evaluation && config.dataset.num_files_eval > 0;
  if (auto manifest = dataset::ReadManifest(storage)) {
    CheckGenerationKey(manifest->key, dataset::GenerationKey(config), storage.Describe(""),
                       datagen);
    const auto plan = dataset::PlanDataset(config);
    files.train = FromManifest(*manifest, plan, Split::kTrain, storage, datagen);
    if (want_eval) files.eval = FromManifest(*manifest, plan, Split::kEval, storage, datagen);
    files.from_manifest = true;
    const auto format = formats::MakeFormat(config);
    const auto& traits = format->description().traits;
    // Where samples lie comes from the file itself when the manifest has none (a format
    // whose library reads the samples: chunked or compressed HDF5), or not the read units
    // a run reads (Parquet row groups, which older manifests lack).
    for (auto* split : {&files.train, &files.eval})
      for (auto& f : *split)
        if ((traits.scan_finds_extents && f.samples.empty()) ||
            (traits.reads_units && f.units.empty()))
          f = ScanFile(config, storage, *format, f.path, f.size_bytes);
  } else {
    files.train =
        ListSplit(config, storage, Split::kTrain, config.dataset.num_files_train, datagen);
    if (want_eval)
      files.eval = ListSplit(config, storage, Split::kEval, config.dataset.num_files_eval, datagen);
  }
  const auto reader = formats::MakeFormat(config);
  for (auto* split : {&files.train, &files.eval})
    for (auto& f : *split) reader->SelectReads(f);  // Parquet: the columns marked read
  for (const auto* split : {&files.train, &files.eval})
    for (const auto& f : *split)
      if (f.num_samples == 0)
        throw RuntimeError(
            fmt::format("dataset file {} holds no samples", storage.Describe(f.path)));
  return files;
}

formats::SampleExtent ExtentOf(const formats::WrittenFile& file, uint64_t index) {
  if (index < file.samples.size()) return file.samples[index];
  const uint64_t n = std::max<uint64_t>(1, file.num_samples);
  const uint64_t begin = file.size_bytes * index / n, end = file.size_bytes * (index + 1) / n;
  return {begin, end - begin};
}

}  // namespace trainbench::loader

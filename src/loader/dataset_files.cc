#include "loader/dataset_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string_view>
#include <unordered_map>

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

// The manifest's files by path, as views of its paths: one index for both splits, no copy.
using PathIndex = std::unordered_map<std::string_view, size_t>;

// Which of the manifest's files a split reads, as indices into manifest.files in the plan's
// order. Throws naming the command that writes a matching dataset.
std::vector<size_t> SelectFromManifest(const dataset::Manifest& manifest, const PathIndex& by_path,
                                       const config::WorkloadConfig& config, Split split,
                                       storage::Storage& storage, const std::string& datagen) {
  const std::string folder = split == Split::kTrain ? "train/" : "valid/";
  const std::string key = split == Split::kTrain ? "num_files_train" : "num_files_eval";
  std::vector<size_t> in_split;
  for (size_t i = 0; i < manifest.files.size(); ++i)
    if (manifest.files[i].path.starts_with(folder)) in_split.push_back(i);
  const uint64_t wanted = dataset::PlannedCount(config, split);
  if (in_split.size() < wanted)
    throw RuntimeError(fmt::format(
        "the dataset at {} has {} {} files but the config asks for {} (dataset.{}={}); write "
        "a matching dataset with\n  {}",
        storage.Describe(""), in_split.size(), folder.substr(0, folder.size() - 1), wanted, key,
        wanted, datagen));
  std::vector<size_t> chosen;
  chosen.reserve(wanted);
  for (uint64_t i = 0; i < wanted; ++i) {
    const auto it = by_path.find(dataset::PlannedPath(config, split, i));
    if (it == by_path.end()) {
      // More files than asked for (DLIO names carry the count), or names of an older
      // trainbench (".h5", ".jpg"): take the first ones, as DLIO does with a folder holding
      // more files than num_files_*.
      if (in_split.size() > wanted)
        LogWarning(fmt::format("the dataset at {} has {} {} files; using the first {} (dataset.{})",
                               storage.Describe(""), in_split.size(),
                               folder.substr(0, folder.size() - 1), wanted, key));
      in_split.resize(wanted);
      return in_split;
    }
    chosen.push_back(it->second);
  }
  return chosen;
}

// The chosen files, moved out of the manifest's list (each index is chosen once).
std::vector<formats::WrittenFile> TakeFiles(std::vector<formats::WrittenFile>& all,
                                            const std::vector<size_t>& chosen) {
  std::vector<formats::WrittenFile> files;
  files.reserve(chosen.size());
  for (const size_t i : chosen) files.push_back(std::move(all[i]));
  return files;
}

// One listing of the split's folder gives every size (one request a page on S3, not a
// HEAD per file); a file it lacks is asked for on its own before it is called missing.
void CheckSizes(const std::vector<formats::WrittenFile>& files, Split split,
                storage::Storage& storage, const std::string& datagen) {
  if (files.empty()) return;
  const auto entries = storage.List(split == Split::kTrain ? "train" : "valid");
  std::unordered_map<std::string_view, uint64_t> listed;
  listed.reserve(entries.size());
  for (const auto& e : entries) listed.emplace(e.path, e.size_bytes);
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
}

uint64_t Sum(std::span<const formats::WrittenFile> files) {
  uint64_t total = 0;
  for (const auto& f : files) total += f.size_bytes;
  return total;
}

}  // namespace

uint64_t DatasetFiles::TrainBytes() const { return Sum(train()); }
uint64_t DatasetFiles::TotalBytes() const { return Sum(files); }

DatasetFiles ResolveDataset(const config::WorkloadConfig& config, storage::Storage& storage,
                            const std::string& datagen) {
  std::vector<formats::WrittenFile> train_files, eval_files;
  bool from_manifest = false;
  const bool want_eval = config.workflow.evaluation && config.dataset.num_files_eval > 0;
  if (auto manifest = dataset::ReadManifest(storage)) {
    CheckGenerationKey(manifest->key, dataset::GenerationKey(config), storage.Describe(""),
                       datagen);
    std::vector<size_t> train, eval;
    {
      PathIndex by_path;
      by_path.reserve(manifest->files.size());
      for (size_t i = 0; i < manifest->files.size(); ++i)
        by_path.emplace(manifest->files[i].path, i);
      train = SelectFromManifest(*manifest, by_path, config, Split::kTrain, storage, datagen);
      if (want_eval)
        eval = SelectFromManifest(*manifest, by_path, config, Split::kEval, storage, datagen);
    }  // the index goes before the files are moved (the index views their paths)
    train_files = TakeFiles(manifest->files, train);
    eval_files = TakeFiles(manifest->files, eval);
    manifest.reset();
    CheckSizes(train_files, Split::kTrain, storage, datagen);
    CheckSizes(eval_files, Split::kEval, storage, datagen);
    from_manifest = true;
    const auto format = formats::MakeFormat(config);
    const auto& traits = format->description().traits;
    // Where samples lie comes from the file itself when the manifest has none (a format
    // whose library reads the samples: chunked or compressed HDF5), or not the read units
    // a run reads (Parquet row groups, which older manifests lack).
    for (auto* split : {&train_files, &eval_files})
      for (auto& f : *split)
        if ((traits.scan_finds_extents && f.samples.empty()) ||
            (traits.reads_units && f.units.empty()))
          f = ScanFile(config, storage, *format, f.path, f.size_bytes);
  } else {
    train_files =
        ListSplit(config, storage, Split::kTrain, config.dataset.num_files_train, datagen);
    if (want_eval)
      eval_files = ListSplit(config, storage, Split::kEval, config.dataset.num_files_eval, datagen);
  }
  DatasetFiles files;
  files.from_manifest = from_manifest;
  files.num_train = train_files.size();
  files.files = std::move(train_files);
  files.files.reserve(files.files.size() + eval_files.size());
  for (auto& f : eval_files) files.files.push_back(std::move(f));
  const auto reader = formats::MakeFormat(config);
  for (auto& f : files.files) reader->SelectReads(f);  // Parquet: the columns marked read
  for (const auto& f : files.files)
    if (f.num_samples == 0)
      throw RuntimeError(fmt::format("dataset file {} holds no samples", storage.Describe(f.path)));
  return files;
}

formats::SampleExtent ExtentOf(const formats::WrittenFile& file, uint64_t index) {
  if (index < file.samples.size()) return file.samples[index];
  const uint64_t n = std::max<uint64_t>(1, file.num_samples);
  const uint64_t begin = file.size_bytes * index / n, end = file.size_bytes * (index + 1) / n;
  return {begin, end - begin};
}

}  // namespace trainbench::loader

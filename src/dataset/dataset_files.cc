#include "dataset/dataset_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "common/error.h"
#include "common/log.h"
#include "dataset/manifest.h"
#include "dataset/plan.h"

namespace trainbench::dataset {
namespace {

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

// Which of the manifest's files a split reads, as positions in `all` in the plan's order:
// the planned names when the manifest has them all (found in order without an index when
// the manifest lists them so, as datagen writes it), else the split's first files as DLIO
// takes them. Throws naming the command that writes a matching dataset.
std::vector<uint32_t> SelectFromManifest(const FileTable& all,
                                         std::unique_ptr<FileNameIndex>& by_name,
                                         const config::WorkloadConfig& config, Split split,
                                         storage::Storage& storage, const std::string& datagen) {
  const std::string folder = split == Split::kTrain ? "train/" : "valid/";
  const std::string key = split == Split::kTrain ? "num_files_train" : "num_files_eval";
  std::vector<uint32_t> in_split;  // positions: 4 bytes a file, where a run counts each
  for (size_t i = 0; i < all.size(); ++i)
    if (all.Path(i).starts_with(folder)) in_split.push_back(static_cast<uint32_t>(i));
  const uint64_t wanted = dataset::PlannedCount(config, split);
  if (in_split.size() < wanted)
    throw RuntimeError(fmt::format(
        "the dataset at {} has {} {} files but the config asks for {} (dataset.{}={}); write "
        "a matching dataset with\n  {}",
        storage.Describe(""), in_split.size(), folder.substr(0, folder.size() - 1), wanted, key,
        wanted, datagen));
  std::vector<uint32_t> chosen;
  chosen.reserve(wanted);
  for (uint64_t i = 0; i < wanted; ++i) {
    const std::string planned = dataset::PlannedPath(config, split, i);
    size_t at = all.Path(in_split[i]) == planned ? in_split[i] : FileNameIndex::kNone;
    if (at == FileNameIndex::kNone) {
      if (!by_name) by_name = std::make_unique<FileNameIndex>(all);
      at = by_name->Find(planned);
    }
    if (at == FileNameIndex::kNone) {
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
    chosen.push_back(static_cast<uint32_t>(at));
  }
  return chosen;
}

// One listing of each split's folder gives every size (one request a page on S3, not a
// HEAD per file), streamed where the storage can; a file it lacks is asked for on its own
// before it is called missing.
void CheckSizes(const FileTable& files, storage::Storage& storage, const std::string& datagen) {
  if (files.empty()) return;
  const FileNameIndex by_name(files);
  std::vector<bool> listed(files.size());
  auto check = [&](size_t i, uint64_t size) {
    if (size != files.SizeBytes(i))
      throw RuntimeError(fmt::format(
          "dataset file {} is {} bytes but the manifest says {}: it changed after datagen; "
          "re-run\n  {}",
          storage.Describe(std::string(files.Path(i))), size, files.SizeBytes(i), datagen));
    listed[i] = true;
  };
  for (const std::string_view folder : {"train", "valid"}) {
    // A split the run reads none of is not listed (a dataset's unused valid/ costs nothing).
    bool used = false;
    for (size_t i = 0; i < files.size() && !used; ++i)
      used = files.Path(i).starts_with(folder) && files.Path(i).size() > folder.size() &&
             files.Path(i)[folder.size()] == '/';
    if (!used) continue;
    storage.ListEach(std::string(folder), [&](const storage::ListEntry& e) {
      if (const size_t i = by_name.Find(e.path); i != FileNameIndex::kNone) check(i, e.size_bytes);
    });
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (listed[i]) continue;
    const std::string path(files.Path(i));
    const auto size = storage.FileSize(path);
    if (!size)
      throw RuntimeError(fmt::format("dataset file {} is in the manifest but missing; re-run\n  {}",
                                     storage.Describe(path), datagen));
    check(i, *size);
  }
}

// The files the manifest lists, in its order, each ready for the run (the fields it reads
// selected) unless it must be rescanned (the manifest lacks what the run needs): those are
// named in `rescan`, as they are, and mended once chosen. nullopt where there is no manifest.
std::optional<FileTable> ReadManifestTable(const config::WorkloadConfig& config,
                                           storage::Storage& storage,
                                           const formats::FileFormat& format,
                                           const std::string& datagen,
                                           std::vector<size_t>& rescan) {
  FileTable all;
  uint64_t expected = 0;
  const auto& traits = format.description().traits;
  const auto head = dataset::ReadManifestFiles(
      storage,
      [&](const dataset::ManifestHead& manifest_head) {
        // A dataset of other settings is refused before any file is looked at.
        CheckGenerationKey(manifest_head.key, dataset::GenerationKey(config), storage.Describe(""),
                           datagen);
        expected = manifest_head.num_files;
        all.Reserve(expected, 0);
      },
      [&](formats::WrittenFile&& f) {
        // The names of one dataset are about as long as each other: one allocation for all.
        if (all.empty()) all.Reserve(0, expected * (f.path.size() + 2));
        // Where samples lie comes from the file itself when the manifest has none (a format
        // whose library reads the samples: chunked or compressed HDF5), or not the read
        // units a run reads (Parquet row groups, which older manifests lack).
        if ((traits.scan_finds_extents && f.samples.empty()) ||
            (traits.reads_units && f.units.empty()))
          rescan.push_back(all.size());
        else
          format.SelectReads(f);
        all.Add(std::move(f));
      });
  if (!head) return std::nullopt;
  return all;
}

}  // namespace

DatasetFiles ResolveDataset(const config::WorkloadConfig& config, storage::Storage& storage,
                            const std::string& datagen) {
  DatasetFiles dataset;
  const bool want_eval = config.workflow.evaluation && config.dataset.num_files_eval > 0;
  const auto format = formats::MakeFormat(config);
  std::vector<size_t> rescan;
  if (auto manifest = ReadManifestTable(config, storage, *format, datagen, rescan)) {
    FileTable& all = *manifest;
    std::vector<uint32_t> train, eval;
    {
      std::unique_ptr<FileNameIndex> by_name;  // made only if a planned name is out of place
      train = SelectFromManifest(all, by_name, config, Split::kTrain, storage, datagen);
      if (want_eval)
        eval = SelectFromManifest(all, by_name, config, Split::kEval, storage, datagen);
    }
    dataset.num_train = train.size();
    // As datagen writes it, the chosen files are the manifest's first ones in order: the
    // table is the run's as it is. Otherwise the chosen ones are copied into a new one.
    bool in_place = rescan.empty();
    for (size_t i = 0; in_place && i < train.size(); ++i) in_place = train[i] == i;
    for (size_t i = 0; in_place && i < eval.size(); ++i) in_place = eval[i] == train.size() + i;
    if (in_place) {
      all.Truncate(train.size() + eval.size());
      dataset.files = std::move(all);
    } else {
      std::vector<bool> to_rescan(all.size());
      for (const size_t i : rescan) to_rescan[i] = true;
      for (const auto* split : {&train, &eval})
        for (const size_t i : *split) {
          formats::WrittenFile f = all.File(i);
          if (to_rescan[i]) {
            f = ScanFile(config, storage, *format, f.path, f.size_bytes);
            format->SelectReads(f);
          }
          dataset.files.Add(std::move(f));
        }
    }
    CheckSizes(dataset.files, storage, datagen);
    dataset.from_manifest = true;
  } else {
    for (const Split split : {Split::kTrain, Split::kEval}) {
      if (split == Split::kEval && !want_eval) break;
      auto scanned =
          ListSplit(config, storage, split, dataset::PlannedCount(config, split), datagen);
      if (split == Split::kTrain) dataset.num_train = scanned.size();
      for (auto& f : scanned) {
        format->SelectReads(f);  // Parquet: the columns marked read
        dataset.files.Add(std::move(f));
      }
    }
  }
  for (size_t i = 0; i < dataset.files.size(); ++i)
    if (dataset.files.NumSamples(i) == 0)
      throw RuntimeError(fmt::format("dataset file {} holds no samples",
                                     storage.Describe(std::string(dataset.files.Path(i)))));
  return dataset;
}

}  // namespace trainbench::dataset

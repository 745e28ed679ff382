#include "image/image_folder.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/error.h"
#include "common/strings.h"
#include "image/tar_index.h"
#include "storage/op_log_storage.h"

namespace trainbench::image {

namespace {

bool IsTar(const std::string& name) {
  const std::string lower = ToLower(name);
  return lower.size() > 4 && lower.compare(lower.size() - 4, 4, ".tar") == 0;
}

std::string Stem(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = name.find_last_of('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// The last folder of a '/'-separated path, or "" when it has none.
std::string ParentName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  const size_t before = path.find_last_of('/', slash - 1);
  return path.substr(before == std::string::npos ? 0 : before + 1,
                     before == std::string::npos ? slash : slash - before - 1);
}

struct Labelled {
  ImageSample sample;
  std::string class_name;
};

// Members of one tar object; `named_by_user` says whether a member with no folder of its own
// is unlabelled (the user's tar) or belongs to the class the tar's stem names.
void AddTar(storage::Storage& storage, const std::string& path, bool named_by_user,
            std::vector<Labelled>& out) {
  auto file = storage.Open(path);
  const auto members = ListTar(*file, 0, file->Size(), storage.Describe(path));
  for (const auto& m : members) {
    if (!HasImageExtension(m.name)) continue;
    std::string class_name = ParentName(m.name);
    if (class_name.empty() && !m.enclosing_tar.empty()) class_name = Stem(m.enclosing_tar);
    if (class_name.empty() && !named_by_user) class_name = Stem(path);
    out.push_back({{path, m.name, m.offset, m.size, 0}, class_name});
  }
}

}  // namespace

bool HasImageExtension(const std::string& name) {
  const std::string lower = ToLower(name);
  auto ends = [&](const char* suffix) {
    const size_t n = std::char_traits<char>::length(suffix);
    return lower.size() > n && lower.compare(lower.size() - n, n, suffix) == 0;
  };
  return ends(".jpg") || ends(".jpeg") || ends(".png");
}

ImageLocation ResolveImageLocation(const std::string& location) {
  std::string path = StartsWith(location, "file://") ? location.substr(7) : location;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (!IsTar(path)) return {path, "", false};
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path, true};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1), true};
}

ImageIndex IndexImages(const std::string& location) {
  const ImageLocation where = ResolveImageLocation(location);
  auto storage = storage::OpenStorage(where.storage_uri);
  std::vector<Labelled> found;
  ImageIndex index;
  std::string searched;
  if (where.is_tar) {
    searched = storage->Describe(where.prefix);
    if (!storage->FileSize(where.prefix))
      throw UsageError(fmt::format("--data {}: no such tar file", location));
    AddTar(*storage, where.prefix, true, found);
  } else {
    // ImageNet and trainbench datasets keep the training images under train/.
    std::string prefix = "train";
    auto entries = storage->List(prefix);
    if (entries.empty()) {
      prefix.clear();
      entries = storage->List(prefix);
    }
    searched = storage->Describe(prefix);
    const size_t skip = prefix.empty() ? 0 : prefix.size() + 1;
    for (const auto& e : entries) {
      const std::string relative = e.path.substr(skip);
      if (IsTar(relative)) {
        AddTar(*storage, e.path, false, found);
      } else if (HasImageExtension(relative)) {
        const size_t slash = relative.find('/');
        found.push_back({{e.path, "", 0, e.size_bytes, 0},
                         slash == std::string::npos ? "" : relative.substr(0, slash)});
      }
    }
  }
  if (found.empty())
    throw UsageError(
        fmt::format("--data {}: no .jpg/.jpeg/.png files found in {} (expected class folders of "
                    "images, a tar of "
                    "them, or a trainbench jpeg dataset)",
                    location, searched));
  std::map<std::string, int32_t> labels;
  for (const auto& f : found) labels.emplace(f.class_name, 0);
  for (auto& [name, label] : labels) {
    label = static_cast<int32_t>(index.classes.size());
    index.classes.push_back(name);
  }
  index.samples.reserve(found.size());
  for (auto& f : found) {
    f.sample.label = labels[f.class_name];
    index.samples.push_back(std::move(f.sample));
  }
  std::stable_sort(index.samples.begin(), index.samples.end(),
                   [](const auto& a, const auto& b) { return a.label < b.label; });
  index.root = location;
  return index;
}

std::string DescribeSample(const ImageIndex& index, const ImageSample& sample) {
  const std::string base = ResolveImageLocation(index.root).storage_uri;
  const std::string path = base == "/" ? "/" + sample.path : base + "/" + sample.path;
  return sample.member.empty() ? path : path + ":" + sample.member;
}

SampleReader::SampleReader(const ImageIndex& index, std::shared_ptr<metrics::OpLog> op_log)
    : base_(storage::OpenStorage(ResolveImageLocation(index.root).storage_uri)),
      storage_(base_.get()) {
  if (op_log) {
    logged_ = std::make_unique<storage::OpLogStorage>(*base_, std::move(op_log));
    storage_ = logged_.get();
  }
}

SampleReader::~SampleReader() = default;

void SampleReader::Read(const ImageSample& sample, std::vector<uint8_t>& bytes) const {
  auto file = storage_->Open(sample.path);
  bytes.resize(sample.size);
  const size_t n = file->ReadAt(sample.offset, bytes.data(), bytes.size());
  if (n != sample.size)
    throw RuntimeError(fmt::format("{}: read {} of {} bytes at offset {}",
                                   storage_->Describe(sample.path), n, sample.size, sample.offset));
}

}  // namespace trainbench::image

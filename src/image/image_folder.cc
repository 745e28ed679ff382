#include "image/image_folder.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "common/error.h"
#include "common/secrets.h"
#include "common/strings.h"
#include "image/tar_index.h"
#include "storage/op_log_storage.h"
#include "storage/read_engines.h"

namespace trainbench::image {

namespace {

bool IsHttp(const std::string& location) {
  const std::string lower = ToLower(location);
  return StartsWith(lower, "http://") || StartsWith(lower, "https://");
}

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
  const size_t read_size = storage.LocalPath(path) ? kTarReadBytes : kRemoteTarReadBytes;
  const auto members = ListTar(*file, 0, file->Size(), storage.Describe(path), read_size);
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
  if (const size_t scheme = path.find("://"); scheme != std::string::npos) {
    // s3://bucket/key.tar, https://host/path/x.tar: the folder above is the storage;
    // s3://name.tar is a bucket, http://name.tar a host.
    const size_t root = path.find('/', scheme + 3);
    if (root == std::string::npos) return {path, "", false};
    return {path.substr(0, slash), path.substr(slash + 1), true};
  }
  if (slash == std::string::npos) return {".", path, true};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1), true};
}

void ProbeImageLocation(const std::string& location, const StorageOptions& storage_options) {
  const ImageLocation where = ResolveImageLocation(location);
  auto storage = storage::OpenStorage(where.storage_uri, storage_options);
  if (where.is_tar && storage->FileSize(where.prefix)) return;
  if (where.is_tar && IsHttp(location))  // a web server has no listing to say more
    throw UsageError(
        fmt::format("--data {}: no such tar file (HTTP 404)", RedactUrlPasswords(location)));
  // One page of the listing says whether the keys and the bucket work (a HEAD's 404 does not
  // tell a missing bucket from a missing key); its first entry stops the walk.
  struct Found {};
  bool found = false;
  try {
    storage->ListEach("", [](const storage::ListEntry&) { throw Found{}; });
  } catch (const Found&) {
    found = true;
  }
  if (where.is_tar)
    throw UsageError(fmt::format("--data {}: no such tar file ({})", RedactUrlPasswords(location),
                                 storage->Describe(where.prefix)));
  if (!found)
    throw UsageError(fmt::format(
        "--data {}: {} holds nothing (expected class folders of images, a tar of them, or a "
        "trainbench jpeg dataset)",
        RedactUrlPasswords(location), storage->Describe("")));
}

ImageIndex IndexImages(const std::string& location, const StorageOptions& storage_options) {
  const ImageLocation where = ResolveImageLocation(location);
  auto storage = storage::OpenStorage(where.storage_uri, storage_options);
  std::vector<Labelled> found;
  ImageIndex index;
  std::string searched;
  if (where.is_tar) {
    searched = storage->Describe(where.prefix);
    if (!storage->FileSize(where.prefix))
      throw UsageError(fmt::format("--data {}: no such tar file", RedactUrlPasswords(location)));
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
                    RedactUrlPasswords(location), searched));
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
  const std::string path =
      RedactUrlPasswords(base == "/" ? "/" + sample.path : base + "/" + sample.path);
  return sample.member.empty() ? path : path + ":" + sample.member;
}

SampleReader::SampleReader(const ImageIndex& index, const SampleReaderOptions& options)
    : index_(index),
      base_(storage::OpenStorage(ResolveImageLocation(index.root).storage_uri,
                                 options.storage_options)) {
  storage::Storage* storage = base_.get();
  if (options.op_log) {
    // The engine's reads are logged by the wrapper OpLogStorage puts around it: once each.
    logged_ = std::make_unique<storage::OpLogStorage>(*base_, options.op_log);
    storage = logged_.get();
  }
  // An object per file, one for a tar however many samples it holds.
  std::vector<std::string> names;
  std::unordered_map<std::string, uint32_t> objects;
  object_.reserve(index.samples.size());
  for (const auto& s : index.samples) {
    const auto [it, added] = objects.emplace(s.path, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(s.path);
    object_.push_back(it->second);
  }
  engine_ = storage::OpenReadEngine(*storage, storage::ShareNames(names), {});
  // Remote storage (S3, a web server) waits per read; a file system does not.
  const bool remote = !base_->LocalPath("").has_value();
  depth_ = options.depth > 0 ? options.depth : remote ? kRemoteReadsInFlight : 1;
  if (options.max_depth > 0) depth_ = std::min(depth_, options.max_depth);
  io_ = options.io;
}

SampleReader::~SampleReader() = default;

std::string SampleReader::Describe() const {
  return fmt::format("{}, {} in flight", engine_->Describe(), depth_);
}

void SampleReader::Read(size_t sample, std::vector<uint8_t>& bytes) const {
  SampleReads reads(*this);
  const size_t samples[] = {sample};
  reads.ReadEach(samples, [&bytes](size_t, std::vector<uint8_t>& read) { bytes.swap(read); });
}

SampleReads::SampleReads(const SampleReader& reader)
    : reader_(reader),
      io_(reader.io_ ? &reader.io_->NewSlot() : nullptr),
      queue_(reader.engine_->NewQueue(reader.depth_)) {
  buffers_.resize(queue_->Depth());
}

SampleReads::~SampleReads() = default;

void SampleReads::ReadEach(std::span<const size_t> samples,
                           const std::function<void(size_t i, std::vector<uint8_t>& bytes)>& done) {
  const ImageIndex& index = reader_.index_;
  const uint32_t depth = static_cast<uint32_t>(buffers_.size());
  std::vector<uint32_t> free_slots;
  for (uint32_t slot = depth; slot-- > 0;) free_slots.push_back(slot);
  std::vector<size_t> item_of_slot(depth);
  std::vector<storage::ReadCompletion> completions(depth);
  size_t next = 0, in_flight = 0;
  while (next < samples.size() || in_flight > 0) {
    while (next < samples.size() && !free_slots.empty()) {
      const size_t item = next++;
      const size_t k = samples[item];
      const ImageSample& sample = index.samples[k];
      if (sample.size == 0) {  // nothing to ask for (an empty range is no valid GET)
        std::vector<uint8_t> empty;
        done(item, empty);
        continue;
      }
      const uint32_t slot = free_slots.back();
      free_slots.pop_back();
      std::vector<uint8_t>& buffer = buffers_[slot];
      buffer.resize(sample.size);
      storage::ReadRequest r;
      r.object = reader_.object_[k];
      r.offset = sample.offset;
      r.length = sample.size;
      r.buffer = buffer.data();
      r.tag = slot;
      item_of_slot[slot] = item;
      queue_->Submit(r);
      ++in_flight;
    }
    if (in_flight == 0) continue;
    // The engine's own stall timeouts and retries bound a read; this only paces the loop.
    const size_t n = queue_->Reap(completions, 1, 1.0);
    for (size_t c = 0; c < n; ++c) {
      const storage::ReadCompletion& read = completions[c];
      const uint32_t slot = static_cast<uint32_t>(read.tag);
      const size_t item = item_of_slot[slot];
      const ImageSample& sample = index.samples[samples[item]];
      --in_flight;
      if (!read.error.empty())
        throw RuntimeError(fmt::format("{}: {}", DescribeSample(index, sample), read.error));
      if (read.bytes != sample.size)
        throw RuntimeError(fmt::format("{}: read {} of {} bytes at offset {}",
                                       DescribeSample(index, sample), read.bytes, sample.size,
                                       sample.offset));
      if (io_) io_->Record(read.bytes, read.latency_ns);
      done(item, buffers_[slot]);
      free_slots.push_back(slot);
    }
  }
}

}  // namespace trainbench::image

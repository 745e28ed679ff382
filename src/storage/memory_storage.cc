#include "storage/memory_storage.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "common/clock.h"
#include "common/strings.h"
#include "storage/io_error.h"

namespace trainbench::storage {
namespace {

class MemoryWriter : public AtomicWriter {
 public:
  MemoryWriter(MemoryStorage& storage, std::string path)
      : storage_(storage), path_(std::move(path)) {}
  void Append(const void* data, size_t size) override {
    const auto* p = static_cast<const unsigned char*>(data);
    data_->insert(data_->end(), p, p + size);
  }
  void Sync() override {}
  void Commit() override { storage_.Publish(path_, std::move(data_)); }
  uint64_t BytesWritten() const override { return data_ ? data_->size() : 0; }

 private:
  MemoryStorage& storage_;
  std::string path_;
  std::shared_ptr<MemoryStorage::Bytes> data_ = std::make_shared<MemoryStorage::Bytes>();
};

class MemoryFile : public RandomAccessFile {
 public:
  explicit MemoryFile(std::shared_ptr<const MemoryStorage::Bytes> data) : data_(std::move(data)) {}
  size_t ReadAt(uint64_t offset, void* buffer, size_t size) override {
    if (offset >= data_->size()) return 0;
    const size_t n = std::min<uint64_t>(size, data_->size() - offset);
    std::memcpy(buffer, data_->data() + offset, n);
    return n;
  }
  uint64_t Size() override { return data_->size(); }

 private:
  std::shared_ptr<const MemoryStorage::Bytes> data_;  // readers keep what they opened
};

}  // namespace

std::unique_ptr<AtomicWriter> MemoryStorage::Create(const std::string& path) {
  return std::make_unique<MemoryWriter>(*this, path);
}

void MemoryStorage::Publish(const std::string& path, std::shared_ptr<const Bytes> data) {
  std::lock_guard<std::mutex> lock(mutex_);
  objects_[path] = std::move(data);
}

std::unique_ptr<RandomAccessFile> MemoryStorage::Open(const std::string& path, const OpenOptions&) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = objects_.find(path);
  if (it == objects_.end()) ThrowIoError("cannot open", Describe(path), ENOENT);
  return std::make_unique<MemoryFile>(it->second);
}

std::optional<uint64_t> MemoryStorage::FileSize(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = objects_.find(path);
  if (it == objects_.end()) return std::nullopt;
  return it->second->size();
}

void MemoryStorage::Remove(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  objects_.erase(path);
}

std::vector<ListEntry> MemoryStorage::List(const std::string& prefix) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ListEntry> entries;
  for (const auto& [path, data] : objects_)
    if (prefix.empty() || StartsWith(path, prefix + "/")) entries.push_back({path, data->size()});
  return entries;
}

size_t MemoryStorage::RemoveLeftovers(const std::string&) {
  return 0;
}  // nothing is ever partial here

std::string MemoryStorage::Describe(const std::string& path) const { return "mem:/" + path; }

std::optional<std::string> MemoryStorage::LocalPath(const std::string&) const {
  return std::nullopt;
}

namespace {

class MemoryReadQueue : public ReadQueue {
 public:
  MemoryReadQueue(const std::vector<std::shared_ptr<const MemoryStorage::Bytes>>& objects,
                  const std::vector<std::string>& names, unsigned depth)
      : objects_(objects), names_(names), depth_(depth) {}
  void Submit(const ReadRequest& request) override {
    pending_.push_back({request, NowNanoseconds()});
  }
  size_t Reap(std::span<ReadCompletion> out, size_t, double) override {
    size_t n = 0;
    while (n < out.size() && !pending_.empty()) {
      const auto [r, t0] = pending_.back();
      pending_.pop_back();
      ReadCompletion& c = out[n++];
      c = ReadCompletion{};
      c.tag = r.tag;
      c.offset = r.offset;
      const auto& data = objects_[r.object];
      if (!data) {
        c.error = fmt::format("cannot open '{}': no such object", names_[r.object]);
      } else if (r.offset < data->size()) {
        c.bytes = std::min<uint64_t>(r.length, data->size() - r.offset);
        if (r.buffer) std::memcpy(r.buffer, data->data() + r.offset, c.bytes);
      }
      c.latency_ns = NowNanoseconds() - t0;
    }
    return n;
  }
  unsigned Depth() const override { return depth_; }

 private:
  const std::vector<std::shared_ptr<const MemoryStorage::Bytes>>& objects_;
  const std::vector<std::string>& names_;
  unsigned depth_;
  std::vector<std::pair<ReadRequest, uint64_t>> pending_;
};

class MemoryReadEngine : public ReadEngine {
 public:
  MemoryReadEngine(std::vector<std::shared_ptr<const MemoryStorage::Bytes>> objects,
                   std::vector<std::string> names)
      : objects_(std::move(objects)), names_(std::move(names)) {
    capabilities_.useful_depth = 16;
  }
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    return std::make_unique<MemoryReadQueue>(objects_, names_, std::max(1u, depth));
  }
  const ReadEngineCapabilities& Capabilities() const override { return capabilities_; }
  std::string Describe() const override { return "memory"; }
  uint64_t Opens() const override { return 0; }
  std::string DescribeObject(uint32_t object) const override { return names_[object]; }

 private:
  std::vector<std::shared_ptr<const MemoryStorage::Bytes>> objects_;
  std::vector<std::string> names_;
  ReadEngineCapabilities capabilities_;
};

}  // namespace

std::unique_ptr<ReadEngine> MemoryStorage::OpenReadEngine(SharedObjectNames objects,
                                                          const ReadEngineOptions& options) {
  if (options.engine != "memory") return Storage::OpenReadEngine(std::move(objects), options);
  std::vector<std::shared_ptr<const Bytes>> data;
  std::vector<std::string> names;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < objects->size(); ++i) {
      const auto it = objects_.find(std::string((*objects)[i]));
      data.push_back(it == objects_.end() ? nullptr : it->second);
    }
  }
  for (size_t i = 0; i < objects->size(); ++i)
    names.push_back(Describe(std::string((*objects)[i])));
  return std::make_unique<MemoryReadEngine>(std::move(data), std::move(names));
}

}  // namespace trainbench::storage

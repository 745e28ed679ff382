#include "storage/memory_storage.h"

#include <cerrno>
#include <cstring>

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

}  // namespace trainbench::storage

#include "storage/fault_injecting_storage.h"

#include "storage/io_error.h"

namespace trainbench::storage {
namespace {

class FaultyWriter : public AtomicWriter {
 public:
  FaultyWriter(FaultInjectingStorage& storage, std::string path, std::unique_ptr<AtomicWriter> base)
      : storage_(storage), path_(std::move(path)), base_(std::move(base)) {}
  void Append(const void* data, size_t size) override {
    storage_.Charge(path_, size);
    base_->Append(data, size);
  }
  void Sync() override { base_->Sync(); }
  void Commit() override { base_->Commit(); }
  uint64_t BytesWritten() const override { return base_->BytesWritten(); }

 private:
  FaultInjectingStorage& storage_;
  std::string path_;
  std::unique_ptr<AtomicWriter> base_;
};

}  // namespace

std::unique_ptr<AtomicWriter> FaultInjectingStorage::Create(const std::string& path) {
  return std::make_unique<FaultyWriter>(*this, path, base_.Create(path));
}

std::unique_ptr<RandomAccessFile> FaultInjectingStorage::Open(const std::string& path,
                                                              const OpenOptions& options) {
  if (fail_open_.count(path)) ThrowIoError("cannot open", Describe(path), open_errno_);
  return base_.Open(path, options);
}

void FaultInjectingStorage::Charge(const std::string& path, size_t size) {
  if (write_budget_.fetch_sub(static_cast<int64_t>(size)) < static_cast<int64_t>(size))
    ThrowIoError("write failed for", Describe(path), write_errno_);
}

}  // namespace trainbench::storage

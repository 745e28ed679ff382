#include "storage/counting_storage.h"

namespace trainbench::storage {
namespace {

class CountingWriter : public AtomicWriter {
 public:
  CountingWriter(std::atomic<uint64_t>& counter, std::unique_ptr<AtomicWriter> base)
      : counter_(counter), base_(std::move(base)) {}
  void Append(const void* data, size_t size) override {
    base_->Append(data, size);
    counter_.fetch_add(size, std::memory_order_relaxed);
  }
  void Sync() override { base_->Sync(); }
  void Commit() override { base_->Commit(); }
  uint64_t BytesWritten() const override { return base_->BytesWritten(); }

 private:
  std::atomic<uint64_t>& counter_;
  std::unique_ptr<AtomicWriter> base_;
};

}  // namespace

std::unique_ptr<AtomicWriter> CountingStorage::Create(const std::string& path) {
  return std::make_unique<CountingWriter>(appended_, base_.Create(path));
}

}  // namespace trainbench::storage

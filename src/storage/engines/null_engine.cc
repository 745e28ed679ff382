#include "storage/engines/null_engine.h"

#include <vector>

#include "storage/sync_read_queue.h"

namespace trainbench::storage {
namespace {

class NullQueue : public SyncReadQueue {
 public:
  explicit NullQueue(unsigned depth) : SyncReadQueue(depth) {}
  void Submit(const ReadRequest& request) override { Finished(request).bytes = request.length; }
};

class NullEngine : public ReadEngine {
 public:
  NullEngine(SharedObjectNames names, const Storage& storage)
      : names_(std::move(names)), storage_(storage) {
    capabilities_.useful_depth = 64;
  }
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    return std::make_unique<NullQueue>(std::max(1u, depth));
  }
  const ReadEngineCapabilities& Capabilities() const override { return capabilities_; }
  std::string Describe() const override { return "null (no storage is read)"; }
  uint64_t Opens() const override { return 0; }
  std::string DescribeObject(uint32_t object) const override {
    return object < names_->size() ? storage_.Describe(std::string((*names_)[object])) : "";
  }

 private:
  SharedObjectNames names_;
  const Storage& storage_;
  ReadEngineCapabilities capabilities_;
};

}  // namespace

std::unique_ptr<ReadEngine> MakeNullEngine(SharedObjectNames names, const Storage& storage) {
  return std::make_unique<NullEngine>(std::move(names), storage);
}

}  // namespace trainbench::storage

#include "storage/null_engine.h"

#include <vector>

namespace trainbench::storage {
namespace {

class NullQueue : public ReadQueue {
 public:
  explicit NullQueue(unsigned depth) : depth_(depth) { done_.reserve(depth); }
  void Submit(const ReadRequest& request) override {
    ReadCompletion& c = done_.emplace_back();
    c.tag = request.tag;
    c.offset = request.offset;
    c.bytes = request.length;
  }
  size_t Reap(std::span<ReadCompletion> out, size_t, double) override {
    const size_t n = std::min(out.size(), done_.size());
    for (size_t i = 0; i < n; ++i) out[i] = std::move(done_[i]);
    done_.erase(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
  }
  unsigned Depth() const override { return depth_; }

 private:
  unsigned depth_;
  std::vector<ReadCompletion> done_;
};

class NullEngine : public ReadEngine {
 public:
  explicit NullEngine(std::vector<std::string> names) : names_(std::move(names)) {
    capabilities_.useful_depth = 64;
  }
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    return std::make_unique<NullQueue>(std::max(1u, depth));
  }
  const ReadEngineCapabilities& Capabilities() const override { return capabilities_; }
  std::string Describe() const override { return "null (no storage is read)"; }
  uint64_t Opens() const override { return 0; }
  std::string DescribeObject(uint32_t object) const override {
    return object < names_.size() ? names_[object] : "";
  }

 private:
  std::vector<std::string> names_;
  ReadEngineCapabilities capabilities_;
};

}  // namespace

std::unique_ptr<ReadEngine> MakeNullEngine(std::vector<std::string> names) {
  return std::make_unique<NullEngine>(std::move(names));
}

}  // namespace trainbench::storage

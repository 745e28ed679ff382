#include "storage/op_log_engine.h"

#include <unordered_map>
#include <vector>

namespace trainbench::storage {
namespace {

class OpLogQueue : public ReadQueue {
 public:
  OpLogQueue(std::unique_ptr<ReadQueue> queue, const ReadEngine& engine,
             std::shared_ptr<metrics::OpLog> log, uint64_t thread)
      : queue_(std::move(queue)),
        engine_(engine),
        buffer_(std::move(log)),
        thread_(thread),
        by_slot_(2 * static_cast<size_t>(queue_->Depth())) {}

  void Submit(const ReadRequest& request) override {
    const Pending p{request.object, metrics::WallNanos()};
    if (request.tag < by_slot_.size())
      by_slot_[request.tag] = p;
    else
      others_[request.tag] = p;
    queue_->Submit(request);
  }

  size_t Reap(std::span<ReadCompletion> out, size_t min, double timeout_s) override {
    const size_t n = queue_->Reap(out, min, timeout_s);
    for (size_t i = 0; i < n; ++i) {
      const ReadCompletion& c = out[i];
      Pending p;
      if (c.tag < by_slot_.size()) {
        p = by_slot_[c.tag];
      } else {
        const auto it = others_.find(c.tag);
        if (it == others_.end()) continue;
        p = it->second;
        others_.erase(it);
      }
      metrics::OpRecord r;
      r.thread = thread_;
      r.op = "GET";
      r.bytes = c.bytes;
      // Reads of one object come in runs: its name is made once per run.
      if (p.object != named_object_) {
        name_ = engine_.DescribeObject(p.object);
        named_object_ = p.object;
      }
      r.file = name_;
      r.error = c.error;
      r.start_ns = p.start_ns;
      r.end_ns = r.start_ns + static_cast<int64_t>(c.latency_ns);
      buffer_.Add(r);
    }
    return n;
  }

  unsigned Depth() const override { return queue_->Depth(); }

 private:
  struct Pending {
    uint32_t object;
    int64_t start_ns;
  };
  std::unique_ptr<ReadQueue> queue_;
  const ReadEngine& engine_;
  metrics::OpLogBuffer buffer_;
  const uint64_t thread_;
  // Reads in flight by tag. The engines' users tag a read with its slot (below the depth): a
  // flat table for those, with no allocation per read; a map for any other tag.
  std::vector<Pending> by_slot_;
  std::unordered_map<uint64_t, Pending> others_;
  uint32_t named_object_ = UINT32_MAX;
  std::string name_;
};

class OpLogEngine : public ForwardingEngine {
 public:
  OpLogEngine(std::unique_ptr<ReadEngine> engine, std::shared_ptr<metrics::OpLog> log)
      : ForwardingEngine(std::move(engine)), log_(std::move(log)) {}

  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    return std::make_unique<OpLogQueue>(Wrapped().NewQueue(depth), Wrapped(), log_,
                                        log_->NextThread());
  }

 private:
  std::shared_ptr<metrics::OpLog> log_;
};

}  // namespace

std::unique_ptr<ReadEngine> WithOpLog(std::unique_ptr<ReadEngine> engine,
                                      std::shared_ptr<metrics::OpLog> log) {
  return std::make_unique<OpLogEngine>(std::move(engine), std::move(log));
}

}  // namespace trainbench::storage

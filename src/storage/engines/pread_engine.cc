#include "storage/engines/pread_engine.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "common/clock.h"
#include "storage/engines/object_table.h"
#include "storage/sync_read_queue.h"

namespace trainbench::storage {
namespace {

// Reads one request to completion on the calling thread, into `c`.
void ReadNow(ObjectTable<RandomAccessFile>& files, const ReadRequest& r, uint64_t submitted_ns,
             ReadCompletion& c) {
  try {
    std::unique_ptr<RandomAccessFile> temporary;  // over the open-file budget
    c.bytes = files.Get(r.object, temporary).ReadAt(r.offset, r.buffer, r.length);
  } catch (const std::exception& e) {
    c.error = e.what();
  }
  c.latency_ns = NowNanoseconds() - submitted_ns;
}

// Depth 1: the read happens in Submit.
class InlineQueue : public SyncReadQueue {
 public:
  explicit InlineQueue(ObjectTable<RandomAccessFile>& files) : SyncReadQueue(1), files_(files) {}
  void Submit(const ReadRequest& request) override {
    ReadNow(files_, request, NowNanoseconds(), Finished(request));
  }

 private:
  ObjectTable<RandomAccessFile>& files_;
};

// Depth N: N threads each take one queued request at a time.
class ThreadPoolQueue : public ReadQueue {
 public:
  ThreadPoolQueue(ObjectTable<RandomAccessFile>& files, unsigned depth)
      : files_(files), depth_(depth) {
    for (unsigned i = 0; i < depth; ++i) threads_.emplace_back([this] { Work(); });
  }
  ~ThreadPoolQueue() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  void Submit(const ReadRequest& request) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pending_.push_back({request, NowNanoseconds()});
    }
    work_cv_.notify_one();
  }

  size_t Reap(std::span<ReadCompletion> out, size_t min, double timeout_s) override {
    std::unique_lock<std::mutex> lock(mutex_);
    if (done_.size() < min)
      done_cv_.wait_for(lock, std::chrono::duration<double>(timeout_s),
                        [&] { return done_.size() >= min; });
    const size_t n = std::min(out.size(), done_.size());
    for (size_t i = 0; i < n; ++i) {
      out[i] = std::move(done_.front());
      done_.pop_front();
    }
    return n;
  }
  unsigned Depth() const override { return depth_; }

 private:
  struct Pending {
    ReadRequest request;
    uint64_t submitted_ns;
  };

  void Work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_cv_.wait(lock, [&] { return stop_ || !pending_.empty(); });
      if (stop_) return;
      const Pending p = pending_.front();
      pending_.pop_front();
      lock.unlock();
      ReadCompletion c;
      c.tag = p.request.tag;
      c.offset = p.request.offset;
      ReadNow(files_, p.request, p.submitted_ns, c);
      lock.lock();
      done_.push_back(std::move(c));
      done_cv_.notify_one();
    }
  }

  ObjectTable<RandomAccessFile>& files_;
  unsigned depth_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<Pending> pending_;
  std::deque<ReadCompletion> done_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

class PreadEngine : public ReadEngine {
 public:
  PreadEngine(Storage& storage, SharedObjectNames objects, const ReadEngineOptions& options)
      : storage_(storage),
        objects_(std::move(objects)),
        files_(objects_->size(), storage.OpenObjectBudget(objects_->size()),
               [this, &storage, direct = options.direct,
                page_cache = options.page_cache](uint32_t object) {
                 OpenOptions o;
                 o.direct = direct;
                 o.page_cache = page_cache;
                 return storage.Open(std::string((*objects_)[object]), o);
               }) {
    capabilities_.alignment = options.direct ? kDirectAlignment : 1;
    capabilities_.local_paths =
        !objects_->empty() && storage.LocalPath(std::string((*objects_)[0])).has_value();
    capabilities_.useful_depth = 1;
    describe_ = options.direct ? "pread, O_DIRECT" : "pread";
  }

  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    if (depth <= 1) return std::make_unique<InlineQueue>(files_);
    return std::make_unique<ThreadPoolQueue>(files_, depth);
  }
  const ReadEngineCapabilities& Capabilities() const override { return capabilities_; }
  std::string Describe() const override { return describe_; }
  uint64_t Opens() const override { return files_.Opens(); }
  std::string DescribeObject(uint32_t object) const override {
    return storage_.Describe(std::string((*objects_)[object]));
  }

 private:
  Storage& storage_;
  SharedObjectNames objects_;
  ObjectTable<RandomAccessFile> files_;
  ReadEngineCapabilities capabilities_;
  std::string describe_;
};

}  // namespace

std::unique_ptr<ReadEngine> MakePreadEngine(Storage& storage, SharedObjectNames objects,
                                            const ReadEngineOptions& options) {
  return std::make_unique<PreadEngine>(storage, std::move(objects), options);
}

}  // namespace trainbench::storage

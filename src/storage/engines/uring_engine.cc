#include "storage/engines/uring_engine.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <liburing.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/clock.h"
#include "common/error.h"
#include "storage/io_error.h"
#include "storage/engines/object_table.h"

namespace trainbench::storage {
namespace {

struct Fd {
  explicit Fd(int value) : fd(value) {}
  ~Fd() { ::close(fd); }
  int fd;
};

class UringQueue : public ReadQueue {
 public:
  UringQueue(ObjectTable<Fd>& files, const ReadEngine& engine, unsigned depth)
      : files_(files), engine_(engine), depth_(depth), slots_(depth) {
    if (const int rc = io_uring_queue_init(depth, &ring_, 0); rc < 0)
      throw RuntimeError(fmt::format("io_uring_queue_init failed: {} (use --io-engine pread)",
                                     std::strerror(-rc)));
    for (unsigned i = 0; i < depth; ++i) free_.push_back(i);
  }
  ~UringQueue() override {
    // Never leave the kernel writing into buffers the caller is about to free.
    while (in_kernel_ > 0) {
      io_uring_cqe* cqe;
      if (io_uring_wait_cqe(&ring_, &cqe) < 0) break;
      io_uring_cqe_seen(&ring_, cqe);
      --in_kernel_;
    }
    io_uring_queue_exit(&ring_);
  }

  void Submit(const ReadRequest& r) override {
    const unsigned i = free_.back();
    Slot& slot = slots_[i];
    slot.tag = r.tag;
    slot.object = r.object;
    slot.offset = r.offset;
    slot.t0 = NowNanoseconds();
    slot.temporary.reset();
    int fd;
    try {
      fd = files_.Get(r.object, slot.temporary).fd;
    } catch (const std::exception& e) {
      failed_.push_back({r.tag, r.offset, 0, NowNanoseconds() - slot.t0, e.what()});
      return;
    }
    free_.pop_back();
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    io_uring_prep_read(sqe, fd, r.buffer, static_cast<unsigned>(r.length), r.offset);
    io_uring_sqe_set_data64(sqe, i);
    ++in_kernel_;
  }

  size_t Reap(std::span<ReadCompletion> out, size_t min, double timeout_s) override {
    size_t n = 0;
    while (n < out.size() && !failed_.empty()) {
      out[n++] = std::move(failed_.back());
      failed_.pop_back();
    }
    const size_t wanted = n >= min ? 0 : std::min<size_t>(min - n, in_kernel_);
    io_uring_cqe* cqe = nullptr;
    int rc;
    if (wanted > 0) {
      __kernel_timespec ts{};
      ts.tv_sec = static_cast<long long>(timeout_s);
      ts.tv_nsec = static_cast<long long>((timeout_s - static_cast<double>(ts.tv_sec)) * 1e9);
      rc = io_uring_submit_and_wait_timeout(&ring_, &cqe, static_cast<unsigned>(wanted), &ts,
                                            nullptr);
    } else {
      rc = io_uring_submit(&ring_);
    }
    if (rc < 0 && rc != -ETIME && rc != -EINTR)
      throw RuntimeError(fmt::format("io_uring submit failed: {}", std::strerror(-rc)));
    unsigned head, seen = 0;
    io_uring_for_each_cqe(&ring_, head, cqe) {
      if (n == out.size()) break;
      ++seen;
      const auto i = static_cast<unsigned>(io_uring_cqe_get_data64(cqe));
      Slot& slot = slots_[i];
      ReadCompletion& c = out[n++];
      c.tag = slot.tag;
      c.offset = slot.offset;
      c.latency_ns = NowNanoseconds() - slot.t0;
      c.error.clear();
      if (cqe->res < 0) {
        c.bytes = 0;
        c.error = fmt::format("read failed at offset {} of '{}': {}", slot.offset,
                              engine_.DescribeObject(slot.object), std::strerror(-cqe->res));
      } else {
        c.bytes = static_cast<uint64_t>(cqe->res);
      }
      slot.temporary.reset();
      free_.push_back(i);
      --in_kernel_;
    }
    io_uring_cq_advance(&ring_, seen);
    return n;
  }

  unsigned Depth() const override { return depth_; }

 private:
  struct Slot {
    uint64_t tag = 0, offset = 0, t0 = 0;
    uint32_t object = 0;
    std::unique_ptr<Fd> temporary;  // a file over the open budget, closed after its read
  };
  ObjectTable<Fd>& files_;
  const ReadEngine& engine_;  // names objects in messages
  unsigned depth_;
  io_uring ring_{};
  std::vector<Slot> slots_;
  std::vector<unsigned> free_;
  std::vector<ReadCompletion> failed_;  // could not be submitted (open failed)
  unsigned in_kernel_ = 0;
};

class UringEngine : public ReadEngine {
 public:
  UringEngine(SharedObjectNames names, std::string root, uint64_t budget,
              const ReadEngineOptions& options)
      : names_(std::move(names)),
        root_(std::move(root)),
        files_(names_->size(), budget,
               [this, direct = options.direct, page_cache = options.page_cache](uint32_t object) {
                 int flags = O_RDONLY | O_CLOEXEC;
                 if (direct) flags |= O_DIRECT;
                 const std::string path = names_->Joined(object, root_);
                 const int fd = ::open(path.c_str(), flags);
                 if (fd < 0) ThrowIoError("cannot open", path, errno);
                 ApplyPageCacheHint(fd, page_cache);
                 return std::make_unique<Fd>(fd);
               }) {
    capabilities_.alignment = options.direct ? kDirectAlignment : 1;
    capabilities_.local_paths = true;
    capabilities_.useful_depth = 64;
    describe_ = options.direct ? "io_uring, O_DIRECT" : "io_uring";
  }
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    return std::make_unique<UringQueue>(files_, *this, std::max(1u, depth));
  }
  const ReadEngineCapabilities& Capabilities() const override { return capabilities_; }
  std::string Describe() const override { return describe_; }
  uint64_t Opens() const override { return files_.Opens(); }
  std::string DescribeObject(uint32_t object) const override {
    return names_->Joined(object, root_);
  }

 private:
  SharedObjectNames names_;
  std::string root_;
  ObjectTable<Fd> files_;
  ReadEngineCapabilities capabilities_;
  std::string describe_;
};

}  // namespace

std::unique_ptr<ReadEngine> MakeUringEngine(SharedObjectNames names, std::string root,
                                            uint64_t budget, const ReadEngineOptions& options) {
  return std::make_unique<UringEngine>(std::move(names), std::move(root), budget, options);
}

}  // namespace trainbench::storage

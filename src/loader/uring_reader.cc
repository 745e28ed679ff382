// The io_uring engine of the read scheduler: each reader thread owns a ring and keeps up
// to `depth` transfer_size pieces in flight, claiming samples as slots free up, so a few
// threads keep a deep queue on storage that needs one (flash, network file systems).
// Reads the page cache holds complete inside the submit call, as pread would.
#include <fmt/format.h>
#include <liburing.h>

#include <cstring>

#include "common/error.h"
#include "loader/dataset_files.h"
#include "loader/pieces.h"
#include "loader/read_worker.h"

namespace trainbench::loader {
namespace {

// A sample being read: its pieces go out one slot each, in order.
struct InFlightSample {
  size_t stream = 0;
  uint64_t index = 0;
  uint32_t file = 0;
  int fd = -1;
  uint64_t next = 0;        // offset of the next piece to submit
  uint64_t end = 0;         // end of the (aligned) range
  uint64_t sample_end = 0;  // end of the sample's own bytes
  uint32_t pieces_out = 0;  // submitted, not yet completed
  uint64_t bytes = 0;
  bool active = false;
};

struct Slot {
  InFlightSample* sample = nullptr;
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t t0 = 0;
  AlignedBuffer buffer;
};

}  // namespace

void ReadScheduler::RunUring(Worker& worker) {
  const unsigned depth = std::max(1u, options_.depth);
  io_uring ring;
  if (const int rc = io_uring_queue_init(depth, &ring, 0); rc < 0) {
    Fail(fmt::format("io_uring_queue_init failed: {} (use --io-engine pread)", std::strerror(-rc)));
    return;
  }
  std::vector<Slot> slots(depth);
  std::vector<unsigned> free_slots;
  for (unsigned i = 0; i < depth; ++i) {
    void* p = std::aligned_alloc(kDirectAlignment, AlignUp(piece_size_, kDirectAlignment));
    if (!p) {
      Fail("out of memory for read buffers (reader.transfer_size too large?)");
      io_uring_queue_exit(&ring);
      return;
    }
    slots[i].buffer.reset(static_cast<unsigned char*>(p));
    free_slots.push_back(i);
  }
  std::vector<InFlightSample> samples(depth);
  unsigned out = 0;  // pieces in the kernel

  // Finds room for one more piece: continue a sample with pieces left, else claim one.
  auto next_piece = [&]() -> InFlightSample* {
    for (auto& s : samples)
      if (s.active && s.next < s.end) return &s;
    InFlightSample* spare = nullptr;
    for (auto& s : samples)
      if (!s.active) {
        spare = &s;
        break;
      }
    if (!spare) return nullptr;
    // Counted in flight before looking at draining_ (see Run in read_scheduler.cc).
    in_flight_.fetch_add(1);
    if (draining_.load()) {
      in_flight_.fetch_sub(1);
      return nullptr;
    }
    const size_t n = streams_.size();
    const size_t start = cursor_.fetch_add(1, std::memory_order_relaxed);
    for (size_t j = 0; j < n; ++j) {
      const size_t a = (start + j) % n;
      uint64_t index;
      if (!Claim(streams_[a], index)) continue;
      const SampleRef ref = (*streams_[a].samples)[index];
      const uint32_t file = ref.file + file_offset_;
      const formats::SampleExtent extent = ExtentOf((*files_)[file], ref.sample);
      std::unique_ptr<storage::RandomAccessFile> temporary;
      int fd = -1;
      try {
        fd = File(file, temporary).NativeHandle();
        if (temporary || fd < 0)
          throw RuntimeError("io_uring needs file descriptors kept open: use --io-engine pread");
      } catch (const std::exception& e) {
        Fail(e.what());
        SampleDone(streams_[a], index, 0, worker);
        in_flight_.fetch_sub(1);
        return nullptr;
      }
      *spare = InFlightSample{};
      spare->stream = a;
      spare->index = index;
      spare->file = file;
      spare->fd = fd;
      spare->next = options_.direct ? AlignDown(extent.offset, kDirectAlignment) : extent.offset;
      spare->sample_end = extent.offset + extent.length;
      spare->end =
          options_.direct ? AlignUp(spare->sample_end, kDirectAlignment) : spare->sample_end;
      spare->active = true;
      if (spare->next >= spare->end) {  // an empty sample: done at once
        spare->active = false;
        SampleDone(streams_[a], index, 0, worker);
        in_flight_.fetch_sub(1);
        return nullptr;
      }
      return spare;
    }
    in_flight_.fetch_sub(1);
    return nullptr;
  };

  auto finish = [&](InFlightSample& s) {
    s.active = false;
    SampleDone(streams_[s.stream], s.index, s.bytes, worker);
    in_flight_.fetch_sub(1);
  };

  for (;;) {
    const uint64_t generation = generation_.load(std::memory_order_acquire);
    // Fill free slots.
    while (!free_slots.empty() && !stop_.load()) {
      InFlightSample* s = next_piece();
      if (!s) break;
      const unsigned i = free_slots.back();
      free_slots.pop_back();
      Slot& slot = slots[i];
      slot.sample = s;
      slot.offset = s->next;
      slot.length = std::min(piece_size_, s->end - s->next);
      s->next += slot.length;
      ++s->pieces_out;
      io_uring_sqe* sqe = io_uring_get_sqe(&ring);
      io_uring_prep_read(sqe, s->fd, slot.buffer.get(), static_cast<unsigned>(slot.length),
                         slot.offset);
      io_uring_sqe_set_data64(sqe, i);
      slot.t0 = NowNanoseconds();
      ++out;
    }
    if (out == 0) {
      if (stop_.load()) break;
      std::unique_lock<std::mutex> lock(work_mutex_);
      ++idle_;
      work_cv_.wait(lock, [&] { return generation_.load() != generation || stop_.load(); });
      --idle_;
      continue;
    }
    // Submit what was queued and wait for at least one completion.
    const int rc = io_uring_submit_and_wait(&ring, 1);
    if (rc < 0 && rc != -EINTR) {
      Fail(fmt::format("io_uring_submit_and_wait failed: {}", std::strerror(-rc)));
      break;
    }
    io_uring_cqe* cqe;
    unsigned head, seen = 0;
    io_uring_for_each_cqe(&ring, head, cqe) {
      ++seen;
      const auto i = static_cast<unsigned>(io_uring_cqe_get_data64(cqe));
      Slot& slot = slots[i];
      InFlightSample& s = *slot.sample;
      worker.latency_ns.Record(NowNanoseconds() - slot.t0);
      worker.reads.fetch_add(1, std::memory_order_relaxed);
      --out;
      --s.pieces_out;
      free_slots.push_back(i);
      const int res = cqe->res;
      const std::string& path = (*files_)[s.file].path;
      if (res < 0) {
        Fail(fmt::format("read failed at offset {} of '{}': {}", slot.offset,
                         storage_.Describe(path), std::strerror(-res)));
        s.next = s.end;
      } else {
        s.bytes += static_cast<uint64_t>(res);
        const uint64_t got_end = slot.offset + static_cast<uint64_t>(res);
        if (static_cast<uint64_t>(res) < slot.length && got_end < s.sample_end) {
          Fail(
              fmt::format("short read at offset {} of '{}': {} of {} bytes (the file is "
                          "shorter than its sample index says)",
                          got_end, storage_.Describe(path), res, slot.length));
          s.next = s.end;
        }
      }
      if (s.next >= s.end && s.pieces_out == 0) finish(s);
    }
    io_uring_cq_advance(&ring, seen);
  }
  // Never free buffers the kernel may still write: reap what is out.
  while (out > 0) {
    io_uring_cqe* cqe;
    if (io_uring_wait_cqe(&ring, &cqe) < 0) break;
    const auto i = static_cast<unsigned>(io_uring_cqe_get_data64(cqe));
    InFlightSample& s = *slots[i].sample;
    io_uring_cqe_seen(&ring, cqe);
    --out;
    if (--s.pieces_out == 0 && s.active) finish(s);
  }
  for (auto& s : samples)
    if (s.active) finish(s);
  io_uring_queue_exit(&ring);
}

}  // namespace trainbench::loader

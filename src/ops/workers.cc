#include "ops/workers.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "common/interrupt.h"
#include "common/random.h"
#include "metrics/run_record_json.h"

namespace trainbench::ops {

OpFiguresByName ByName(const std::map<ReplayOp, OpFigures>& ops) {
  OpFiguresByName named;
  for (const auto& [op, figures] : ops) named[ReplayOpName(op)] = figures;
  return named;
}

namespace {

constexpr uint64_t kPutChunk = 1 << 20;
constexpr uint64_t kMaxBuffer = 64 << 20;  // per worker
constexpr int64_t kLateNs = 1000000;       // a timed op that began over 1 ms after its time is late

// A read engine per storage over the objects GETs read, and where each object is in it.
struct StorageReads {
  std::unique_ptr<storage::ReadEngine> engine;
  std::vector<uint32_t> engine_object;  // table object -> engine object (UINT32_MAX: no GET)
};

// A replay plan's operations in order: each at its original offset over `speed` when timed,
// and after the PUT or DELETE of its object that came before it.
class PlanSource : public OpSource {
 public:
  PlanSource(const ReplayPlan& plan, const ReplaySettings& settings, int64_t start_ns)
      : plan_(plan), settings_(settings), start_ns_(start_ns) {
    for (const PlannedOp& op : plan.ops)
      if (op.op == ReplayOp::kGet) max_get_ = std::max(max_get_, op.bytes);
    done_ = std::make_unique<std::atomic<bool>[]>(plan.ops.size());
  }

  bool Next(WorkerOp& out, ReplayFigures& mine) override {
    if (InterruptRequested()) {
      mine.interrupted = true;
      return false;
    }
    const size_t i = next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= plan_.ops.size()) return false;
    const PlannedOp& op = plan_.ops[i];
    if (settings_.timed) {
      const int64_t due =
          start_ns_ +
          static_cast<int64_t>(static_cast<double>(settings_.rank_offset_ns + op.offset_ns) /
                               settings_.speed);
      if (!WaitUntil(due)) {
        mine.interrupted = true;
        done_[i].store(true);  // never done, but nothing may wait for it
        done_[i].notify_all();
        return false;
      }
      const int64_t late = metrics::WallNanos() - due;
      if (late > kLateNs) {
        ++mine.late;
        mine.max_late_ns = std::max(mine.max_late_ns, static_cast<uint64_t>(late));
      }
    }
    // The write this op depends on was handed out earlier, so it ends: wait for it.
    if (op.after >= 0) done_[op.after].wait(false);
    out = WorkerOp();
    out.op = op.op;
    out.storage = op.storage;
    out.object = op.object;
    out.bytes = op.bytes;
    out.index = i;
    out.absent = op.absent;
    return true;
  }

  void Ended(const WorkerOp& op) override {
    if (op.op != ReplayOp::kPut && op.op != ReplayOp::kDelete) return;
    done_[op.index].store(true);
    done_[op.index].notify_all();
  }

  uint64_t MaxGetBytes() const override { return max_get_; }

 private:
  // Waits until `due` (wall clock), a slice at a time so Ctrl-C is seen; false on Ctrl-C.
  static bool WaitUntil(int64_t due) {
    while (true) {
      const int64_t left = due - metrics::WallNanos();
      if (left <= 0) return true;
      if (InterruptRequested()) return false;
      std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<int64_t>(left, 100000000)));
    }
  }

  const ReplayPlan& plan_;
  const ReplaySettings& settings_;
  const int64_t start_ns_;
  uint64_t max_get_ = 0;
  std::atomic<size_t> next_{0};
  std::unique_ptr<std::atomic<bool>[]> done_;  // per op: ended (set for PUTs and DELETEs)
};

class Workers {
 public:
  Workers(const std::vector<PlannedStorage>& table,
          std::vector<std::unique_ptr<storage::Storage>>& storages, OpSource& source,
          const ReplaySettings& settings, ReplayProgress& progress)
      : table_(table),
        storages_(storages),
        source_(source),
        settings_(settings),
        progress_(progress),
        random_(kPutChunk) {
    FillRandom(Mix(0x7265706c6179, static_cast<uint64_t>(metrics::WallNanos())), 0, random_.data(),
               random_.size());
    reads_.resize(storages.size());
    for (size_t s = 0; s < storages.size(); ++s) {
      const PlannedStorage& planned = table[s];
      if (planned.gets.empty()) continue;
      std::vector<std::string> objects;
      reads_[s].engine_object.assign(planned.objects.size(), UINT32_MAX);
      for (uint32_t o : planned.gets) {
        reads_[s].engine_object[o] = static_cast<uint32_t>(objects.size());
        objects.push_back(planned.objects[o]);
      }
      storage::ReadEngineOptions options;
      options.page_cache = settings.page_cache;
      reads_[s].engine =
          storage::OpenReadEngine(*storages[s], storage::ShareNames(objects), options);
    }
  }

  ReplayFigures Run() {
    const unsigned n = std::max(1u, settings_.concurrency);
    std::vector<ReplayFigures> figures(n);
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < n; ++w)
      threads.emplace_back([this, w, &figures] { Work(w, figures[w]); });
    for (auto& t : threads) t.join();
    ReplayFigures all;
    all.start_ns = INT64_MAX;
    for (const ReplayFigures& f : figures) {
      for (const auto& [op, r] : f.ops) {
        all.ops[op].Merge(r);
      }
      if (f.end_ns > 0) {
        all.start_ns = std::min(all.start_ns, f.start_ns);
        all.end_ns = std::max(all.end_ns, f.end_ns);
      }
      all.late += f.late;
      all.max_late_ns = std::max(all.max_late_ns, f.max_late_ns);
      all.interrupted = all.interrupted || f.interrupted;
    }
    if (all.end_ns == 0) all.start_ns = 0;
    return all;
  }

 private:
  void Work(unsigned worker, ReplayFigures& mine) {
    std::vector<std::unique_ptr<storage::ReadQueue>> queues(storages_.size());
    std::unique_ptr<metrics::OpLogBuffer> log;
    if (settings_.op_log) log = std::make_unique<metrics::OpLogBuffer>(settings_.op_log);
    std::vector<unsigned char> buffer(std::clamp<uint64_t>(source_.MaxGetBytes(), 1, kMaxBuffer));
    WorkerOp op;
    while (source_.Next(op, mine)) {
      storage::Storage& storage = *storages_[op.storage];
      const std::string& name =
          op.object == kNoObject ? op.name : table_[op.storage].objects[op.object];
      metrics::OpRecord record;
      record.thread = worker;
      record.op = ReplayOpName(op.op);
      std::string error;
      std::string done_name = name;  // a DELETE of any object PUT: the one it took
      bool skipped = false;
      record.start_ns = metrics::WallNanos();
      try {
        switch (op.op) {
          case ReplayOp::kGet:
            record.bytes = Get(op, name, queues, buffer, error);
            break;
          case ReplayOp::kPut:
            record.bytes = Put(op, storage, name);
            break;
          case ReplayOp::kHead:
            // The object's size in bytes, as sai3-bench logs a STAT (and trainbench a HEAD). A
            // miss where the log found nothing is the same answer; elsewhere an error.
            if (const auto size = storage.FileSize(name))
              record.bytes = *size;
            else if (op.absent)
              record.n_objects = 0;
            else
              error = storage.Describe(name) + ": no such object";
            break;
          case ReplayOp::kList:
            record.n_objects = storage.List(name).size();
            break;
          case ReplayOp::kDelete:
            if (op.object == kNoObject && name.empty())
              done_name = TakeAnyWritten(op);
            else if (!TakeWritten(op.storage, name))
              done_name.clear();
            skipped = done_name.empty();
            if (!skipped) storage.Remove(done_name);
            break;
        }
      } catch (const std::exception& e) {
        error = e.what();
      }
      record.end_ns = metrics::WallNanos();
      source_.Ended(op);
      OpFigures& figures = mine.ops[op.op];
      if (skipped) {
        ++figures.skipped;
      } else {
        ++figures.count;
        figures.bytes += record.bytes;
        figures.latency_ns.Record(static_cast<uint64_t>(record.end_ns - record.start_ns));
        if (settings_.op_seconds && op.index < settings_.op_seconds->size())
          (*settings_.op_seconds)[op.index] =
              static_cast<float>(static_cast<double>(record.end_ns - record.start_ns) / 1e9);
        if (!error.empty()) {
          ++figures.errors;
          if (figures.first_error.empty()) figures.first_error = error;
        }
        if (log) {
          const std::string file = storage.Describe(done_name);
          record.file = file;
          record.error = error;
          log->Add(record);
        }
      }
      if (mine.end_ns == 0) mine.start_ns = record.start_ns;
      mine.start_ns = std::min(mine.start_ns, record.start_ns);
      mine.end_ns = std::max(mine.end_ns, record.end_ns);
      progress_.ops.fetch_add(1, std::memory_order_relaxed);
      progress_.bytes.fetch_add(record.bytes, std::memory_order_relaxed);
    }
  }

  // A GET of `bytes` from the object's start (sai3-bench's op-log columns carry no offset);
  // through the storage's read engine, as `run` reads. A GET of nothing asks for the size.
  uint64_t Get(const WorkerOp& op, const std::string& name,
               std::vector<std::unique_ptr<storage::ReadQueue>>& queues,
               std::vector<unsigned char>& buffer, std::string& error) {
    if (op.bytes == 0) {
      storages_[op.storage]->FileSize(name);
      return 0;
    }
    StorageReads& reads = reads_[op.storage];
    auto& queue = queues[op.storage];
    if (!queue) queue = reads.engine->NewQueue(1);
    // A GET larger than the buffer (a checkpoint shard's) is read in buffer-sized pieces.
    uint64_t got = 0;
    while (got < op.bytes) {
      storage::ReadRequest request;
      request.object = reads.engine_object[op.object];
      request.offset = got;
      request.length = std::min<uint64_t>(op.bytes - got, buffer.size());
      request.buffer = buffer.data();
      queue->Submit(request);
      storage::ReadCompletion done;
      // The buffer is the engine's until the read completes: wait for it even after Ctrl-C.
      while (queue->Reap(std::span<storage::ReadCompletion>(&done, 1), 1, 1.0) == 0) {
      }
      got += done.bytes;
      if (!done.error.empty()) {
        error = done.error;
        break;
      }
      if (done.bytes < request.length) break;  // the object ends sooner than the GET asked
    }
    return got;
  }

  uint64_t Put(const WorkerOp& op, storage::Storage& storage, const std::string& name) {
    auto writer = storage.Create(name);
    for (uint64_t left = op.bytes; left > 0;) {
      const uint64_t n = std::min<uint64_t>(left, kPutChunk);
      writer->Append(random_.data(), n);
      left -= n;
    }
    writer->Commit();
    std::lock_guard<std::mutex> lock(written_mutex_);
    written_.insert({op.storage, name});
    return op.bytes;
  }

  // Whether this job wrote the object (and forgets it: a second DELETE has nothing).
  bool TakeWritten(uint32_t storage, const std::string& name) {
    std::lock_guard<std::mutex> lock(written_mutex_);
    return written_.erase({storage, name}) > 0;
  }

  // An object this job PUT that the op's DELETE may take ("" when none).
  std::string TakeAnyWritten(const WorkerOp& op) {
    std::lock_guard<std::mutex> lock(written_mutex_);
    for (auto it = written_.lower_bound({op.storage, std::string()});
         it != written_.end() && it->first == op.storage; ++it) {
      if (op.delete_matches && !op.delete_matches(it->second)) continue;
      std::string name = it->second;
      written_.erase(it);
      return name;
    }
    return "";
  }

  const std::vector<PlannedStorage>& table_;
  std::vector<std::unique_ptr<storage::Storage>>& storages_;
  OpSource& source_;
  const ReplaySettings& settings_;
  ReplayProgress& progress_;
  std::vector<unsigned char> random_;  // what PUTs write
  std::vector<StorageReads> reads_;
  std::mutex written_mutex_;
  std::set<std::pair<uint32_t, std::string>> written_;  // (storage, name) this job PUT
};

}  // namespace

ReplayFigures RunOps(const std::vector<PlannedStorage>& table,
                     std::vector<std::unique_ptr<storage::Storage>>& storages, OpSource& source,
                     const ReplaySettings& settings, ReplayProgress& progress) {
  Workers workers(table, storages, source, settings, progress);
  return workers.Run();
}

ReplayFigures RunReplay(const ReplayPlan& plan,
                        std::vector<std::unique_ptr<storage::Storage>>& storages,
                        const ReplaySettings& settings, int64_t start_ns,
                        ReplayProgress& progress) {
  PlanSource source(plan, settings, start_ns);
  return RunOps(plan.storages, storages, source, settings, progress);
}

}  // namespace trainbench::ops

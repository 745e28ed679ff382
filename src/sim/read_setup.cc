#include "sim/read_setup.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "common/random.h"
#include "formats/format.h"
#include "metrics/process_stats.h"
#include "sim/compute_time.h"
#include "storage/mount_info.h"
#include "storage/op_log_engine.h"
#include "storage/read_engines.h"

namespace trainbench::sim {
namespace {

uint64_t SamplesInFlight(const config::WorkloadConfig& config, uint64_t accelerators) {
  return accelerators * std::max<uint64_t>(1, config.reader.read_threads);
}

}  // namespace

unsigned ReadThreads(const config::WorkloadConfig& config, uint64_t accelerators,
                     const ReadFlags& flags, unsigned useful_depth) {
  if (flags.io_threads > 0) return flags.io_threads;
  const uint64_t cores =
      std::max<uint64_t>(1, metrics::HostCpuCount() / std::max(1u, flags.ranks_on_host));
  // A synchronous queue needs a thread per read in flight; a deep one a thread per core.
  uint64_t cap = useful_depth > 1 ? cores : std::min<uint64_t>(64, 4 * cores);
  // A depth given by hand: as many threads as keep within kMaxReadsInFlight.
  if (flags.io_depth > 0) cap = std::min<uint64_t>(cap, kMaxReadsInFlight / flags.io_depth);
  return static_cast<unsigned>(
      std::max<uint64_t>(1, std::min(SamplesInFlight(config, accelerators), cap)));
}

unsigned ReadDepth(const config::WorkloadConfig& config, uint64_t accelerators,
                   const ReadFlags& flags, unsigned useful_depth) {
  if (flags.io_depth > 0) return flags.io_depth;
  if (useful_depth <= 1) return 1;
  const uint64_t threads = ReadThreads(config, accelerators, flags, useful_depth);
  const uint64_t per_thread = (SamplesInFlight(config, accelerators) + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<uint64_t>(per_thread, 1, 256));
}

namespace {

// reader.transfer_size, raised to the engine's least worthwhile read (S3: 8 MiB ranges)
// but never past the largest sample, so small samples keep small buffers.
uint64_t TransferSize(const config::WorkloadConfig& config, storage::ReadEngine& engine,
                      const dataset::FileTable& files) {
  const uint64_t floor = engine.Capabilities().min_read_size;
  if (floor <= config.reader.transfer_size) return config.reader.transfer_size;
  uint64_t largest = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const auto extents = files.Extents(i);
    for (const auto& s : extents) largest = std::max(largest, s.length);
    if (extents.empty()) largest = std::max(largest, files.SizeBytes(i));
  }
  return std::max(config.reader.transfer_size, std::min(floor, largest));
}

// What decides how the page cache's share is told: the storage, the engine, the data
// folder's file system, whether /proc/self/io can be read, and kCacheMethodVariable.
CacheMethodInputs CacheInputsOf(const config::WorkloadConfig& config, const ReadFlags& flags,
                                storage::Storage& storage, const dataset::FileTable& files,
                                const storage::ReadEngine& engine) {
  CacheMethodInputs in;
  const auto root = storage.LocalPath(files.size() > 0 ? std::string(files.Path(0)) : "");
  in.file_system = root.has_value();
  in.direct = config.reader.odirect;
  in.null_engine = flags.engine == "null";
  in.whole_samples = engine.Capabilities().whole_samples;
  if (root)
    if (const auto mount = storage::MountOf(*root)) in.fs_type = mount->fs_type;
  in.proc_io_available = metrics::ReadProcessIo().available;
  in.forced = ReadCacheMethodOverride();
  return in;
}

}  // namespace

ReadSetup SetUpReads(const config::WorkloadConfig& config, uint64_t accelerators,
                     const ReadFlags& flags, storage::Storage& storage,
                     const dataset::FileTable& files) {
  storage::ReadEngineOptions o;
  o.engine = flags.engine;
  o.direct = config.reader.odirect;
  // Samples read in file order: the kernel's read-ahead, doubled, fetches what the next
  // reads ask for. Where the reader threads share a file (each takes the next sample), the
  // default window followed two streams at once and a FUSE or network client (ceph-fuse)
  // waited on each read: 142 MB/s against fio's 329 over the same cold files on CephFS.
  if (config.reader.sample_shuffle == config::Shuffle::kOff)
    o.page_cache = storage::PageCacheHint::kSequential;
  ReadSetup setup;
  // A format whose library reads samples (hdf5) needs files; on object storage its
  // samples are read as what the manifest says they are, byte extents (the emulation
  // reads the same bytes libhdf5 would for contiguous and whole-sample-chunk datasets).
  const auto& format = formats::FindFormat(config.dataset.format);
  if (flags.engine != "null" && format.open_reader) {
    if (storage.LocalPath("").has_value()) {
      setup.engine = format.open_reader(storage, *files.Names());
    } else {
      // Compressed or split-chunk samples have no byte range in the object: reading their
      // places in the uncompressed data would measure nothing real.
      for (size_t i = 0; i < files.size(); ++i)
        if (!files.ExtentsAreBytes(i))
          throw UsageError(fmt::format(
              "{}: its samples have no byte range in the object (a compressed or chunked {} "
              "dataset), and {} reads them only through a library that needs a file system; "
              "write it with dataset.compression=none and dataset.enable_chunking=false, or "
              "use a file system",
              storage.Describe(std::string(files.Path(i))), format.name, format.name));
    }
  }
  if (!setup.engine) setup.engine = storage::OpenReadEngine(storage, files.Names(), o);
  setup.cache = ChooseCacheMethod(CacheInputsOf(config, flags, storage, files, *setup.engine));
  if (setup.cache.method == "mincore") {
    setup.residency = std::make_shared<storage::PageResidency>(
        files.size(), [&storage, names = files.Names()](uint32_t object) {
          return storage.LocalPath(std::string((*names)[object])).value_or("");
        });
    setup.engine = storage::WithResidencyCheck(std::move(setup.engine), setup.residency);
  }
  if (flags.op_log) {
    flags.op_log->NoteEndpointUrl(storage.EndpointUrl());  // where its s3:// names are
    setup.engine = storage::WithOpLog(std::move(setup.engine), flags.op_log);
  }
  const unsigned useful = setup.engine->Capabilities().useful_depth;
  setup.reader.threads = ReadThreads(config, accelerators, flags, useful);
  setup.reader.depth = ReadDepth(config, accelerators, flags, useful);
  setup.reader.transfer_size = TransferSize(config, *setup.engine, files);
  setup.reader.reads_per_accelerator = std::max<uint64_t>(1, config.reader.read_threads);
  setup.reader.prefetch_batches = config.reader.prefetch_size;
  const config::TimeDistribution preprocess = config::PreprocessTime(config.reader);
  if (preprocess.Mean() > 0 || preprocess.stdev > 0) {
    // A draw per sample from its own seed: the loop threads share no generator, and a seed
    // gives the same times whichever thread finishes the sample.
    const uint64_t seed = Mix(config.train.seed, 0x9e3779b97f4a7c15ULL);
    setup.reader.preprocess_s = [preprocess, seed](size_t accelerator, uint64_t phase,
                                                   uint64_t index) {
      return ComputeTime(preprocess, Mix(Mix(seed, accelerator), Mix(phase, index))).Draw();
    };
  }
  setup.description = fmt::format("{}, {} thread{}", setup.engine->Describe(), setup.reader.threads,
                                  setup.reader.threads == 1 ? "" : "s");
  if (setup.reader.depth > 1) setup.description += fmt::format(", depth {}", setup.reader.depth);
  return setup;
}

}  // namespace trainbench::sim

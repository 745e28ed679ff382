#include "formats/hdf5/hdf5_sample_reader.h"

#include <fmt/format.h>
#include <hdf5.h>

#include <atomic>
#include <new>

#include "common/clock.h"
#include "common/error.h"
#include "formats/hdf5/hdf5_handle.h"
#include "storage/sync_read_queue.h"

namespace trainbench::formats {
namespace {

// Every HDF5 call holds the process-wide HDF5 lock, which also silences libhdf5's own
// error printing on the calling thread: the setting is per thread in a thread-safe build,
// and a reader thread left unsilenced printed an HDF5-DIAG stack dump per failure on top
// of trainbench's one error line.

struct Handles {
  hid_t file = -1, dataset = -1, space = -1, mem_type = -1;
  ~Handles() {
    if (mem_type >= 0) H5Tclose(mem_type);
    if (space >= 0) H5Sclose(space);
    if (dataset >= 0) H5Dclose(dataset);
    if (file >= 0) H5Fclose(file);
  }
};

// Opens the file and its sample dataset; fills shape. Caller holds the lock.
void OpenSamples(const std::string& path, Handles& h, Hdf5Shape& shape) {
  h.file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (h.file < 0)
    throw RuntimeError(fmt::format("'{}' is not a readable HDF5 file ({})", path, Hdf5LastError()));
  for (const char* name : {"records_0", "records"}) {
    if (H5Lexists(h.file, name, H5P_DEFAULT) > 0) {
      shape.dataset = name;
      break;
    }
  }
  if (shape.dataset.empty())
    throw RuntimeError(fmt::format(
        "HDF5 file '{}' has no dataset 'records_0' (or 'records'): not a DLIO-layout file", path));
  h.dataset = H5Dopen2(h.file, shape.dataset.c_str(), H5P_DEFAULT);
  h.space = h.dataset >= 0 ? H5Dget_space(h.dataset) : -1;
  const int rank = h.space >= 0 ? H5Sget_simple_extent_ndims(h.space) : -1;
  if (rank < 1)
    throw RuntimeError(fmt::format("HDF5 file '{}': cannot read dataset '{}' ({})", path,
                                   shape.dataset, Hdf5LastError()));
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  H5Sget_simple_extent_dims(h.space, dims.data(), nullptr);
  const hid_t type = H5Dget_type(h.dataset);
  h.mem_type = H5Tget_native_type(type, H5T_DIR_ASCEND);
  H5Tclose(type);
  uint64_t elements = 1;
  for (int i = 1; i < rank; ++i) elements *= dims[static_cast<size_t>(i)];
  shape.num_samples = dims[0];
  shape.sample_bytes = elements * H5Tget_size(h.mem_type);
  const haddr_t offset = H5Dget_offset(h.dataset);
  if (offset != HADDR_UNDEF) shape.data_offset = static_cast<uint64_t>(offset);
}

}  // namespace

namespace {

struct CachedHdf5File {
  Handles handles;
  Hdf5Shape shape;
  std::vector<hsize_t> start, count;
  hid_t mem_space = -1;
  ~CachedHdf5File() {
    if (mem_space >= 0) H5Sclose(mem_space);
  }
};

class Hdf5SampleFiles {
 public:
  explicit Hdf5SampleFiles(std::vector<std::string> paths)
      : paths_(std::move(paths)), open_(paths_.size()) {
    // Silences the constructing (main) thread too: libhdf5 prints "infinite loop closing
    // library" at exit only where that thread's error printing is on.
    Hdf5Lock lock;
  }
  ~Hdf5SampleFiles() {
    Hdf5Lock lock;
    open_.clear();
  }

  // Reads sample `index` of file `file` into `buffer` (grown as needed, reused); returns
  // its bytes. Throws IoError naming the file and sample.
  uint64_t ReadSample(uint32_t file, uint64_t index, std::vector<unsigned char>& buffer) {
    Hdf5Lock lock;
    CachedHdf5File& f = Get(file);
    if (index >= f.shape.num_samples)
      throw IoError(fmt::format("HDF5 file '{}' has {} samples; sample {} does not exist",
                                paths_[file], f.shape.num_samples, index),
                    0);
    if (buffer.size() < f.shape.sample_bytes) {
      try {
        buffer.resize(f.shape.sample_bytes);
      } catch (const std::bad_alloc&) {  // a damaged shape, more often than a real sample
        throw IoError(fmt::format("HDF5 file '{}': a sample of dataset '{}' is {} bytes, more "
                                  "than memory holds; is the file damaged?",
                                  paths_[file], f.shape.dataset, f.shape.sample_bytes),
                      0);
      }
    }
    f.start[0] = index;
    const hid_t space = f.handles.space;
    if (H5Sselect_hyperslab(space, H5S_SELECT_SET, f.start.data(), nullptr, f.count.data(),
                            nullptr) < 0 ||
        H5Dread(f.handles.dataset, f.handles.mem_type, f.mem_space, space, H5P_DEFAULT,
                buffer.data()) < 0)
      throw IoError(fmt::format("HDF5 read of sample {} (dataset '{}') failed in '{}': {}", index,
                                f.shape.dataset, paths_[file], Hdf5LastError()),
                    0);
    return f.shape.sample_bytes;
  }

  uint64_t Opens() const { return opens_.load(std::memory_order_relaxed); }
  const std::string& path(uint32_t file) const { return paths_[file]; }

 private:
  CachedHdf5File& Get(uint32_t file) {  // with the lock held
    auto& slot = open_[file];
    if (!slot) {
      auto f = std::make_unique<CachedHdf5File>();
      opens_.fetch_add(1, std::memory_order_relaxed);
      OpenSamples(paths_[file], f->handles, f->shape);
      const int rank = H5Sget_simple_extent_ndims(f->handles.space);
      f->start.assign(static_cast<size_t>(rank), 0);
      f->count.resize(static_cast<size_t>(rank));
      H5Sget_simple_extent_dims(f->handles.space, f->count.data(), nullptr);
      f->count[0] = 1;
      const hsize_t elements = f->shape.sample_bytes / H5Tget_size(f->handles.mem_type);
      f->mem_space = H5Screate_simple(1, &elements, nullptr);
      slot = std::move(f);
    }
    return *slot;
  }

  std::vector<std::string> paths_;
  std::vector<std::unique_ptr<CachedHdf5File>> open_;
  std::atomic<uint64_t> opens_{0};
};

class Hdf5SampleQueue : public storage::SyncReadQueue {
 public:
  explicit Hdf5SampleQueue(Hdf5SampleFiles& files) : SyncReadQueue(1), files_(files) {}
  void Submit(const storage::ReadRequest& r) override {
    const uint64_t t0 = NowNanoseconds();
    storage::ReadCompletion& c = Finished(r);
    try {
      c.bytes = files_.ReadSample(r.object, r.sample, buffer_);
    } catch (const std::exception& e) {
      c.error = e.what();
    }
    c.latency_ns = NowNanoseconds() - t0;
  }

 private:
  Hdf5SampleFiles& files_;
  std::vector<unsigned char> buffer_;  // one whole sample
};

class Hdf5SampleReader : public storage::ReadEngine {
 public:
  explicit Hdf5SampleReader(std::vector<std::string> paths) : files_(std::move(paths)) {
    capabilities_.local_paths = true;
    capabilities_.whole_samples = true;
  }
  std::unique_ptr<storage::ReadQueue> NewQueue(unsigned) override {
    return std::make_unique<Hdf5SampleQueue>(files_);
  }
  const storage::ReadEngineCapabilities& Capabilities() const override { return capabilities_; }
  std::string Describe() const override { return "libhdf5 hyperslab"; }
  uint64_t Opens() const override { return files_.Opens(); }
  std::string DescribeObject(uint32_t object) const override { return files_.path(object); }

 private:
  Hdf5SampleFiles files_;
  storage::ReadEngineCapabilities capabilities_;
};

}  // namespace

std::unique_ptr<storage::ReadEngine> OpenHdf5SampleReader(storage::Storage& storage,
                                                          const storage::ObjectNames& objects) {
  std::vector<std::string> paths;
  paths.reserve(objects.size());
  for (size_t i = 0; i < objects.size(); ++i) {
    const std::string o(objects[i]);
    const auto local = storage.LocalPath(o);
    if (!local)
      throw UsageError(
          fmt::format("hdf5 datasets must be on a file system (libhdf5 opens paths); {} is not one",
                      storage.Describe(o)));
    paths.push_back(*local);
  }
  return std::make_unique<Hdf5SampleReader>(std::move(paths));
}

}  // namespace trainbench::formats

// Reads samples of DLIO-layout HDF5 files through libhdf5, as h5py does: one hyperslab
// per sample (row `i` of the dataset `records_0`, or `records` in older DLIO files).
// libhdf5 is not reentrant, so every call holds one process-wide lock; callers are the
// read scheduler's threads, never the event loop. Files stay open until destruction.
// Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace trainbench::loader {

// The shape of an open file's sample dataset, as the reader needs it. (Where samples lie
// in a file, for a run's plan, is formats::Hdf5Format::Scan's: the one scan of a file.)
struct Hdf5Shape {
  std::string dataset;  // "records_0" or "records"
  uint64_t num_samples = 0;
  uint64_t sample_bytes = 0;
  // Byte offset of sample 0 in the file when the dataset is stored contiguously
  // (uncompressed, unchunked: sample i is at data_offset + i x sample_bytes).
  std::optional<uint64_t> data_offset;
};

class Hdf5Reader {
 public:
  explicit Hdf5Reader(std::vector<std::string> local_paths);
  ~Hdf5Reader();
  Hdf5Reader(const Hdf5Reader&) = delete;
  Hdf5Reader& operator=(const Hdf5Reader&) = delete;

  // Reads sample `index` of file `file` into `buffer` (grown as needed, reused);
  // returns its bytes. Throws IoError naming the file and sample.
  uint64_t ReadSample(size_t file, uint64_t index, std::vector<unsigned char>& buffer);

 private:
  struct OpenFile;
  OpenFile& Get(size_t file);  // with the lock held
  std::vector<std::string> paths_;
  std::vector<std::unique_ptr<OpenFile>> open_;
};

}  // namespace trainbench::loader

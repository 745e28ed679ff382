// hdf5: one HDF5 file per dataset file with datasets records_0 (uint8, shape
// (num_samples, sample_bytes)) and labels (int64 zeros, (num_samples,)), as DLIO's hdf5
// generator lays them out (it names the records dataset "records"; Scan takes both).
// dataset.enable_chunking chunks records_0 by dataset.chunk_size bytes (whole rows when
// the chunk holds one or more, else part of one row); dataset.compression gzip deflates
// the chunks at dataset.compression_level (chunking by rows if none is set).
// Extents: contiguous records_0 gives row i at H5Dget_offset + i * sample_bytes; chunks
// of whole uncompressed rows give each row's place in its chunk; otherwise a sample
// has no single byte range and none is recorded.
// The file is built in memory (HDF5's core driver) and written through Storage whole,
// so it works on any storage and commits atomically; it costs the file's size in memory
// per writing thread. Immutable after construction; thread-safe.
#pragma once

#include <cstdint>

#include "formats/format.h"

namespace trainbench::formats {

struct Hdf5Layout {
  bool chunked = false;
  uint64_t chunk_bytes = 0;  // 0: one row per chunk
  int gzip_level = -1;       // < 0: no compression
};

class Hdf5Format : public FileFormat {
 public:
  explicit Hdf5Format(Hdf5Layout layout) : layout_(layout) {}
  config::Format format() const override { return config::Format::kHdf5; }
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;

 private:
  Hdf5Layout layout_;
};

}  // namespace trainbench::formats

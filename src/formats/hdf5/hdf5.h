// hdf5: one HDF5 file per dataset file with datasets records_0 (uint8, shape
// (num_samples, side, side), side = floor(sqrt(sample bytes))) and labels (int64 zeros,
// (num_samples,)), as DLIO's hdf5 generator lays them out and its reader reads them
// (records_0[i]), and `records`, a second hard link to records_0's dataset: DLIO 2.0.0
// (PyPI's release) writes and reads that name. Scan and the reader take records_0, else
// records (DLIO 2.0.0's files, trainbench's before the link), so a file is one set of
// samples whichever names it has, and any rank with samples on the first axis (older
// trainbench files are 2-D).
// dataset.enable_chunking chunks records_0 by dataset.chunk_size bytes (whole samples
// when the chunk holds one or more, else lines of one sample); dataset.compression gzip
// deflates the chunks at dataset.compression_level (one sample a chunk if no size is set).
// Extents: contiguous records_0 gives sample i at H5Dget_offset + i * sample_bytes;
// chunks of whole uncompressed samples give each sample's place in its chunk; otherwise
// a sample has no single byte range and Write records none, while Scan (what a run
// uses: libhdf5 reads the samples) gives sample i at i * sample_bytes, its place in the
// uncompressed dataset, so that an epoch still accounts each sample's bytes.
// The file is built in memory (HDF5's core driver) and written through Storage whole,
// so it works on any storage and commits atomically; it costs the file's size in memory
// per writing thread. Immutable after construction; thread-safe.
#pragma once

#include <cstdint>

#include "formats/format.h"

namespace trainbench::formats {

const FormatDescription& Hdf5Description();

struct Hdf5Layout {
  bool chunked = false;
  uint64_t chunk_bytes = 0;  // 0: one row per chunk
  int gzip_level = -1;       // < 0: no compression
};

class Hdf5Format : public FileFormat {
 public:
  explicit Hdf5Format(Hdf5Layout layout) : layout_(layout) {}
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;

 private:
  Hdf5Layout layout_;
};

}  // namespace trainbench::formats

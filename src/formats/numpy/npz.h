// npz: a numpy zip as np.savez writes it, with members x.npy (uint8, shape
// (num_samples, sample_bytes)) and y.npy (int64 labels, zeros as DLIO writes them).
// With dataset.compression none the members are STORED and sample i's extent is row i
// of x inside the archive: x's data offset + its npy header + i * sample_bytes. With a
// compression set they are DEFLATEd at dataset.compression_level (np.savez_compressed)
// and samples have no fixed place, so no extents are recorded.
// Immutable after construction; thread-safe.
#pragma once

#include "formats/format.h"

namespace trainbench::formats {

const FormatDescription& NpzDescription();

class NpzFormat : public FileFormat {
 public:
  // level < 0 stores members uncompressed; 0..9 deflates them at that zlib level.
  explicit NpzFormat(int deflate_level) : deflate_level_(deflate_level) {}
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;

 private:
  int deflate_level_;
};

}  // namespace trainbench::formats

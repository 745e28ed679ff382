// npy: one numpy array per file, uint8 of shape (num_samples, sample_bytes), as np.save
// writes it (format version 1.0, header padded to 64 bytes). Sample i is row i:
// header_bytes + i * sample_bytes. Rows rather than DLIO's (dim1, dim2, num_samples)
// so that each sample is one contiguous read, which is what a sample-wise reader does.
// Stateless; thread-safe.
#pragma once

#include "formats/format.h"

namespace trainbench::formats {

const FormatDescription& NpyDescription();

class NpyFormat : public FileFormat {
 public:
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;
};

}  // namespace trainbench::formats

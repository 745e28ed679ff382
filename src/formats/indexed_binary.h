// indexed_binary (and mmap_indexed_binary, the same files read through mmap): a data
// file of samples back to back (seeded random bytes), and two index files beside it
// named as DLIO's indexed_binary generator names them, "<data file>.off.idx" and
// "<data file>.sz.idx", each one uint64 per sample (little-endian): its offset and its
// size in the data file. Samples are side^2 bytes, side = floor(sqrt(record_length_bytes)),
// one size per file, as DLIO writes them. A sample's extent is that range. All three are committed
// whole; the index files go first, so a data file under its final name has its indexes. Stateless;
// thread-safe.
#pragma once

#include <string>

#include "formats/format.h"

namespace trainbench::formats {

const FormatDescription& IndexedBinaryDescription();
const FormatDescription& MmapIndexedBinaryDescription();

class IndexedBinaryFormat : public FileFormat {
 public:
  // IndexedBinaryDescription() or MmapIndexedBinaryDescription(): same files, different
  // reader.
  explicit IndexedBinaryFormat(const FormatDescription& description) : description_(description) {}
  const FormatDescription& description() const override { return description_; }
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;

  static std::string OffsetIndexPath(const std::string& data_path) {
    return data_path + ".off.idx";
  }
  static std::string SizeIndexPath(const std::string& data_path) { return data_path + ".sz.idx"; }

 private:
  const FormatDescription& description_;
};

}  // namespace trainbench::formats

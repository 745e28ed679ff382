// TFRecord: records framed as [u64 length][u32 masked crc32c(length)][data]
// [u32 masked crc32c(data)], each data a tf.train.Example with features "image"
// (bytes) and "size" (int64: DLIO's dimension, the configured side, in every record), as
// DLIO writes them. A sample's extent is its whole
// record, framing included: that is what TensorFlow's reader reads. Beside each file,
// DLIO's DALI index (tfrecord_index.h) is a companion.
#pragma once

#include "formats/format.h"

namespace trainbench::formats {

const FormatDescription& TfrecordDescription();

class TfrecordFormat : public FileFormat {
 public:
  // `size_feature`: DLIO's "dimension", SquareSide(record_length_bytes).
  explicit TfrecordFormat(uint64_t size_feature) : size_feature_(size_feature) {}
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;

 private:
  uint64_t size_feature_;
};

}  // namespace trainbench::formats

// png: one PNG image per file (libpng), 8-bit grayscale noise; see image_layout.h for
// the size rule. The sample is the whole file, which is what an image reader reads.
// Stateless; thread-safe.
#pragma once

#include "formats/format.h"

namespace trainbench::formats {

const FormatDescription& PngDescription();

class PngFormat : public FileFormat {
 public:
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;
};

// Walks a PNG's chunks (length, type, CRC-32) from the signature to IEND; returns "" or
// what is wrong, with the offset of the bad chunk in *offset.
std::string CheckPngChunks(const unsigned char* data, size_t size, uint64_t* offset);

}  // namespace trainbench::formats

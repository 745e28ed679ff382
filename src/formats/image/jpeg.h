// jpeg: one JPEG image per file (libjpeg-turbo), 8-bit grayscale noise at quality 75
// (PIL's default, which DLIO's generator uses); see image_layout.h for the size rule.
// The sample is the whole file, which is what a framework's image reader reads.
// Stateless; thread-safe (a TurboJPEG handle per call).
#pragma once

#include "formats/format.h"

namespace trainbench::formats {

const FormatDescription& JpegDescription();

class JpegFormat : public FileFormat {
 public:
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;
};

// Walks a JPEG's marker segments from SOI to EOI (the end of the data); returns "" or
// what is wrong, with its offset in *offset. Decoders skip much damage silently; the
// walk finds where the structure breaks.
std::string CheckJpegMarkers(const unsigned char* data, size_t size, uint64_t* offset);

}  // namespace trainbench::formats

// JPEG decoding with libjpeg-turbo for real training: reads the header, then decodes only
// the region a crop needs (whole iMCU columns, skipped rows above, stops below) at a DCT
// scale of n/8, so a 500x375 ImageNet image cropped to 224x224 costs a fraction of a full
// decode. Output is 8-bit RGB (grayscale is expanded, Adobe CMYK converted).
// Not thread-safe: one JpegDecoder per thread; it reuses its libjpeg state between images.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace trainbench::image {

struct JpegHeader {
  int width = 0;
  int height = 0;
};

// Pixels [x, x + width) x [y, y + height) of the image decoded at scale_eighths / 8.
struct DecodedRegion {
  int x = 0;  // where the region starts in the scaled image; may be left of what was asked
  int y = 0;
  int width = 0;
  int height = 0;
  int scaled_image_width = 0;  // the whole image at this scale
  int scaled_image_height = 0;
  std::vector<uint8_t> rgb;  // width x height x 3, row-major
};

class JpegDecoder {
 public:
  JpegDecoder();
  // As if compiled against jpeglib.h of `header_version` (JPEG_LIB_VERSION, e.g. 62 or 80):
  // tests provoke the library-mismatch error with it. Throws RuntimeError naming libjpeg's
  // message when the library refuses.
  explicit JpegDecoder(int header_version);
  ~JpegDecoder();
  JpegDecoder(const JpegDecoder&) = delete;
  JpegDecoder& operator=(const JpegDecoder&) = delete;

  // Parses the header of `data` (which must stay alive until Decode returns).
  // Throws RuntimeError naming `name` when it is not a readable JPEG.
  JpegHeader ReadHeader(const uint8_t* data, size_t size, const std::string& name);

  // Decodes the image whose header was just read, at scale_eighths/8 (1..8), covering at
  // least the scaled-image region [x0, x1) x [y0, y1). Reuses `out`'s memory.
  void Decode(int scale_eighths, int x0, int y0, int x1, int y1, DecodedRegion& out);

 private:
  struct State;
  std::unique_ptr<State> state_;
  bool created_ = false;
  std::string name_;
};

// Size of a `size`-pixel side decoded at n/8, as libjpeg computes it (rounded up).
inline int ScaledSize(int size, int scale_eighths) { return (size * scale_eighths + 7) / 8; }

}  // namespace trainbench::image

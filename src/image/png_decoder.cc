#include "image/png_decoder.h"

#include <png.h>

#include <cstring>

#include "common/error.h"

namespace trainbench::image {

bool LooksLikePng(const uint8_t* data, size_t size) {
  static constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  return size >= sizeof kSignature && std::memcmp(data, kSignature, sizeof kSignature) == 0;
}

void DecodePng(const uint8_t* data, size_t size, const std::string& name, DecodedRegion& out) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  // On failure libpng frees what it allocated and leaves the reason in image.message.
  if (!png_image_begin_read_from_memory(&image, data, size))
    throw RuntimeError(name + ": not a readable PNG: libpng: " + image.message);
  image.format = PNG_FORMAT_RGB;
  out.x = out.y = 0;
  out.width = out.scaled_image_width = static_cast<int>(image.width);
  out.height = out.scaled_image_height = static_cast<int>(image.height);
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr))
    throw RuntimeError(name + ": PNG decode failed: libpng: " + image.message);
}

}  // namespace trainbench::image

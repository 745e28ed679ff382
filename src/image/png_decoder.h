// Whole-image PNG decoding for real training: ImageNet's train set holds PNGs named .JPEG,
// which training must decode by content, not by name. libpng's simplified API reports errors
// as a message (no longjmp reaches our frames). Output is 8-bit RGB: grey is expanded, alpha
// composited onto black, 16-bit channels reduced.
// Thread-safe: a pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "image/jpeg_decoder.h"

namespace trainbench::image {

// Does `data` start with the PNG signature?
bool LooksLikePng(const uint8_t* data, size_t size);

// Decodes the whole image into `out` (x = y = 0, scaled sizes = the image's). Throws
// RuntimeError naming `name` and libpng's message when it is not a readable PNG.
void DecodePng(const uint8_t* data, size_t size, const std::string& name, DecodedRegion& out);

}  // namespace trainbench::image

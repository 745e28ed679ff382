// What the image formats (jpeg, png) share: one image per file, its size from the
// sample size, its pixels from the seed, and the whole file as the extent of every
// sample. DLIO counts num_samples_per_file samples in each image file and decodes the
// whole image for each, so a run reads the whole file once per sample as DLIO does.
// Images are 8-bit grayscale squares of DLIO's side, floor(sqrt(sample_bytes)), and the
// pixels are seeded noise: DLIO writes the same (np.random.randint into PIL), so file
// sizes match DLIO's datasets (noise JPEG at quality 75 is about 0.57 bytes per pixel,
// PNG about 1). Smooth patterns would look more like photos but shrink files several-fold
// below what the workload's record_length_bytes asks a storage system to serve.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/format.h"

namespace trainbench::formats {

// The image side for a sample size (at least 1).
uint32_t ImageSide(uint64_t sample_bytes);

// side * side seeded noise pixels.
std::vector<unsigned char> NoisePixels(uint64_t seed, uint32_t side);

// A written image file: `num_samples` samples, each the whole file.
WrittenFile WholeFileSample(const std::string& path, uint64_t size_bytes, uint64_t num_samples);

// Checks what Verify checks for every image: the size and the whole-file extents.
// Throws RuntimeError naming `name`.
void CheckWholeFileSample(const WrittenFile& expected, uint64_t size, const std::string& name,
                          std::string_view kind);

}  // namespace trainbench::formats

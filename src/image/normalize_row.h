// One row of TrainTransform::Normalize into channel planes with AVX2: eight pixels a step,
// deinterleaved with byte shuffles, then value * scale[c] + shift[c] in floats. The scalar
// loop it replaces is bound by a table load per value.
#pragma once

#include <cstdint>

namespace trainbench::image {

// Whether this CPU can run PlanarRowAvx2 (false off x86-64).
bool HavePlanarRowAvx2();

// Writes output pixels [0, n) of an RGB row of `width` pixels to the planes r, g and b, where
// n is `width` rounded down to a multiple of 8; returns n. With `flip` output pixel x comes
// from source pixel width - 1 - x. The caller writes pixels [n, width).
int PlanarRowAvx2(const uint8_t* row, int width, bool flip, const float* scale, const float* shift,
                  float* r, float* g, float* b);

}  // namespace trainbench::image

// torchvision's RandomResizedCrop box choice (scale 0.08..1 of the area, aspect ratio 3/4..4/3,
// ten tries, then a centre crop clamped to that ratio), drawn from trainbench's seeded
// generator so a seed gives the same boxes on every platform.
// Thread-safe as long as each thread passes its own Random.
#pragma once

#include "common/random.h"

namespace trainbench::image {

// A crop in whole source pixels.
struct CropBox {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
};

CropBox RandomResizedCropBox(int width, int height, Random& random);

}  // namespace trainbench::image

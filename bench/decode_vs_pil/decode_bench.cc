// trainbench's side of bench/decode_vs_pil: the training transform (JPEG decode of the crop's
// region with DCT scaling, RandomResizedCrop, flip, normalise to floats) on one core over
// JPEGs held in memory, so only decode and augmentation are timed, not storage.
// Usage: trainbench_decode_bench DIR [SIZE=224] [SECONDS=5] [dct|nodct] [floats|bytes]
// `bytes` stops before normalising, as `train --data`'s loader does (it normalises on the
// device): bench/fidelity.sh times reader.preprocess_time with it.
// Prints one JSON line: {"images_per_second": ..., "images": ..., "files": ..., ...}.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/random.h"
#include "image/image_folder.h"
#include "image/train_transform.h"

int main(int argc, char** argv) {
  using namespace trainbench;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [SIZE=224] [SECONDS=5] [dct|nodct] [floats|bytes]\n",
                 argv[0]);
    return 2;
  }
  const int size = argc > 2 ? std::stoi(argv[2]) : 224;
  const double seconds = argc > 3 ? std::stod(argv[3]) : 5.0;
  const bool dct = argc > 4 ? std::string(argv[4]) != "nodct" : true;
  const bool bytes = argc > 5 && std::string(argv[5]) == "bytes";
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1]))
    if (image::HasImageExtension(entry.path().string())) names.push_back(entry.path().string());
  std::sort(names.begin(), names.end());
  std::vector<std::vector<uint8_t>> files;
  for (const auto& name : names) {
    std::ifstream in(name, std::ios::binary);
    files.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (files.empty()) {
    std::fprintf(stderr, "no JPEGs in %s\n", argv[1]);
    return 1;
  }
  image::TrainTransform transform({size, dct, false});
  std::vector<float> out(static_cast<size_t>(3 * size * size));
  std::vector<uint8_t> out_bytes(out.size());
  Random random(1);
  double checksum = 0;
  int64_t images = 0;
  const double start = NowSeconds();
  double now = start;
  // Whole passes over the files, so every image weighs the same.
  while (now - start < seconds) {
    for (size_t i = 0; i < files.size(); ++i, ++images) {
      const size_t at = static_cast<size_t>(images) % out.size();
      if (bytes) {
        transform.ApplyToBytes(files[i].data(), files[i].size(), names[i], random,
                               out_bytes.data());
        checksum += out_bytes[at];
      } else {
        transform.Apply(files[i].data(), files[i].size(), names[i], random, out.data());
        checksum += out[at];
      }
    }
    now = NowSeconds();
  }
  const double elapsed = now - start;
  fmt::print(
      "{{\"images_per_second\": {:.2f}, \"images\": {}, \"files\": {}, \"elapsed_seconds\": "
      "{:.3f}, "
      "\"size\": {}, \"dct_scaling\": {}, \"output\": \"{}\", \"checksum\": {:.3f}}}\n",
      static_cast<double>(images) / elapsed, images, files.size(), elapsed, size, dct,
      bytes ? "bytes" : "floats", checksum);
  return 0;
}

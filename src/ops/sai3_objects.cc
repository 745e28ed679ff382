#include "ops/sai3_objects.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace trainbench::ops {
namespace {

constexpr uint64_t kSizeSeed = 0x736169332d73697a;  // "sai3-siz"

uint64_t Power(uint64_t base, uint64_t exponent) {
  uint64_t out = 1;
  for (uint64_t i = 0; i < exponent; ++i) out *= base;
  return out;
}

// dir_mask with its first %d the level (1-based) and its second the place among siblings.
std::string FolderName(const std::string& mask, uint64_t level, uint64_t place) {
  std::string out = mask;
  for (const uint64_t n : {level, place}) {
    const size_t at = out.find("%d");
    if (at == std::string::npos) break;
    out.replace(at, 2, std::to_string(n));
  }
  return out;
}

}  // namespace

uint64_t DrawObjectSize(const config::Sai3Sizes& sizes, Random& random) {
  if (sizes.type == "uniform" && sizes.max > sizes.min)
    return sizes.min + random.Below(sizes.max - sizes.min + 1);
  if (sizes.type == "lognormal") {
    // The normal's parameters that give the lognormal this mean and standard deviation.
    const double m = sizes.mean, s = sizes.std_dev;
    const double sigma2 = std::log1p((s * s) / (m * m));
    const double mu = std::log(m) - sigma2 / 2;
    const double x = std::exp(mu + std::sqrt(sigma2) * random.Normal());
    return std::clamp(static_cast<uint64_t>(std::llround(x)), sizes.min, sizes.max);
  }
  return sizes.min;
}

uint64_t TreeFolders(const config::Sai3Tree& tree) {
  if (tree.width == 0) return 1;
  if (tree.bottom) return Power(tree.width, tree.depth);
  uint64_t n = 0;
  for (uint64_t level = 1; level <= tree.depth; ++level) n += Power(tree.width, level);
  return n;
}

std::string TreeFolder(const config::Sai3Tree& tree, uint64_t index) {
  if (tree.width == 0) return "";
  uint64_t level = tree.depth;
  if (!tree.bottom) {  // every level's folders, level 1's first
    level = 1;
    while (index >= Power(tree.width, level)) index -= Power(tree.width, level++);
  }
  std::string path;
  for (uint64_t l = 1; l <= level; ++l) {
    const uint64_t place = index / Power(tree.width, level - l) % tree.width + 1;
    path += FolderName(tree.dir_mask, l, place) + "/";
  }
  return path;
}

std::vector<PlannedObject> PlanObjectSet(const config::Sai3Config& config, size_t set) {
  const config::Sai3ObjectSet& s = config.ensure_objects[set];
  const uint64_t folders = TreeFolders(config.tree);
  std::vector<PlannedObject> out(s.count);
  for (uint64_t i = 0; i < s.count; ++i) {
    Random random(Mix(Mix(kSizeSeed, set), i));
    out[i].path = fmt::format("{}prepared-{:08}.dat", TreeFolder(config.tree, i % folders), i);
    out[i].size = DrawObjectSize(s.sizes, random);
  }
  return out;
}

nlohmann::json ObjectSetKey(const config::Sai3Config& config, size_t set) {
  const config::Sai3ObjectSet& s = config.ensure_objects[set];
  const config::Sai3Tree& t = config.tree;
  return {{"sai3_objects", s.count},
          {"sizes", {s.sizes.type, s.sizes.min, s.sizes.max, s.sizes.mean, s.sizes.std_dev}},
          {"fill", s.zero_fill ? "zero" : "random"},
          {"tree", {t.width, t.depth, t.files_per_dir, t.bottom, t.dir_mask}}};
}

}  // namespace trainbench::ops

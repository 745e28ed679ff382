#include "loader/sample_reads.h"

#include <algorithm>

namespace trainbench::loader {

size_t UnitOf(std::span<const formats::ReadUnit> units, uint64_t sample) {
  const auto after =
      std::upper_bound(units.begin(), units.end(), sample,
                       [](uint64_t s, const formats::ReadUnit& u) { return s < u.first_sample; });
  return after == units.begin() ? 0 : static_cast<size_t>(after - units.begin()) - 1;
}

SampleRead ReadOf(const dataset::FileTable& files, const std::vector<SampleRef>& plan, size_t index,
                  uint32_t file_offset) {
  const SampleRef ref = plan[index];
  const size_t file = ref.file + file_offset;
  const auto units = files.Units(file);
  SampleRead read;
  if (units.empty()) {
    read.own = files.ExtentOf(file, ref.sample);
    return read;
  }
  const size_t unit = UnitOf(units, ref.sample);
  if (index > 0) {
    const SampleRef previous = plan[index - 1];
    if (previous.file == ref.file && UnitOf(units, previous.sample) == unit) return read;
  }
  read.unit = &units[unit];
  return read;
}

uint64_t SameUnitRun(const dataset::FileTable& files, const std::vector<SampleRef>& plan,
                     uint64_t index, uint64_t limit, uint32_t file_offset, bool sequential) {
  const SampleRef ref = plan[index];
  const auto units = files.Units(ref.file + file_offset);
  if (units.empty()) return 1;
  const formats::ReadUnit& unit = units[UnitOf(units, ref.sample)];
  if (sequential) {
    // Entries of one file are consecutive samples there: if the entry where the unit (or
    // the limit) ends is the sample it must be, every entry before it is too.
    const uint64_t n =
        std::min<uint64_t>(unit.first_sample + unit.num_samples - ref.sample, limit - index);
    const SampleRef last = plan[index + n - 1];
    if (last.file == ref.file && last.sample == ref.sample + n - 1) return n;
  }
  uint64_t end = index + 1;
  while (end < limit && plan[end].file == ref.file && plan[end].sample >= unit.first_sample &&
         plan[end].sample - unit.first_sample < unit.num_samples)
    ++end;
  return end - index;
}

}  // namespace trainbench::loader

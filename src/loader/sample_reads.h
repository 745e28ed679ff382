// What reading one sample of an accelerator's phase plan moves: the sample's extent, or,
// in a file read a unit at a time (Parquet row groups: formats/format.h's ReadUnit), its
// unit's extents when the accelerator's previous sample came from another unit, and
// nothing when it came from the same one: the reader keeps the unit it read last and
// serves the unit's other samples from it, as DLIO's Parquet reader keeps the row group it
// read. The read scheduler issues these reads and the run counts them as requested bytes,
// both from this one definition. Pure functions over the resolved files; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dataset/file_table.h"
#include "formats/format.h"
#include "loader/sampler.h"

namespace trainbench::loader {

struct SampleRead {
  const formats::ReadUnit* unit = nullptr;  // read the unit's extents, else `own`
  formats::SampleExtent own{};              // the sample's extent (0 bytes: nothing to read)
  size_t Count() const { return unit ? unit->extents.size() : (own.length > 0 ? 1 : 0); }
  const formats::SampleExtent& At(size_t i) const { return unit ? unit->extents[i] : own; }
  uint64_t Bytes() const { return unit ? unit->Bytes() : own.length; }
};

// Index in `units` (a file's, not empty) of the unit holding `sample`.
size_t UnitOf(std::span<const formats::ReadUnit> units, uint64_t sample);

// What plan[index] reads; SampleRef::file + file_offset indexes `files`.
SampleRead ReadOf(const dataset::FileTable& files, const std::vector<SampleRef>& plan, size_t index,
                  uint32_t file_offset);

// How many plan entries from `index` (before `limit`, at least 1) lie in the read unit of
// plan[index]: the samples one read serves. 1 where the file has no units. `sequential`
// (loader/sampler.h's SequentialWithinFiles of the plan's options): the run is found by
// looking at its last entry, in constant time, instead of walking a row group's 8,192 rows.
uint64_t SameUnitRun(const dataset::FileTable& files, const std::vector<SampleRef>& plan,
                     uint64_t index, uint64_t limit, uint32_t file_offset, bool sequential = false);

}  // namespace trainbench::loader

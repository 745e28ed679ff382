// Where the samples of an array file (npy, npz member, hdf5 dataset) lie, shared by the
// array formats. trainbench writes shape (num_samples, sample_bytes), one contiguous
// row per sample. DLIO writes (dim1, dim2, num_samples), samples on the last axis, so
// a sample's bytes interleave with the others': for such files the data region is split
// into equal extents, which keeps the bytes read per file right (a DLIO reader loads
// the whole array anyway) though not each sample's exact bytes.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/format.h"

namespace trainbench::formats {

// The one sample size of an array file; throws RuntimeError if the plan gave several.
uint64_t UniformSampleBytes(const FileSpec& spec);

// Extents of `num_samples` rows of `row_bytes` starting at `data_offset`.
std::vector<SampleExtent> RowExtents(uint64_t data_offset, uint64_t num_samples,
                                     uint64_t row_bytes);

// Extents of the samples of an array with `shape` and `item_bytes`-byte elements stored
// from `data_offset`: rows for 2-D, the last axis for 3-D and more, one sample for 1-D.
std::vector<SampleExtent> ArraySampleExtents(const std::vector<uint64_t>& shape,
                                             uint64_t item_bytes, uint64_t data_offset);

// How many samples ArraySampleExtents finds in an array of `shape`.
uint64_t ArraySampleCount(const std::vector<uint64_t>& shape);

}  // namespace trainbench::formats

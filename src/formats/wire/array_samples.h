// Where the samples of an array file (npy, npz member, hdf5 dataset) lie, shared by the
// array formats. trainbench writes DLIO's shapes: npy and npz x (side, side, num_samples),
// samples on the last axis as DLIO's readers take them (x[..., i]); hdf5 records_0
// (num_samples, side, side). Older trainbench files are (num_samples, sample_bytes).
// On the last axis a sample's bytes are strided across the whole array (one byte in every
// num_samples), which no byte extent describes. DLIO's npy/npz readers load the whole
// array and slice it; trainbench instead gives sample i the i-th of num_samples equal
// contiguous shares of the array: each sample reads its own size, an epoch reads every
// byte of the array once in large sequential pieces, and no file is read num_samples
// times over (as DLIO's on-demand reader would).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/format.h"

namespace trainbench::formats {

// DLIO's "dimension" of a sample of `bytes`: floor(sqrt(bytes)), at least 1 (114660 bytes
// give 338). Arrays and images hold side x side samples.
uint64_t SquareSide(uint64_t bytes);

// The one sample size of an array file; throws RuntimeError if the plan gave several.
uint64_t UniformSampleBytes(const FileSpec& spec);

// Extents of `num_samples` rows of `row_bytes` starting at `data_offset`.
std::vector<SampleExtent> RowExtents(uint64_t data_offset, uint64_t num_samples,
                                     uint64_t row_bytes);

// DLIO's npy/npz shape for the spec's samples: (side, side, num_samples). Throws
// RuntimeError unless every sample is the same square size.
std::vector<uint64_t> DlioArrayShape(const FileSpec& spec);

// "(338, 338, 4)", for error messages.
std::string ShapeText(const std::vector<uint64_t>& shape);

// Extents of the samples of an array with `shape` and `item_bytes`-byte elements stored
// from `data_offset`: rows for 2-D, the last axis for 3-D and more, one sample for 1-D.
std::vector<SampleExtent> ArraySampleExtents(const std::vector<uint64_t>& shape,
                                             uint64_t item_bytes, uint64_t data_offset);

// How many samples ArraySampleExtents finds in an array of `shape`.
uint64_t ArraySampleCount(const std::vector<uint64_t>& shape);

}  // namespace trainbench::formats

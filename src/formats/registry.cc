#include <fmt/format.h>

#include "common/error.h"
#include "formats/csv.h"
#include "formats/format.h"
#include "formats/hdf5.h"
#include "formats/indexed_binary.h"
#include "formats/jpeg.h"
#include "formats/npy.h"
#include "formats/npz.h"
#include "formats/png.h"
#include "formats/tfrecord.h"

namespace trainbench::formats {

FormatTraits TraitsOf(config::Format format) {
  using config::Format;
  switch (format) {
    case Format::kNpz:
    case Format::kNpy:
    case Format::kHdf5:
      return {.uniform_sample_size = true, .square_samples = true};
    case Format::kJpeg:
    case Format::kPng:
      return {.uniform_sample_size = true, .square_samples = true, .whole_file_samples = true};
    case Format::kCsv:  // DLIO repeats one record in every row of a file
      return {.uniform_sample_size = true};
    default:
      return {};
  }
}

std::unique_ptr<FileFormat> MakeFormat(const config::WorkloadConfig& config) {
  using config::Format;
  switch (config.dataset.format) {
    case Format::kTfrecord:
      return std::make_unique<TfrecordFormat>();
    case Format::kNpy:
      return std::make_unique<NpyFormat>();
    case Format::kNpz: {
      // Any compression deflates: zip members know no other method numpy reads.
      const auto& d = config.dataset;
      return std::make_unique<NpzFormat>(
          d.compression == config::Compression::kNone ? -1 : static_cast<int>(d.compression_level));
    }
    case Format::kHdf5: {
      const auto& d = config.dataset;
      if (d.compression != config::Compression::kNone &&
          d.compression != config::Compression::kGzip)
        throw UsageError(fmt::format(
            "dataset.compression {} is not available for hdf5 (HDF5's C library has gzip built "
            "in, not h5py's other filters); use gzip or none",
            config::ToString(d.compression)));
      return std::make_unique<Hdf5Format>(Hdf5Layout{d.enable_chunking, d.chunk_size,
                                                     d.compression == config::Compression::kGzip
                                                         ? static_cast<int>(d.compression_level)
                                                         : -1});
    }
    case Format::kJpeg:
      return std::make_unique<JpegFormat>();
    case Format::kPng:
      return std::make_unique<PngFormat>();
    case Format::kCsv:
      if (config.dataset.compression != config::Compression::kNone)
        throw UsageError(
            fmt::format("dataset.compression {} is not supported for csv by trainbench; use none",
                        config::ToString(config.dataset.compression)));
      return std::make_unique<CsvFormat>();
    case Format::kIndexedBinary:
    case Format::kMmapIndexedBinary:
      return std::make_unique<IndexedBinaryFormat>(config.dataset.format);
  }
  // Every format has a case above (-Wswitch flags a new one); this is for corrupt values.
  throw UsageError(fmt::format("dataset.format {} is not supported by this build",
                               config::ToString(config.dataset.format)));
}

}  // namespace trainbench::formats

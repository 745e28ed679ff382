// The table of formats. Adding a format: its file in src/formats/ defines its
// FormatDescription (declared in its header), and one line below lists it. An explicit
// table rather than self-registering statics: the core is a static library, and the linker
// drops object files nothing refers to, with their registrations.
#include <fmt/format.h>

#include "common/error.h"
#include "formats/csv.h"
#include "formats/format.h"
#include "formats/hdf5/hdf5.h"
#include "formats/image/jpeg.h"
#include "formats/image/png.h"
#include "formats/indexed_binary.h"
#include "formats/numpy/npy.h"
#include "formats/numpy/npz.h"
#include "formats/parquet/parquet.h"
#include "formats/tfrecord/tfrecord.h"

namespace trainbench::formats {

const std::vector<const FormatDescription*>& AllFormats() {
  // One format a line.
  // clang-format off
  static const std::vector<const FormatDescription*> formats = {
      &TfrecordDescription(),
      &NpzDescription(),
      &NpyDescription(),
      &Hdf5Description(),
      &JpegDescription(),
      &PngDescription(),
      &CsvDescription(),
      &IndexedBinaryDescription(),
      &MmapIndexedBinaryDescription(),
      &ParquetDescription(),
  };
  // clang-format on
  return formats;
}

void SquareValuesLayoutKey(const config::WorkloadConfig&, nlohmann::json& key) {
  key["layout"] = "dlio-square";
}

const FormatDescription& FindFormat(std::string_view name) {
  std::string known;
  for (const auto* d : AllFormats()) {
    if (d->name == name) return *d;
    known += fmt::format("{}{}", known.empty() ? "" : ", ", d->name);
  }
  throw UsageError(
      fmt::format("dataset.format '{}' is not a known format; known: {}", name, known));
}

const FormatDescription& CheckFormat(const config::WorkloadConfig& config) {
  const FormatDescription& d = FindFormat(config.dataset.format);
  if (d.check) d.check(config);
  return d;
}

std::unique_ptr<FileFormat> MakeFormat(const config::WorkloadConfig& config) {
  return CheckFormat(config).make(config);
}

}  // namespace trainbench::formats

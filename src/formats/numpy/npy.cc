#include "formats/numpy/npy.h"

#include <fmt/format.h>

#include "common/error.h"
#include "formats/format.h"
#include "formats/numpy/npy_header.h"
#include "formats/wire/array_samples.h"
#include "formats/wire/block_writer.h"

namespace trainbench::formats {
namespace {
constexpr std::string_view kNpyKind = "npy file";
}  // namespace

WrittenFile NpyFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  const uint64_t num_samples = spec.sample_sizes.size();
  const std::vector<uint64_t> shape = DlioArrayShape(spec);
  const std::string header = EncodeNpyHeader("|u1", shape);
  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  writer.Append(header.data(), header.size());
  writer.AppendRandom(spec.seed, num_samples * shape[0] * shape[1]);
  writer.Flush();
  WrittenFile written{
      spec.path, writer.Offset(), num_samples, ArraySampleExtents(shape, 1, header.size()), {}};
  out->Commit();
  return written;
}

void NpyFormat::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  auto file = storage.Open(expected.path);
  const uint64_t size = file->Size();
  CheckSize(kNpyKind, name, size, expected);
  const NpyHeader header = ReadNpyHeader(*file, 0, name);
  if (header.descr != "|u1")
    ThrowBadFile(kNpyKind, name, 0, fmt::format("dtype '{}', expected '|u1'", header.descr));
  if (header.fortran_order) ThrowBadFile(kNpyKind, name, 0, "array is in Fortran order");
  if (header.shape.size() != 3 || header.shape[0] != header.shape[1] ||
      header.shape[2] != expected.num_samples)
    ThrowBadFile(kNpyKind, name, 0,
                 fmt::format("shape is {}, not DLIO's (side, side, {})", ShapeText(header.shape),
                             expected.num_samples));
  const uint64_t end = header.header_bytes + header.Elements();
  if (end != size)
    ThrowBadFile(kNpyKind, name, std::min(end, size),
                 fmt::format("header says the data ends at {}, the file at {}", end, size));
  const auto extents = ArraySampleExtents(header.shape, 1, header.header_bytes);
  CheckSampleExtents(kNpyKind, name, extents, expected);
}

WrittenFile NpyFormat::Scan(const std::string& path, storage::Storage& storage) const {
  const std::string name = storage.Describe(path);
  auto file = storage.Open(path);
  WrittenFile scanned{path, file->Size(), 0, {}, {}};
  const NpyHeader header = ReadNpyHeader(*file, 0, name);
  const uint64_t item_bytes = NpyItemBytes(header.descr);
  if (item_bytes == 0)
    ThrowBadFile(kNpyKind, name, 0, fmt::format("unsupported dtype '{}'", header.descr));
  const uint64_t end = header.header_bytes + header.Elements() * item_bytes;
  if (end > scanned.size_bytes)
    ThrowBadFile(kNpyKind, name, scanned.size_bytes,
                 fmt::format("data runs to {}, past the end", end));
  scanned.samples = ArraySampleExtents(header.shape, item_bytes, header.header_bytes);
  scanned.num_samples = scanned.samples.size();
  return scanned;
}

const FormatDescription& NpyDescription() {
  static const FormatDescription description{
      .name = "npy",
      .extensions = {"npy"},
      .traits = {.uniform_sample_size = true, .square_samples = true},
      .help = "one numpy array per file (np.save), uint8 (side, side, samples) as DLIO writes it",
      .make = [](const config::WorkloadConfig&) -> std::unique_ptr<FileFormat> {
        return std::make_unique<NpyFormat>();
      },
  };
  return description;
}

const FormatDescription& NpyFormat::description() const { return NpyDescription(); }

}  // namespace trainbench::formats

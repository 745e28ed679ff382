#include "formats/indexed_binary.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "common/error.h"
#include "formats/format.h"
#include "formats/wire/block_writer.h"

namespace trainbench::formats {
namespace {

constexpr std::string_view kIndexedBinaryKind = "indexed binary file";

// The offset and size index files beside the data file at `path`, in its companions' order.
std::vector<std::string> IndexPaths(const std::string& path) {
  return {IndexedBinaryFormat::OffsetIndexPath(path), IndexedBinaryFormat::SizeIndexPath(path)};
}

void WriteIndex(storage::Storage& storage, const std::string& path,
                const std::vector<uint64_t>& values) {
  auto out = storage.Create(path);
  out->Append(values.data(), values.size() * sizeof(uint64_t));  // little-endian hosts only
  out->Commit();
}

std::vector<uint64_t> ReadIndex(storage::Storage& storage, const std::string& path) {
  const std::string name = storage.Describe(path);
  if (!storage.FileSize(path)) ThrowBadFile(kIndexedBinaryKind, name, 0, "index file is missing");
  const auto bytes = storage::ReadAll(storage, path);
  if (bytes.size() % sizeof(uint64_t) != 0)
    ThrowBadFile(kIndexedBinaryKind, name, bytes.size() - bytes.size() % sizeof(uint64_t),
                 fmt::format("{} bytes is not a whole number of uint64 entries", bytes.size()));
  std::vector<uint64_t> values(bytes.size() / sizeof(uint64_t));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Reads both indexes of `path` and checks them against each other and the data size.
std::vector<SampleExtent> ReadExtents(storage::Storage& storage, const std::string& path,
                                      uint64_t data_bytes) {
  const std::string off_path = IndexedBinaryFormat::OffsetIndexPath(path);
  const std::string sz_path = IndexedBinaryFormat::SizeIndexPath(path);
  const auto offsets = ReadIndex(storage, off_path);
  const auto sizes = ReadIndex(storage, sz_path);
  if (offsets.size() != sizes.size())
    ThrowBadFile(kIndexedBinaryKind, storage.Describe(sz_path),
                 8 * std::min(offsets.size(), sizes.size()),
                 fmt::format("{} sizes for {} offsets", sizes.size(), offsets.size()));
  std::vector<SampleExtent> extents(offsets.size());
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] > data_bytes || sizes[i] > data_bytes - offsets[i])
      ThrowBadFile(kIndexedBinaryKind, storage.Describe(off_path), 8 * i,
                   fmt::format("sample {} ({} bytes at {}) runs past the data file's {} bytes", i,
                               sizes[i], offsets[i], data_bytes));
    extents[i] = {offsets[i], sizes[i]};
  }
  return extents;
}

}  // namespace

WrittenFile IndexedBinaryFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  const uint64_t n = spec.sample_sizes.size();
  std::vector<uint64_t> offsets(n);
  uint64_t total = 0;
  for (uint64_t i = 0; i < n; ++i) {
    offsets[i] = total;
    total += spec.sample_sizes[i];
  }
  WrittenFile written{spec.path, total, n, {}, IndexPaths(spec.path)};
  written.samples.resize(n);
  for (uint64_t i = 0; i < n; ++i) written.samples[i] = {offsets[i], spec.sample_sizes[i]};

  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  writer.AppendRandom(spec.seed, total);
  writer.Flush();
  WriteIndex(storage, written.companions[0], offsets);
  WriteIndex(storage, written.companions[1], spec.sample_sizes);
  out->Commit();
  return written;
}

void IndexedBinaryFormat::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  const uint64_t size = storage.FileSize(expected.path).value_or(0);
  CheckSize(kIndexedBinaryKind, name, size, expected);
  const auto extents = ReadExtents(storage, expected.path, size);
  if (extents.size() != expected.num_samples)
    ThrowBadFile(kIndexedBinaryKind, storage.Describe(OffsetIndexPath(expected.path)),
                 8 * std::min<uint64_t>(extents.size(), expected.num_samples),
                 fmt::format("index has {} samples, manifest says {}", extents.size(),
                             expected.num_samples));
  uint64_t next = 0;
  for (size_t i = 0; i < extents.size(); ++i) {
    if (extents[i].offset != next)
      ThrowBadFile(kIndexedBinaryKind, storage.Describe(OffsetIndexPath(expected.path)), 8 * i,
                   fmt::format("sample {} starts at {}, not right after the one before ({})", i,
                               extents[i].offset, next));
    next += extents[i].length;
  }
  // The offsets follow from the sizes (contiguous, above): a sample the manifest puts
  // elsewhere is named at its size entry.
  CheckSampleExtents(kIndexedBinaryKind, storage.Describe(SizeIndexPath(expected.path)), extents,
                     expected, sizeof(uint64_t));
  if (next != size)
    ThrowBadFile(kIndexedBinaryKind, name, next,
                 fmt::format("samples end at {}, the file at {}", next, size));
}

WrittenFile IndexedBinaryFormat::Scan(const std::string& path, storage::Storage& storage) const {
  const auto size = storage.FileSize(path);
  if (!size) ThrowBadFile(kIndexedBinaryKind, storage.Describe(path), 0, "data file is missing");
  WrittenFile scanned{path,
                      *size,
                      0,
                      ReadExtents(storage, path, *size),
                      {OffsetIndexPath(path), SizeIndexPath(path)}};
  scanned.num_samples = scanned.samples.size();
  return scanned;
}

// DLIO's generator writes side^2-byte samples (its "dimension"), one size per file.
constexpr FormatTraits kDlioSamples{.uniform_sample_size = true, .square_samples = true};

// DLIO's two readers of one layout: the data file read with pread, or through mmap.
const FormatDescription& IndexedBinaryDescription() {
  static const FormatDescription description{
      .name = "indexed_binary",
      .extensions = {"indexed_binary", "bin"},
      .traits = kDlioSamples,
      .help = "samples back to back with .off.idx and .sz.idx index files beside the data",
      .make = [](const config::WorkloadConfig&) -> std::unique_ptr<FileFormat> {
        return std::make_unique<IndexedBinaryFormat>(IndexedBinaryDescription());
      },
      .layout_key = SquareValuesLayoutKey,
      .companions = IndexPaths,
  };
  return description;
}

const FormatDescription& MmapIndexedBinaryDescription() {
  static const FormatDescription description{
      .name = "mmap_indexed_binary",
      .extensions = {"mmap_indexed_binary", "bin"},
      .traits = kDlioSamples,
      .help = "indexed_binary's files, which DLIO reads through mmap",
      .make = [](const config::WorkloadConfig&) -> std::unique_ptr<FileFormat> {
        return std::make_unique<IndexedBinaryFormat>(MmapIndexedBinaryDescription());
      },
      .layout_key = SquareValuesLayoutKey,
      .companions = IndexPaths,
  };
  return description;
}

}  // namespace trainbench::formats

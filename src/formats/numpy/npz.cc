#include "formats/numpy/npz.h"

#include <fmt/format.h>
#include <zip.h>

#include <memory>

#include "common/error.h"
#include "common/random.h"
#include "formats/format.h"
#include "formats/numpy/npy_header.h"
#include "formats/wire/array_samples.h"
#include "formats/wire/block_writer.h"
#include "formats/wire/crc32c.h"
#include "formats/zip/zip_directory.h"
#include "formats/zip/zip_writer.h"

namespace trainbench::formats {
namespace {
constexpr size_t kChunkBytes = 1 << 20;
constexpr uint64_t kLabelBytes = 8;  // int64

constexpr std::string_view kNpzKind = "npz file";

// The CRC-32 of the random stream's first `size` bytes. The local header of a STORED
// member needs it before the data, so the stream is generated twice: once here in a
// cache-sized buffer, once into the output. Cheaper than holding the file in memory.
uint32_t RandomStreamCrc(uint64_t seed, uint64_t size, uint32_t crc) {
  std::vector<unsigned char> chunk(std::min<uint64_t>(size, kChunkBytes));
  for (uint64_t done = 0; done < size;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(size - done, chunk.size()));
    FillRandom(seed, done, chunk.data(), n);
    crc = Crc32(chunk.data(), n, crc);
    done += n;
  }
  return crc;
}

uint32_t ZerosCrc(uint64_t size, uint32_t crc) {
  const std::vector<unsigned char> zeros(std::min<uint64_t>(size, kChunkBytes), 0);
  for (uint64_t done = 0; done < size;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(size - done, zeros.size()));
    crc = Crc32(zeros.data(), n, crc);
    done += n;
  }
  return crc;
}

void AppendZeros(BlockWriter& writer, uint64_t size) {
  for (uint64_t done = 0; done < size;) {
    size_t n = 0;
    unsigned char* dst = writer.Space(size - done, &n);
    std::fill(dst, dst + n, 0);
    writer.Advance(n);
    done += n;
  }
}

void DeflateMember(ZipWriter& zip, const std::string& member, int level, const std::string& header,
                   uint64_t seed, uint64_t payload, bool random) {
  zip.BeginDeflated(member, level);
  zip.Deflate(header.data(), header.size());
  std::vector<unsigned char> chunk(std::min<uint64_t>(payload, kChunkBytes), 0);
  for (uint64_t done = 0; done < payload;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(payload - done, chunk.size()));
    if (random) FillRandom(seed, done, chunk.data(), n);
    zip.Deflate(chunk.data(), n);
    done += n;
  }
  zip.EndDeflated();
}

// libzip reads every member through (checking its CRC-32) and returns its npy header.
// An implementation other than the writer's, so a layout mistake cannot hide.
struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

NpyHeader CheckMemberWithLibzip(zip_t* archive, const ZipMember& member, const std::string& name) {
  std::unique_ptr<zip_file_t, ZipFileCloser> file(zip_fopen(archive, member.name.c_str(), 0));
  if (!file)
    ThrowBadFile(kNpzKind, name, member.header_offset,
                 fmt::format("libzip cannot open {}: {}", member.name, zip_strerror(archive)));
  std::vector<unsigned char> chunk(kChunkBytes);
  NpyHeader header;
  uint64_t total = 0;
  for (;;) {
    const zip_int64_t n = zip_fread(file.get(), chunk.data(), chunk.size());
    if (n < 0)
      ThrowBadFile(
          kNpzKind, name, member.data_offset,
          fmt::format("member {} (data at offsets {}..{}): {}", member.name, member.data_offset,
                      member.data_offset + member.compressed_bytes, zip_file_strerror(file.get())));
    if (n == 0) break;
    if (total == 0) {
      size_t needed = 0;
      const std::string error =
          ParseNpyHeader(chunk.data(), static_cast<size_t>(n), &header, &needed);
      if (!error.empty())
        ThrowBadFile(kNpzKind, name, member.data_offset,
                     fmt::format("member {}: {}", member.name, error));
    }
    total += static_cast<uint64_t>(n);
  }
  const uint64_t item = NpyItemBytes(header.descr);
  if (total != header.header_bytes + header.Elements() * item)
    ThrowBadFile(kNpzKind, name, member.data_offset,
                 fmt::format("member {} holds {} bytes, its npy header says {}", member.name, total,
                             header.header_bytes + header.Elements() * item));
  return header;
}
}  // namespace

WrittenFile NpzFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  const uint64_t num_samples = spec.sample_sizes.size();
  const std::vector<uint64_t> shape = DlioArrayShape(spec);
  const uint64_t sample_bytes = shape[0] * shape[1];
  const std::string x_header = EncodeNpyHeader("|u1", shape);
  const std::string y_header = EncodeNpyHeader("<i8", {num_samples});
  const uint64_t x_payload = num_samples * sample_bytes;
  const uint64_t y_payload = num_samples * kLabelBytes;

  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  ZipWriter zip(writer);
  WrittenFile written{spec.path, 0, num_samples, {}, {}};
  if (deflate_level_ < 0) {
    const uint32_t x_crc =
        RandomStreamCrc(spec.seed, x_payload, Crc32(x_header.data(), x_header.size()));
    const uint64_t x_data =
        zip.BeginStored("x.npy", x_header.size() + x_payload, x_crc) + x_header.size();
    writer.Append(x_header.data(), x_header.size());
    writer.AppendRandom(spec.seed, x_payload);
    zip.EndStored();
    const uint32_t y_crc = ZerosCrc(y_payload, Crc32(y_header.data(), y_header.size()));
    zip.BeginStored("y.npy", y_header.size() + y_payload, y_crc);
    writer.Append(y_header.data(), y_header.size());
    AppendZeros(writer, y_payload);
    zip.EndStored();
    written.samples = ArraySampleExtents(shape, 1, x_data);
  } else {
    DeflateMember(zip, "x.npy", deflate_level_, x_header, spec.seed, x_payload, true);
    DeflateMember(zip, "y.npy", deflate_level_, y_header, spec.seed, y_payload, false);
  }
  zip.Finish();
  writer.Flush();
  written.size_bytes = writer.Offset();
  out->Commit();
  return written;
}

void NpzFormat::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  auto file = storage.Open(expected.path);
  const uint64_t size = file->Size();
  CheckSize(kNpzKind, name, size, expected);
  const auto members = ReadZipDirectory(*file, name);
  const ZipMember x = FindZipMember(members, "x.npy", name);
  const ZipMember y = FindZipMember(members, "y.npy", name);

  auto data = storage::ReadAll(storage, expected.path);
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(data.data(), data.size(), 0, &error);
  if (!source)
    ThrowBadFile(kNpzKind, name, 0, fmt::format("libzip: {}", zip_error_strerror(&error)));
  std::unique_ptr<zip_t, ZipCloser> archive(
      zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error));
  if (!archive) {
    zip_source_free(source);
    const std::string what = zip_error_strerror(&error);
    zip_error_fini(&error);
    ThrowBadFile(kNpzKind, name, 0, fmt::format("libzip cannot open the archive: {}", what));
  }
  zip_error_fini(&error);

  const NpyHeader xh = CheckMemberWithLibzip(archive.get(), x, name);
  if (xh.descr != "|u1" || xh.fortran_order || xh.shape.size() != 3 || xh.shape[0] != xh.shape[1] ||
      xh.shape[2] != expected.num_samples)
    ThrowBadFile(kNpzKind, name, x.data_offset,
                 fmt::format("x.npy is not uint8 (side, side, {}) as DLIO writes it: dtype '{}', "
                             "shape {}",
                             expected.num_samples, xh.descr, ShapeText(xh.shape)));
  const NpyHeader yh = CheckMemberWithLibzip(archive.get(), y, name);
  if (yh.descr != "<i8" || yh.shape != std::vector<uint64_t>{expected.num_samples})
    ThrowBadFile(
        kNpzKind, name, y.data_offset,
        fmt::format("y.npy is not int64 ({},): dtype '{}'", expected.num_samples, yh.descr));

  if (expected.samples.empty()) return;
  if (x.method != 0)
    ThrowBadFile(kNpzKind, name, x.header_offset,
                 "manifest has sample extents but x.npy is compressed");
  const auto extents = ArraySampleExtents(xh.shape, 1, x.data_offset + xh.header_bytes);
  CheckSampleExtents(kNpzKind, name, extents, expected);
}

WrittenFile NpzFormat::Scan(const std::string& path, storage::Storage& storage) const {
  const std::string name = storage.Describe(path);
  auto file = storage.Open(path);
  WrittenFile scanned{path, file->Size(), 0, {}, {}};
  const auto members = ReadZipDirectory(*file, name);
  const ZipMember x = FindZipMember(members, "x.npy", name);
  NpyHeader header;
  if (x.method == 0) {
    header = ReadNpyHeader(*file, x.data_offset, name);
  } else {
    const auto prefix = ReadZipMemberPrefix(*file, x, 64 * 1024, name);
    size_t needed = 0;
    const std::string error = ParseNpyHeader(prefix.data(), prefix.size(), &header, &needed);
    if (!error.empty())
      ThrowBadFile(kNpzKind, name, x.data_offset, fmt::format("member x.npy: {}", error));
  }
  const uint64_t item = NpyItemBytes(header.descr);
  if (item == 0)
    ThrowBadFile(kNpzKind, name, x.data_offset,
                 fmt::format("unsupported dtype '{}'", header.descr));
  if (header.header_bytes + header.Elements() * item != x.uncompressed_bytes)
    ThrowBadFile(kNpzKind, name, x.data_offset, "x.npy's size does not match its npy header");
  scanned.num_samples = ArraySampleCount(header.shape);
  if (x.method == 0)
    scanned.samples = ArraySampleExtents(header.shape, item, x.data_offset + header.header_bytes);
  return scanned;
}

const FormatDescription& NpzDescription() {
  static const FormatDescription description{
      .name = "npz",
      .extensions = {"npz"},
      .traits = {.uniform_sample_size = true, .square_samples = true},
      .help =
          "numpy zip (np.savez): x, uint8 (side, side, samples), and y labels; any "
          "dataset.compression deflates",
      .make = [](const config::WorkloadConfig& config) -> std::unique_ptr<FileFormat> {
        // Any compression deflates: zip members know no other method numpy reads.
        const auto& d = config.dataset;
        return std::make_unique<NpzFormat>(d.compression == config::Compression::kNone
                                               ? -1
                                               : static_cast<int>(d.compression_level));
      },
  };
  return description;
}

const FormatDescription& NpzFormat::description() const { return NpzDescription(); }

}  // namespace trainbench::formats

#include "formats/image/png.h"

#include <fmt/format.h>
#include <png.h>

#include <cstring>

#include "common/error.h"
#include "formats/format.h"
#include "formats/image/image_layout.h"
#include "formats/wire/array_samples.h"
#include "formats/wire/crc32c.h"

namespace trainbench::formats {
namespace {
constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

constexpr std::string_view kPngKind = "PNG file";

uint32_t GetBig32(const unsigned char* p) {
  return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) |
         (static_cast<uint32_t>(p[2]) << 8) | p[3];
}

// libpng's simplified API reports failure in the image struct, never by longjmp through
// our frames; this frees what it holds on every path.
struct PngImage {
  png_image image{};
  PngImage() { image.version = PNG_IMAGE_VERSION; }
  ~PngImage() { png_image_free(&image); }
};
}  // namespace

std::string CheckPngChunks(const unsigned char* data, size_t size, uint64_t* offset) {
  *offset = 0;
  if (size < sizeof(kSignature) || std::memcmp(data, kSignature, sizeof(kSignature)) != 0)
    return "no PNG signature";
  size_t at = sizeof(kSignature);
  bool first = true;
  while (at < size) {
    *offset = at;
    if (size - at < 12) return "truncated chunk header";
    const uint32_t length = GetBig32(data + at);
    if (length > size - at - 12) return "chunk runs past the end";
    const std::string type(reinterpret_cast<const char*>(data + at + 4), 4);
    if (first && type != "IHDR") return "first chunk is not IHDR";
    first = false;
    if (GetBig32(data + at + 8 + length) != Crc32(data + at + 4, 4 + length))
      return fmt::format("{} chunk CRC mismatch", type);
    at += 12 + length;
    if (type == "IEND") return at == size ? "" : "data after IEND";
  }
  *offset = size;
  return "no IEND chunk: the file ends early";
}

WrittenFile PngFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  const uint32_t side = ImageSide(UniformSampleBytes(spec));
  const auto pixels = NoisePixels(spec.seed, side);
  PngImage png;
  png.image.width = side;
  png.image.height = side;
  png.image.format = PNG_FORMAT_GRAY;
  // Noise does not compress: the fast setting costs no size and much less CPU.
  png.image.flags = PNG_IMAGE_FLAG_FAST;
  png_alloc_size_t bytes = 0;
  if (!png_image_write_to_memory(&png.image, nullptr, &bytes, 0, pixels.data(), 0, nullptr))
    throw RuntimeError(fmt::format("{}: PNG encoding failed: {}", spec.path, png.image.message));
  std::vector<unsigned char> encoded(bytes);
  if (!png_image_write_to_memory(&png.image, encoded.data(), &bytes, 0, pixels.data(), 0, nullptr))
    throw RuntimeError(fmt::format("{}: PNG encoding failed: {}", spec.path, png.image.message));
  auto out = storage.Create(spec.path);
  out->Append(encoded.data(), bytes);
  out->Commit();
  return WholeFileSample(spec.path, bytes, spec.sample_sizes.size());
}

void PngFormat::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  const auto data = storage::ReadAll(storage, expected.path);
  CheckWholeFileSample(expected, data.size(), name, kPngKind);
  uint64_t offset = 0;
  if (const std::string error = CheckPngChunks(data.data(), data.size(), &offset); !error.empty())
    ThrowBadFile(kPngKind, name, offset, error);
  PngImage png;
  if (!png_image_begin_read_from_memory(&png.image, data.data(), data.size()))
    ThrowBadFile(kPngKind, name, 0, fmt::format("header does not decode: {}", png.image.message));
  if (png.image.width != png.image.height || png.image.format != PNG_FORMAT_GRAY)
    ThrowBadFile(kPngKind, name, 0,
                 fmt::format("image is {}x{} with format {}, expected a grayscale square",
                             png.image.width, png.image.height, png.image.format));
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(png.image));
  if (!png_image_finish_read(&png.image, nullptr, pixels.data(), 0, nullptr))
    ThrowBadFile(kPngKind, name, 0, fmt::format("image does not decode: {}", png.image.message));
}

WrittenFile PngFormat::Scan(const std::string& path, storage::Storage& storage) const {
  auto file = storage.Open(path);
  unsigned char magic[sizeof(kSignature)] = {};
  if (file->ReadAt(0, magic, sizeof(magic)) != sizeof(magic) ||
      std::memcmp(magic, kSignature, sizeof(kSignature)) != 0)
    ThrowBadFile(kPngKind, storage.Describe(path), 0, "no PNG signature");
  return WholeFileSample(path, file->Size(), 1);
}

const FormatDescription& PngDescription() {
  static const FormatDescription description{
      .name = "png",
      .extensions = {"png"},
      .traits = {.uniform_sample_size = true, .square_samples = true, .whole_file_samples = true},
      .help = "one grayscale PNG image per file; every sample of it is the whole file",
      .make = [](const config::WorkloadConfig&) -> std::unique_ptr<FileFormat> {
        return std::make_unique<PngFormat>();
      },
  };
  return description;
}

const FormatDescription& PngFormat::description() const { return PngDescription(); }

}  // namespace trainbench::formats

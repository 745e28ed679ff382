#include "formats/image/jpeg.h"

#include <fmt/format.h>
#include <turbojpeg.h>

#include <memory>

#include "common/error.h"
#include "formats/format.h"
#include "formats/image/image_layout.h"
#include "formats/wire/array_samples.h"

namespace trainbench::formats {
namespace {
constexpr int kQuality = 75;

constexpr std::string_view kJpegKind = "JPEG file";

struct TjCloser {
  void operator()(void* handle) const { tjDestroy(handle); }
};
using TjHandle = std::unique_ptr<void, TjCloser>;
struct TjFree {
  void operator()(unsigned char* p) const { tjFree(p); }
};

bool IsRestartOrFill(unsigned char marker) {
  return marker == 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0xff;
}
}  // namespace

std::string CheckJpegMarkers(const unsigned char* data, size_t size, uint64_t* offset) {
  *offset = 0;
  if (size < 4 || data[0] != 0xff || data[1] != 0xd8) return "no SOI marker";
  size_t at = 2;
  bool seen_frame = false;
  while (at + 2 <= size) {
    *offset = at;
    if (data[at] != 0xff) return fmt::format("expected a marker, found byte 0x{:02x}", data[at]);
    const unsigned char marker = data[at + 1];
    if (marker == 0xd9) return at + 2 == size ? "" : "data after the EOI marker";
    if (at + 4 > size) break;
    const size_t length = (static_cast<size_t>(data[at + 2]) << 8) | data[at + 3];
    if (length < 2 || at + 2 + length > size) return "marker segment runs past the end";
    if (marker == 0xc0 || marker == 0xc1 || marker == 0xc2) seen_frame = true;
    at += 2 + length;
    if (marker != 0xda) continue;
    if (!seen_frame) return "scan before any frame header";
    // Entropy-coded data: 0xff is followed by 0x00 (a stuffed byte), a restart marker,
    // or the marker that ends the scan.
    while (at + 1 < size && !(data[at] == 0xff && !IsRestartOrFill(data[at + 1]))) ++at;
  }
  *offset = size;
  return "no EOI marker: the file ends early";
}

WrittenFile JpegFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  const uint32_t side = ImageSide(UniformSampleBytes(spec));
  const auto pixels = NoisePixels(spec.seed, side);
  TjHandle tj(tjInitCompress());
  if (!tj) throw RuntimeError(fmt::format("{}: TurboJPEG: {}", spec.path, tjGetErrorStr2(nullptr)));
  unsigned char* jpeg = nullptr;
  unsigned long jpeg_bytes = 0;  // NOLINT(runtime/int): TurboJPEG's type
  const int rc =
      tjCompress2(tj.get(), pixels.data(), static_cast<int>(side), 0, static_cast<int>(side),
                  TJPF_GRAY, &jpeg, &jpeg_bytes, TJSAMP_GRAY, kQuality, 0);
  const std::unique_ptr<unsigned char, TjFree> owned(jpeg);
  if (rc != 0)
    throw RuntimeError(
        fmt::format("{}: JPEG encoding failed: {}", spec.path, tjGetErrorStr2(tj.get())));
  auto out = storage.Create(spec.path);
  out->Append(jpeg, jpeg_bytes);
  out->Commit();
  return WholeFileSample(spec.path, jpeg_bytes, spec.sample_sizes.size());
}

void JpegFormat::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  const auto data = storage::ReadAll(storage, expected.path);
  CheckWholeFileSample(expected, data.size(), name, kJpegKind);
  uint64_t offset = 0;
  if (const std::string error = CheckJpegMarkers(data.data(), data.size(), &offset); !error.empty())
    ThrowBadFile(kJpegKind, name, offset, error);
  TjHandle tj(tjInitDecompress());
  if (!tj) throw RuntimeError(fmt::format("{}: TurboJPEG: {}", name, tjGetErrorStr2(nullptr)));
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(tj.get(), data.data(), data.size(), &width, &height, &subsampling,
                          &colorspace) != 0)
    ThrowBadFile(kJpegKind, name, 0,
                 fmt::format("header does not decode: {}", tjGetErrorStr2(tj.get())));
  if (width != height || colorspace != TJCS_GRAY)
    ThrowBadFile(kJpegKind, name, 0,
                 fmt::format("image is {}x{} in colorspace {}, expected a grayscale square", width,
                             height, colorspace));
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * static_cast<size_t>(height));
  // Warnings (corrupt data the decoder skipped) count as errors.
  if (tjDecompress2(tj.get(), data.data(), data.size(), pixels.data(), width, 0, height, TJPF_GRAY,
                    TJFLAG_STOPONWARNING) != 0)
    ThrowBadFile(kJpegKind, name, 0,
                 fmt::format("image does not decode: {}", tjGetErrorStr2(tj.get())));
}

WrittenFile JpegFormat::Scan(const std::string& path, storage::Storage& storage) const {
  auto file = storage.Open(path);
  unsigned char magic[2] = {0, 0};
  if (file->ReadAt(0, magic, 2) != 2 || magic[0] != 0xff || magic[1] != 0xd8)
    ThrowBadFile(kJpegKind, storage.Describe(path), 0, "no SOI marker");
  return WholeFileSample(path, file->Size(), 1);
}

const FormatDescription& JpegDescription() {
  static const FormatDescription description{
      .name = "jpeg",
      .extensions = {"jpeg", "jpg"},
      .traits = {.uniform_sample_size = true, .square_samples = true, .whole_file_samples = true},
      .help = "one grayscale JPEG image per file; every sample of it is the whole file",
      .make = [](const config::WorkloadConfig&) -> std::unique_ptr<FileFormat> {
        return std::make_unique<JpegFormat>();
      },
  };
  return description;
}

const FormatDescription& JpegFormat::description() const { return JpegDescription(); }

}  // namespace trainbench::formats

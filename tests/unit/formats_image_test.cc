#include <gtest/gtest.h>

#include "format_test_support.h"
#include "formats/image/image_layout.h"
#include "formats/image/jpeg.h"
#include "formats/image/png.h"

namespace trainbench::formats {
namespace {

// The same tests for both image formats.
class ImageTest : public FormatTest, public ::testing::WithParamInterface<std::string> {
 protected:
  std::unique_ptr<FileFormat> Make() const {
    if (GetParam() == "jpeg") return std::make_unique<JpegFormat>();
    return std::make_unique<PngFormat>();
  }
  std::string Name(const std::string& stem) const {
    return stem + (GetParam() == "jpeg" ? ".jpg" : ".png");
  }
};

TEST(ImageLayoutTest, SideFollowsTheSampleSize) {
  // DLIO's side, floor(sqrt): resnet50's record_length_bytes give 338, not 339.
  EXPECT_EQ(ImageSide(114660), 338u);
  EXPECT_EQ(ImageSide(114243), 337u);
  EXPECT_EQ(ImageSide(10000), 100u);
  EXPECT_EQ(ImageSide(0), 1u);
  EXPECT_EQ(ImageSide(uint64_t{1} << 40), 65500u);  // JPEG cannot go wider
}

TEST_P(ImageTest, RoundTripsAsOneWholeFileSample) {
  const auto format = Make();
  const FileSpec spec{Name("train/a"), 5, {40000}};
  const WrittenFile written = format->Write(spec, storage());
  EXPECT_EQ(written.num_samples, 1u);
  ASSERT_EQ(written.samples.size(), 1u);
  EXPECT_EQ(written.samples[0].offset, 0u);
  EXPECT_EQ(written.samples[0].length, written.size_bytes);
  EXPECT_EQ(written.size_bytes, Bytes(spec.path).size());
  // 200x200 noise: JPEG about 0.57 bytes a pixel, PNG a little over 1.
  EXPECT_GT(written.size_bytes, 15000u);
  EXPECT_LT(written.size_bytes, 42000u);
  EXPECT_EQ(VerifyError(*format, written, storage()), "");
  ExpectSameExtents(written, format->Scan(spec.path, storage()));
}

TEST_P(ImageTest, SameSeedSameBytes) {
  const auto format = Make();
  format->Write({Name("a"), 1, {5000}}, storage());
  format->Write({Name("b"), 1, {5000}}, storage());
  format->Write({Name("c"), 2, {5000}}, storage());
  EXPECT_EQ(Bytes(Name("a")), Bytes(Name("b")));
  EXPECT_NE(Bytes(Name("a")), Bytes(Name("c")));
}

TEST_P(ImageTest, VerifyNamesTheDamage) {
  const auto format = Make();
  const std::string path = Name("a");
  const WrittenFile written = format->Write({path, 1, {20000}}, storage());
  FlipByte(path, 0);
  EXPECT_NE(VerifyError(*format, written, storage()).find("offset 0"), std::string::npos);
  EXPECT_THROW(format->Scan(path, storage()), RuntimeError);

  // Cut short, with the manifest agreeing on the size: the structure walk finds the end.
  format->Write({path, 1, {20000}}, storage());
  const uint64_t cut = written.size_bytes / 2;
  Truncate(path, cut);
  WrittenFile shorter = written;
  shorter.size_bytes = cut;
  shorter.samples = {{0, cut}};
  // JPEG's walk reaches the cut; PNG's names the chunk the cut runs through.
  const std::string error = VerifyError(*format, shorter, storage());
  EXPECT_TRUE(error.find(std::to_string(cut)) != std::string::npos ||
              error.find("runs past the end") != std::string::npos)
      << error;
}

// DLIO counts num_samples_per_file samples in an image file, each the whole image.
TEST_P(ImageTest, SeveralSamplesAreEachTheWholeFile) {
  const auto format = Make();
  const WrittenFile written = format->Write({Name("a"), 1, {10000, 10000, 10000}}, storage());
  EXPECT_EQ(written.num_samples, 3u);
  ASSERT_EQ(written.samples.size(), 3u);
  for (const auto& extent : written.samples) {
    EXPECT_EQ(extent.offset, 0u);
    EXPECT_EQ(extent.length, written.size_bytes);
  }
  EXPECT_EQ(VerifyError(*format, written, storage()), "");
  EXPECT_THROW(Make()->Write({Name("b"), 1, {10000, 9801}}, storage()), RuntimeError);
}

INSTANTIATE_TEST_SUITE_P(Formats, ImageTest, ::testing::Values("jpeg", "png"),
                         [](const auto& param_info) { return param_info.param; });

TEST(PngChunksTest, NamesTheChunkWithABadCrc) {
  // A minimal chunk stream: signature, IHDR with a wrong CRC.
  std::vector<unsigned char> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0,
                                    0,    0,   'I', 'H', 'D',  'R',  1,    2,    3, 4};
  uint64_t offset = 0;
  EXPECT_NE(CheckPngChunks(png.data(), png.size(), &offset).find("IHDR chunk CRC"),
            std::string::npos);
  EXPECT_EQ(offset, 8u);
}

TEST(JpegMarkersTest, AcceptsAMinimalStreamAndFindsStrayBytes) {
  // SOI, SOF0 (length 2, empty), SOS (length 2), entropy bytes with a stuffed 0xff, EOI.
  std::vector<unsigned char> jpeg = {0xff, 0xd8, 0xff, 0xc0, 0, 2,    0xff, 0xda,
                                     0,    2,    1,    0xff, 0, 0xff, 0xd9};
  uint64_t offset = 0;
  EXPECT_EQ(CheckJpegMarkers(jpeg.data(), jpeg.size(), &offset), "");
  jpeg.insert(jpeg.begin() + 6, 0x42);  // a byte where a marker must be
  EXPECT_NE(CheckJpegMarkers(jpeg.data(), jpeg.size(), &offset), "");
  EXPECT_EQ(offset, 6u);
}

}  // namespace
}  // namespace trainbench::formats

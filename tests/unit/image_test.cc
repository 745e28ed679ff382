// Training-image pipeline against Pillow: JPEG decode, crop + bilinear resize (the pixels
// torchvision's RandomResizedCrop produces), DCT-scaled decoding, normalisation, and the
// folder / tar indexing of ImageNet-style datasets. Fixtures and Pillow's reference pixels
// come from tests/fixtures/make_images.py run with /usr/bin/python3.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/random.h"
#include "image/image_folder.h"
#include "image/png_decoder.h"
#include "image/random_resized_crop.h"
#include "image/tar_index.h"
#include "image/train_transform.h"
#include "skip_unless.h"
#include "storage/storage.h"

namespace trainbench::image {
namespace {

namespace fs = std::filesystem;

class ImageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("trainbench_image_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    const std::string command = std::string("/usr/bin/python3 ") + TRAINBENCH_SOURCE_DIR +
                                "/tests/fixtures/make_images.py " + dir_.string();
    status_ = std::system(command.c_str());
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  void SetUp() override {
    TRAINBENCH_SKIP_UNLESS(status_ == 0, "Pillow fixtures unavailable (/usr/bin/python3 with PIL)");
  }

  static std::vector<uint8_t> Read(const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  static fs::path dir_;
  static int status_;
};

fs::path ImageTest::dir_;
int ImageTest::status_ = -1;

struct Difference {
  int max = 0;
  double mean = 0;
};

Difference Compare(const uint8_t* a, const uint8_t* b, size_t n) {
  Difference d;
  double total = 0;
  for (size_t i = 0; i < n; ++i) {
    const int diff = std::abs(int{a[i]} - int{b[i]});
    d.max = std::max(d.max, diff);
    total += diff;
  }
  d.mean = total / static_cast<double>(n);
  return d;
}

TEST_F(ImageTest, FullDecodeMatchesPillow) {
  for (const std::string name : {"photo", "gray"}) {
    const auto jpeg = Read(name + ".jpg");
    const auto expected = Read(name + "_full.rgb");
    JpegDecoder decoder;
    const JpegHeader header = decoder.ReadHeader(jpeg.data(), jpeg.size(), name);
    ASSERT_EQ(static_cast<size_t>(header.width) * header.height * 3, expected.size());
    DecodedRegion region;
    decoder.Decode(8, 0, 0, header.width, header.height, region);
    ASSERT_EQ(region.width, header.width);
    ASSERT_EQ(region.height, header.height);
    const Difference d = Compare(region.rgb.data(), expected.data(), expected.size());
    EXPECT_EQ(d.max, 0) << name;  // same library, same IDCT: identical pixels
  }
}

TEST_F(ImageTest, RegionDecodeEqualsTheSameRegionOfAFullDecode) {
  const auto jpeg = Read("photo.jpg");
  const auto full = Read("photo_full.rgb");
  JpegDecoder decoder;
  decoder.ReadHeader(jpeg.data(), jpeg.size(), "photo");
  DecodedRegion region;
  decoder.Decode(8, 123, 77, 300, 200, region);
  EXPECT_LE(region.x, 123);
  EXPECT_GE(region.x + region.width, 300);
  EXPECT_EQ(region.y, 77);
  EXPECT_EQ(region.height, 123);
  int max_diff = 0;
  // The region asked for (the decoder may return a few columns more, which need not match).
  for (int y = 0; y < region.height; ++y)
    for (int x = (123 - region.x) * 3; x < (300 - region.x) * 3; ++x) {
      const int ours = region.rgb[static_cast<size_t>(y * region.width * 3 + x)];
      const int theirs = full[static_cast<size_t>((region.y + y) * 500 * 3 + region.x * 3 + x)];
      max_diff = std::max(max_diff, std::abs(ours - theirs));
    }
  EXPECT_EQ(max_diff, 0);
}

TEST_F(ImageTest, CropResizeMatchesPillowWithinRounding) {
  const auto jpeg = Read("photo.jpg");
  std::ifstream boxes(dir_ / "boxes.txt");
  int x, y, w, h, s, k = 0;
  while (boxes >> x >> y >> w >> h >> s) {
    const auto expected = Read("box" + std::to_string(k++) + ".rgb");
    for (const bool dct : {false, true}) {
      TrainTransform transform({s, dct, false});
      std::vector<uint8_t> rgb(static_cast<size_t>(s * s * 3));
      const int scale =
          transform.DecodeCropResize(jpeg.data(), jpeg.size(), "photo", {x, y, w, h}, rgb.data());
      const Difference d = Compare(rgb.data(), expected.data(), rgb.size());
      if (!dct) {
        EXPECT_EQ(scale, 8);
        EXPECT_LE(d.max, 2) << "box " << k;
        EXPECT_LT(d.mean, 0.1) << "box " << k;
      } else {
        // DCT scaling low-passes differently from Pillow's triangle filter: close, not equal.
        EXPECT_EQ(scale, ChooseDctScale({x, y, w, h}, s));
        EXPECT_LT(d.mean, 3.0) << "box " << k << " scale " << scale;
      }
    }
  }
  EXPECT_EQ(k, 6);
  EXPECT_EQ(ChooseDctScale({0, 0, 500, 375}, 64), 2);  // 125x94 still covers 64x64
  EXPECT_EQ(ChooseDctScale({0, 0, 250, 250}, 224), 8);
}

TEST_F(ImageTest, NormalizeFlipsAndUsesImageNetStatistics) {
  TrainTransform planar({2, true, false}), interleaved({2, true, true});
  // Two rows of two pixels: (0,0,0) (255,255,255) / (10,20,30) (40,50,60).
  const uint8_t rgb[] = {0, 0, 0, 255, 255, 255, 10, 20, 30, 40, 50, 60};
  float chw[12], hwc[12];
  planar.Normalize(rgb, true, chw);
  interleaved.Normalize(rgb, false, hwc);
  // Flipped: first output pixel is the white one.
  EXPECT_NEAR(chw[0], (1.0 - 0.485) / 0.229, 1e-5);
  EXPECT_NEAR(chw[1], (0.0 - 0.485) / 0.229, 1e-5);
  EXPECT_NEAR(chw[4 + 2], (50 / 255.0 - 0.456) / 0.224, 1e-5);  // G plane, row 1, col 0
  EXPECT_NEAR(hwc[3 * 3 + 2], (60 / 255.0 - 0.406) / 0.225, 1e-5);
}

TEST_F(ImageTest, NormalizeRowsOfEveryLengthMatchTheFormula) {
  // Sizes around the SIMD row's eight-pixel steps, so both it and the scalar tail run.
  for (const int s : {7, 8, 20, 224}) {
    std::vector<uint8_t> rgb(static_cast<size_t>(s * s * 3));
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>(i * 37 + i / 5);
    for (const bool flip : {false, true}) {
      TrainTransform transform({s, true, false});
      std::vector<float> chw(rgb.size());
      transform.Normalize(rgb.data(), flip, chw.data());
      const double mean[] = {0.485, 0.456, 0.406}, std_dev[] = {0.229, 0.224, 0.225};
      for (int c = 0; c < 3; ++c)
        for (int y = 0; y < s; ++y)
          for (int x = 0; x < s; ++x) {
            const int from = flip ? s - 1 - x : x;
            const double v = rgb[static_cast<size_t>((y * s + from) * 3 + c)] / 255.0;
            ASSERT_NEAR(chw[static_cast<size_t>((c * s + y) * s + x)], (v - mean[c]) / std_dev[c],
                        1e-5)
                << "size " << s << " flip " << flip << " c " << c << " y " << y << " x " << x;
          }
    }
  }
}

TEST_F(ImageTest, ApplyIsDeterministicPerSeedAndFlipsHalfTheTime) {
  const auto jpeg = Read("photo.jpg");
  TrainTransform transform({32, true, false});
  std::vector<float> a(32 * 32 * 3), b(a.size());
  Random r1(7), r2(7);
  transform.Apply(jpeg.data(), jpeg.size(), "photo", r1, a.data());
  transform.Apply(jpeg.data(), jpeg.size(), "photo", r2, b.data());
  EXPECT_EQ(a, b);
  for (float v : a) ASSERT_TRUE(std::isfinite(v) && v > -2.2f && v < 2.7f);
}

// The bytes a GPU trainer normalises on the device are the floats Apply gives, flips too.
TEST_F(ImageTest, ApplyToBytesIsApplyBeforeNormalising) {
  const auto jpeg = Read("photo.jpg");
  TrainTransform transform({32, true, false});
  int flips = 0;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    std::vector<float> direct(32 * 32 * 3), via_bytes(direct.size());
    std::vector<uint8_t> bytes(direct.size());
    Random r1(seed), r2(seed), r3(seed);
    transform.Apply(jpeg.data(), jpeg.size(), "photo", r1, direct.data());
    transform.ApplyToBytes(jpeg.data(), jpeg.size(), "photo", r2, bytes.data());
    transform.Normalize(bytes.data(), false, via_bytes.data());
    EXPECT_EQ(direct, via_bytes) << "seed " << seed;
    RandomResizedCropBox(500, 375, r3);
    flips += r3.Uniform() < 0.5;
  }
  EXPECT_GT(flips, 0);  // the seeds above exercise the flipped rows too
}

TEST_F(ImageTest, PngNamedJpegDecodesByContent) {
  const auto png = Read("photo_png.JPEG");
  const auto expected = Read("photo_full.rgb");
  ASSERT_TRUE(LooksLikePng(png.data(), png.size()));
  DecodedRegion region;
  DecodePng(png.data(), png.size(), "photo_png.JPEG", region);
  EXPECT_EQ(region.width, 500);
  EXPECT_EQ(region.height, 375);
  EXPECT_EQ(std::vector<uint8_t>(region.rgb.begin(), region.rgb.begin() + expected.size()),
            expected);
  // The training transform takes it too: the whole-image box is the whole image resized.
  TrainTransform transform({64, true, false});
  std::vector<uint8_t> from_png(64 * 64 * 3), from_pixels(64 * 64 * 3);
  transform.DecodeCropResize(png.data(), png.size(), "photo_png.JPEG", {0, 0, 500, 375},
                             from_png.data());
  Resampler resampler;
  resampler.Resize({expected.data(), 500, 375, 500 * 3}, {0, 0, 500, 375}, 64, 64,
                   from_pixels.data());
  EXPECT_EQ(from_png, from_pixels);
  const std::vector<uint8_t> cut(png.begin(), png.begin() + static_cast<long>(png.size() / 2));
  try {
    DecodePng(cut.data(), cut.size(), "/data/cut.JPEG", region);
    FAIL() << "a truncated PNG decoded";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("/data/cut.JPEG"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("libpng"), std::string::npos) << e.what();
  }
}

// A libjpeg that is not the one the headers describe fails in jpeg_create_decompress; that
// must be an error naming libjpeg's message, not a crash.
TEST(JpegDecoderTest, LibraryVersionMismatchIsAnError) {
  try {
    JpegDecoder decoder(12345);
    FAIL() << "libjpeg accepted version 12345";
  } catch (const RuntimeError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Wrong JPEG library version"), std::string::npos) << what;
    EXPECT_NE(what.find("12345"), std::string::npos) << what;
  }
  JpegDecoder fine;  // the matching version still works
}

TEST_F(ImageTest, CorruptJpegErrorNamesTheFile) {
  const auto bytes = Read("corrupt.jpg");
  TrainTransform transform({32, true, false});
  std::vector<float> out(32 * 32 * 3);
  Random random(1);
  try {
    transform.Apply(bytes.data(), bytes.size(), "/data/corrupt.jpg", random, out.data());
    // A truncated JPEG may still decode (libjpeg pads it, as Pillow does with
    // LOAD_TRUNCATED_IMAGES); what must not happen is a crash or a silent non-JPEG.
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("/data/corrupt.jpg"), std::string::npos);
  }
  const uint8_t text[] = "this is not a jpeg at all";
  EXPECT_THROW(transform.Apply(text, sizeof text, "notes.txt", random, out.data()), RuntimeError);
}

TEST(RandomResizedCropTest, BoxesFollowTorchvisionsRanges) {
  Random random(42);
  int fallbacks = 0;
  for (int i = 0; i < 2000; ++i) {
    const int w = 50 + static_cast<int>(random.Below(600)),
              h = 50 + static_cast<int>(random.Below(600));
    const CropBox b = RandomResizedCropBox(w, h, random);
    ASSERT_GE(b.x, 0);
    ASSERT_GE(b.y, 0);
    ASSERT_LE(b.x + b.width, w);
    ASSERT_LE(b.y + b.height, h);
    const double area = static_cast<double>(b.width) * b.height / (static_cast<double>(w) * h);
    const double ratio = static_cast<double>(b.width) / b.height;
    if (area > 0.999 || ratio < 0.74 || ratio > 1.35) {
      ++fallbacks;
      continue;
    }
    EXPECT_GE(area, 0.07);
    EXPECT_GE(ratio, 0.74);
    EXPECT_LE(ratio, 1.35);
  }
  EXPECT_LT(fallbacks, 200);
  // Fallback for a very wide image: full height, ratio clamped to 4/3, centred.
  Random never(1);
  const CropBox wide = RandomResizedCropBox(4000, 10, never);
  EXPECT_LE(wide.width, 4000);
}

std::multiset<std::pair<std::string, std::string>> ClassesOf(const ImageIndex& index) {
  std::multiset<std::pair<std::string, std::string>> out;
  for (const auto& s : index.samples)
    out.insert({index.classes[static_cast<size_t>(s.label)], s.member.empty() ? s.path : s.member});
  return out;
}

TEST_F(ImageTest, IndexesClassFoldersFromTrain) {
  const ImageIndex index = IndexImages((dir_ / "folder").string());
  EXPECT_EQ(index.classes, (std::vector<std::string>{"cat", "dog"}));
  const auto classes = ClassesOf(index);
  EXPECT_EQ(
      classes,
      (std::multiset<std::pair<std::string, std::string>>{
          {"cat", "train/cat/a.jpg"}, {"cat", "train/cat/b.JPEG"}, {"dog", "train/dog/c.jpeg"}}));
  // Labels are sorted class indices, as torchvision's ImageFolder assigns them.
  EXPECT_EQ(index.samples.front().label, 0);
  EXPECT_EQ(index.samples.back().label, 1);
}

TEST_F(ImageTest, FlatFolderIsOneUnlabelledClass) {
  const ImageIndex index = IndexImages((dir_ / "flat").string());
  EXPECT_EQ(index.samples.size(), 2u);
  EXPECT_EQ(index.classes, (std::vector<std::string>{""}));
}

TEST_F(ImageTest, IndexesTarsAndReadsMembersInPlace) {
  const auto original = Read("small0.jpg");
  const ImageIndex classes = IndexImages((dir_ / "classes.tar").string());
  EXPECT_EQ(classes.classes, (std::vector<std::string>{"bird", "cat", "dog"}));
  EXPECT_EQ(classes.samples.size(), 3u);
  const ImageIndex gnu = IndexImages((dir_ / "gnu.tar").string());
  ASSERT_EQ(gnu.samples.size(), 1u);
  EXPECT_EQ(gnu.samples[0].member, "bird/" + std::string(120, 'x') + ".jpg");

  const ImageIndex imagenet = IndexImages("file://" + (dir_ / "imagenet.tar").string());
  EXPECT_EQ(imagenet.classes, (std::vector<std::string>{"n01", "n02"}));
  ASSERT_EQ(imagenet.samples.size(), 3u);
  SampleReader reader(imagenet);
  std::vector<uint8_t> bytes;
  reader.Read(0, bytes);
  EXPECT_EQ(bytes, original);
  EXPECT_NE(DescribeSample(imagenet, imagenet.samples[0]).find("imagenet.tar:n01_0.JPEG"),
            std::string::npos);

  const ImageIndex folder_of_tars = IndexImages((dir_ / "tars").string());
  EXPECT_EQ(folder_of_tars.classes, (std::vector<std::string>{"n01", "n02"}));
  EXPECT_EQ(folder_of_tars.samples.size(), 3u);
}

TEST_F(ImageTest, ReadsABatchWithSeveralInFlight) {
  const ImageIndex imagenet = IndexImages((dir_ / "imagenet.tar").string());
  ASSERT_EQ(imagenet.samples.size(), 3u);
  SampleReader one(imagenet);
  EXPECT_EQ(one.depth(), 1u);  // a file system: one read at a time, as pread
  std::vector<std::vector<uint8_t>> expected(3);
  for (size_t k = 0; k < 3; ++k) one.Read(k, expected[k]);
  SampleReaderOptions deep;
  deep.depth = 4;
  SampleReader reader(imagenet, deep);
  EXPECT_EQ(reader.depth(), 4u);
  SampleReads reads(reader);
  // Samples repeat within a batch across epochs' boundaries; each arrives once, as asked.
  const std::vector<size_t> batch = {2, 0, 1, 0, 2};
  std::vector<int> seen(batch.size(), 0);
  reads.ReadEach(batch, [&](size_t i, std::vector<uint8_t>& bytes) {
    ++seen[i];
    EXPECT_EQ(bytes, expected[batch[i]]) << i;
  });
  EXPECT_EQ(seen, std::vector<int>(batch.size(), 1));
}

// Counts the reads that reach the file (a remote storage's GETs).
class CountingFile : public storage::RandomAccessFile {
 public:
  explicit CountingFile(std::unique_ptr<storage::RandomAccessFile> file) : file_(std::move(file)) {}
  size_t ReadAt(uint64_t offset, void* buffer, size_t size) override {
    ++reads;
    return file_->ReadAt(offset, buffer, size);
  }
  uint64_t Size() override { return file_->Size(); }
  int reads = 0;

 private:
  std::unique_ptr<storage::RandomAccessFile> file_;
};

TEST_F(ImageTest, TarIndexReadsAheadOnRemoteStorage) {
  // ImageNet's layout (class tars inside the tar): the same members at the same offsets
  // whether each header is a read or one read covers many, with fewer reads.
  auto storage = storage::OpenStorage(dir_.string());
  CountingFile small(storage->Open("imagenet.tar"));
  CountingFile large(storage->Open("imagenet.tar"));
  const auto by_header = ListTar(small, 0, small.Size(), "imagenet.tar", kTarReadBytes);
  const auto ahead = ListTar(large, 0, large.Size(), "imagenet.tar", kRemoteTarReadBytes);
  ASSERT_EQ(by_header.size(), 3u);
  ASSERT_EQ(ahead.size(), by_header.size());
  for (size_t i = 0; i < ahead.size(); ++i) {
    EXPECT_EQ(ahead[i].name, by_header[i].name);
    EXPECT_EQ(ahead[i].enclosing_tar, by_header[i].enclosing_tar);
    EXPECT_EQ(ahead[i].offset, by_header[i].offset);
    EXPECT_EQ(ahead[i].size, by_header[i].size);
  }
  EXPECT_LT(large.reads, small.reads);
}

TEST(ImageLocationTest, S3UrisAreFoldersOrTarObjects) {
  const ImageLocation folder = ResolveImageLocation("s3://bucket/imagenet/");
  EXPECT_EQ(folder.storage_uri, "s3://bucket/imagenet");
  EXPECT_FALSE(folder.is_tar);
  const ImageLocation tar = ResolveImageLocation("s3://bucket/sets/imagenet.tar");
  EXPECT_EQ(tar.storage_uri, "s3://bucket/sets");
  EXPECT_EQ(tar.prefix, "imagenet.tar");
  EXPECT_TRUE(tar.is_tar);
  const ImageLocation top = ResolveImageLocation("s3://bucket/imagenet.tar");
  EXPECT_EQ(top.storage_uri, "s3://bucket");
  EXPECT_EQ(top.prefix, "imagenet.tar");
  // A bucket is a folder, whatever its name.
  const ImageLocation bucket = ResolveImageLocation("s3://photos.tar");
  EXPECT_EQ(bucket.storage_uri, "s3://photos.tar");
  EXPECT_FALSE(bucket.is_tar);
}

TEST_F(ImageTest, NoJpegsIsAUsageErrorNamingTheLocation) {
  fs::create_directories(dir_ / "empty");
  try {
    IndexImages((dir_ / "empty").string());
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos);
  }
  std::ofstream(dir_ / "bad.tar") << std::string(1024, 'z');
  EXPECT_THROW(IndexImages((dir_ / "bad.tar").string()), RuntimeError);
}

}  // namespace
}  // namespace trainbench::image

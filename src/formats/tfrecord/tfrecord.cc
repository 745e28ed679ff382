#include "formats/tfrecord/tfrecord.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "common/random.h"
#include "formats/format.h"
#include "formats/tfrecord/protobuf_wire.h"
#include "formats/tfrecord/tfrecord_index.h"
#include "formats/wire/array_samples.h"
#include "formats/wire/block_writer.h"
#include "formats/wire/crc32c.h"

namespace trainbench::formats {
namespace {
constexpr size_t kHeaderBytes = 12;
constexpr size_t kFooterBytes = 4;

void PutU32(unsigned char* p, uint32_t v) { std::memcpy(p, &v, 4); }  // little-endian hosts only
uint32_t GetU32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t GetU64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

constexpr std::string_view kTfrecordKind = "TFRecord";
}  // namespace

WrittenFile TfrecordFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  WrittenFile written{spec.path, 0, spec.sample_sizes.size(), {}, {}};
  written.samples.reserve(spec.sample_sizes.size());
  uint64_t stream = 0;  // position in the file's random stream
  for (const uint64_t payload : spec.sample_sizes) {
    const std::string prefix = ExamplePrefix(payload, size_feature_);
    const uint64_t data_length = prefix.size() + payload;
    const uint64_t record_offset = writer.Offset();

    unsigned char header[kHeaderBytes];
    std::memcpy(header, &data_length, 8);
    PutU32(header + 8, MaskCrc(Crc32c(header, 8)));
    writer.Append(header, sizeof(header));
    writer.Append(prefix.data(), prefix.size());
    uint32_t crc = Crc32c(prefix.data(), prefix.size());
    for (uint64_t left = payload; left > 0;) {
      size_t n = 0;
      // Fill and checksum 32 KiB at a time so the CRC reads bytes still in L1.
      unsigned char* dst = writer.Space(std::min<uint64_t>(left, 32 << 10), &n);
      FillRandom(spec.seed, stream, dst, n);
      crc = Crc32c(dst, n, crc);
      writer.Advance(n);
      stream += n;
      left -= n;
    }
    unsigned char footer[kFooterBytes];
    PutU32(footer, MaskCrc(crc));
    writer.Append(footer, sizeof(footer));
    written.samples.push_back({record_offset, kHeaderBytes + data_length + kFooterBytes});
  }
  writer.Flush();
  written.size_bytes = writer.Offset();
  // The index first: a data file under its final name has its index.
  written.companions = TfrecordDescription().companions(spec.path);
  WriteTfrecordIndex(storage, written.companions[0], written.samples);
  out->Commit();
  return written;
}

void TfrecordFormat::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  const auto data = storage::ReadAll(storage, expected.path);
  CheckSize(kTfrecordKind, name, data.size(), expected);
  uint64_t pos = 0;
  size_t index = 0;
  while (pos < data.size()) {
    if (data.size() - pos < kHeaderBytes)
      ThrowBadFile(kTfrecordKind, name, pos, "truncated record header");
    const uint64_t length = GetU64(&data[pos]);
    if (GetU32(&data[pos + 8]) != MaskCrc(Crc32c(&data[pos], 8)))
      ThrowBadFile(kTfrecordKind, name, pos, "length CRC mismatch");
    if (length > data.size() - pos - kHeaderBytes - kFooterBytes)
      ThrowBadFile(kTfrecordKind, name, pos, "record runs past end of file");
    const unsigned char* record = &data[pos + kHeaderBytes];
    if (GetU32(record + length) != MaskCrc(Crc32c(record, length)))
      ThrowBadFile(kTfrecordKind, name, pos + kHeaderBytes, "data CRC mismatch");
    ParsedExample example;
    if (!ParseExample(record, length, &example))
      ThrowBadFile(kTfrecordKind, name, pos + kHeaderBytes,
                   "not a tf.train.Example with image and size");
    // The image's length: what trainbench wrote before it wrote DLIO's dimension.
    if (example.size_feature != static_cast<int64_t>(size_feature_) &&
        example.size_feature != static_cast<int64_t>(example.image_length))
      ThrowBadFile(kTfrecordKind, name, pos + kHeaderBytes,
                   fmt::format("size feature {} is not DLIO's dimension {}", example.size_feature,
                               size_feature_));
    if (index < expected.samples.size()) {
      const auto& e = expected.samples[index];
      if (e.offset != pos || e.length != kHeaderBytes + length + kFooterBytes)
        ThrowBadFile(kTfrecordKind, name, pos,
                     fmt::format("record {} is not where the manifest puts it", index));
    }
    pos += kHeaderBytes + length + kFooterBytes;
    ++index;
  }
  if (index != expected.num_samples)
    ThrowBadFile(kTfrecordKind, name, pos,
                 fmt::format("{} records, manifest says {}", index, expected.num_samples));
  for (const auto& companion : expected.companions)
    CheckTfrecordIndex(storage, companion, expected.samples);
}

WrittenFile TfrecordFormat::Scan(const std::string& path, storage::Storage& storage) const {
  auto file = storage.Open(path);
  WrittenFile scanned{path, file->Size(), 0, {}, {}};
  uint64_t pos = 0;
  while (pos < scanned.size_bytes) {
    unsigned char header[kHeaderBytes];
    if (file->ReadAt(pos, header, sizeof(header)) != sizeof(header))
      ThrowBadFile(kTfrecordKind, storage.Describe(path), pos, "truncated record header");
    if (GetU32(header + 8) != MaskCrc(Crc32c(header, 8)))
      ThrowBadFile(kTfrecordKind, storage.Describe(path), pos, "length CRC mismatch");
    const uint64_t record = kHeaderBytes + GetU64(header) + kFooterBytes;
    if (record > scanned.size_bytes - pos)
      ThrowBadFile(kTfrecordKind, storage.Describe(path), pos, "record runs past end of file");
    scanned.samples.push_back({pos, record});
    pos += record;
  }
  scanned.num_samples = scanned.samples.size();
  return scanned;
}

const FormatDescription& TfrecordDescription() {
  static const FormatDescription description{
      .name = "tfrecord",
      .extensions = {"tfrecord"},
      // DLIO's generator writes a side x side image (side = floor(sqrt(record_length))): 114,244
      // bytes for resnet50's 114,660, as the other formats.
      .traits = {.square_samples = true},
      .help = "TFRecord of tf.train.Example records (image bytes, size) and DLIO's DALI index",
      .make = [](const config::WorkloadConfig& config) -> std::unique_ptr<FileFormat> {
        // DLIO's `size` is its dimension, int(sqrt(record_length)), in every record whatever
        // the image drawn (data_generator/tf_generator.py).
        return std::make_unique<TfrecordFormat>(
            SquareSide(static_cast<uint64_t>(config.dataset.record_length_bytes)));
      },
      .companions = [](const std::string& path) -> std::vector<std::string> {
        return {TfrecordIndexPath(path)};
      },
  };
  return description;
}

const FormatDescription& TfrecordFormat::description() const { return TfrecordDescription(); }

}  // namespace trainbench::formats

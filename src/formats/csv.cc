#include "formats/csv.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "common/error.h"
#include "common/random.h"
#include "formats/format.h"
#include "formats/wire/array_samples.h"
#include "formats/wire/block_writer.h"

namespace trainbench::formats {
namespace {
constexpr uint64_t kMaxValue = 254;  // DLIO: np.random.randint(255)

constexpr std::string_view kCsvKind = "CSV file";
// A value 0..254 as text: 2.57 digits on average, and its comma.
constexpr double kBytesPerValue = (10 * 1 + 90 * 2 + 155 * 3) / 255.0 + 1;

// Builds row `row`'s line of `values` values, newline included.
void RowLine(uint64_t seed, uint64_t row, uint64_t values, std::string* line) {
  Random random(Mix(seed, row));
  line->clear();
  char text[4];
  for (uint64_t i = 0; i < values; ++i) {
    if (i > 0) line->push_back(',');
    const auto end = std::to_chars(text, text + sizeof(text), random.Below(kMaxValue + 1)).ptr;
    line->append(text, end);
  }
  line->push_back('\n');
}

// Parses one line at data[pos..) as "v,v,...\n" of values 0..254; returns the offset of
// the first byte past the newline and its value count, or throws naming the bad byte.
uint64_t ParseRow(const std::string& name, const unsigned char* data, uint64_t size, uint64_t pos,
                  uint64_t row, uint64_t* values) {
  const auto* text = reinterpret_cast<const char*>(data);
  const char* p = text + pos;
  *values = 0;
  for (;;) {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(p, text + size, v);
    if (ec != std::errc() || v > kMaxValue)
      ThrowBadFile(kCsvKind, name, static_cast<uint64_t>(p - text),
                   fmt::format("row {} has a value that is not an integer 0..{}", row, kMaxValue));
    p = end;
    ++*values;
    if (p >= text + size || *p != ',') break;
    ++p;
  }
  if (p >= text + size || *p != '\n')
    ThrowBadFile(kCsvKind, name, static_cast<uint64_t>(p - text),
                 fmt::format("row {} does not end in a newline", row));
  return static_cast<uint64_t>(p - text) + 1;
}
}  // namespace

WrittenFile CsvFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  // The plan's sample size is side^2: the values of a line, as DLIO counts them.
  const uint64_t values = UniformSampleBytes(spec);
  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  WrittenFile written{spec.path, 0, spec.sample_sizes.size(), {}, {}};
  written.samples.reserve(spec.sample_sizes.size());
  std::string line;
  for (uint64_t row = 0; row < spec.sample_sizes.size(); ++row) {
    RowLine(spec.seed, row, values, &line);
    written.samples.push_back({writer.Offset(), line.size()});
    writer.Append(line.data(), line.size());
  }
  writer.Flush();
  written.size_bytes = writer.Offset();
  out->Commit();
  return written;
}

void CsvFormat::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  const auto data = storage::ReadAll(storage, expected.path);
  CheckSize(kCsvKind, name, data.size(), expected);
  uint64_t pos = 0, row = 0, columns = 0;
  for (; pos < data.size(); ++row) {
    uint64_t values = 0;
    const uint64_t next = ParseRow(name, data.data(), data.size(), pos, row, &values);
    if (row == 0) columns = values;
    // pandas takes the column count from the first line and rejects longer ones.
    if (values != columns)
      ThrowBadFile(kCsvKind, name, pos,
                   fmt::format("row {} has {} values, the first row {}", row, values, columns));
    if (row < expected.samples.size() &&
        (expected.samples[row].offset != pos || expected.samples[row].length != next - pos))
      ThrowBadFile(kCsvKind, name, pos,
                   fmt::format("row {} is not where the manifest puts it", row));
    pos = next;
  }
  if (row != expected.num_samples)
    ThrowBadFile(kCsvKind, name, pos,
                 fmt::format("{} rows, manifest says {}", row, expected.num_samples));
}

WrittenFile CsvFormat::Scan(const std::string& path, storage::Storage& storage) const {
  // Rows have no index: finding them means reading every byte.
  const std::string name = storage.Describe(path);
  const auto data = storage::ReadAll(storage, path);
  WrittenFile scanned{path, data.size(), 0, {}, {}};
  uint64_t pos = 0;
  // Older trainbench files start with pandas' header line ",0,1,...": not a sample.
  if (!data.empty() && data[0] == ',') {
    const auto header_end = std::find(data.begin(), data.end(), '\n');
    pos = static_cast<uint64_t>(header_end - data.begin()) + (header_end == data.end() ? 0 : 1);
  }
  while (pos < data.size()) {
    const auto newline =
        std::find(data.begin() + static_cast<std::ptrdiff_t>(pos), data.end(), '\n');
    const uint64_t end =
        newline == data.end() ? data.size() : static_cast<uint64_t>(newline - data.begin()) + 1;
    scanned.samples.push_back({pos, end - pos});
    pos = end;
  }
  scanned.num_samples = scanned.samples.size();
  return scanned;
}

const FormatDescription& CsvDescription() {
  static const FormatDescription description{
      .name = "csv",
      .extensions = {"csv"},
      // DLIO repeats one record of side^2 values in every row of a file.
      .traits = {.uniform_sample_size = true,
                 .square_samples = true,
                 .stored_bytes_per_sample_byte = kBytesPerValue},
      .help = "rows of integers, one line per sample, as pandas' to_csv writes them",
      .check =
          [](const config::WorkloadConfig& config) {
            if (config.dataset.compression != config::Compression::kNone)
              throw UsageError(fmt::format(
                  "dataset.compression {} is not supported for csv by trainbench; use none",
                  config::ToString(config.dataset.compression)));
          },
      .make = [](const config::WorkloadConfig&) -> std::unique_ptr<FileFormat> {
        return std::make_unique<CsvFormat>();
      },
      .layout_key = SquareValuesLayoutKey,
  };
  return description;
}

const FormatDescription& CsvFormat::description() const { return CsvDescription(); }

}  // namespace trainbench::formats

#include "formats/csv.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "common/error.h"
#include "common/random.h"
#include "formats/array_samples.h"
#include "formats/block_writer.h"
#include "formats/format.h"

namespace trainbench::formats {
namespace {
constexpr uint64_t kMaxValue = 254;  // DLIO: np.random.randint(255)

constexpr std::string_view kKind = "CSV file";

size_t Digits(uint64_t v) { return v < 10 ? 1 : v < 100 ? 2 : 3; }

// A value with exactly `digits` digits.
uint64_t ValueWithDigits(Random& random, size_t digits) {
  if (digits == 1) return random.Below(10);
  if (digits == 2) return 10 + random.Below(90);
  return 100 + random.Below(kMaxValue - 99);
}

// How many values a row of `bytes` bytes holds: every row of a file holds the same number,
// about what random 0..254 values fill (2.57 digits and a comma each), and few enough that
// each takes 1 to 3 digits: bytes - values digits in all, so bytes/4 <= values <= bytes/2.
uint64_t ValuesPerRow(uint64_t bytes) {
  if (bytes < 2) return 1;
  const uint64_t typical = static_cast<uint64_t>(static_cast<double>(bytes) / 3.57 + 0.5);
  return std::clamp<uint64_t>(typical, (bytes + 3) / 4, bytes / 2);
}

// Builds row `row`'s line, newline included: `values` values whose digits add up to
// bytes - values, so the line is exactly `bytes` long (at least two: "v\n").
void RowLine(uint64_t seed, uint64_t row, uint64_t bytes, uint64_t values, std::string* line) {
  Random random(Mix(seed, row));
  std::vector<uint8_t> v(values);
  uint64_t digits = 0;
  for (auto& x : v) {
    x = static_cast<uint8_t>(random.Below(kMaxValue + 1));
    digits += Digits(x);
  }
  // Widen or narrow values, front to back, until the digits fill the line exactly.
  const uint64_t want = std::max<uint64_t>(bytes, values * 2) - values;
  for (size_t i = 0; i < v.size() && digits != want; ++i) {
    const size_t have = Digits(v[i]);
    const size_t width =
        digits < want ? std::min<uint64_t>(3, have + (want - digits))
                      : std::max<uint64_t>(1, have - std::min<uint64_t>(have - 1, digits - want));
    if (width == have) continue;
    v[i] = static_cast<uint8_t>(ValueWithDigits(random, width));
    digits = digits + width - have;
  }
  line->clear();
  char text[4];
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) line->push_back(',');
    const auto end = std::to_chars(text, text + sizeof(text), v[i]).ptr;
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
      ThrowBadFile(kKind, name, static_cast<uint64_t>(p - text),
                   fmt::format("row {} has a value that is not an integer 0..{}", row, kMaxValue));
    p = end;
    ++*values;
    if (p >= text + size || *p != ',') break;
    ++p;
  }
  if (p >= text + size || *p != '\n')
    ThrowBadFile(kKind, name, static_cast<uint64_t>(p - text),
                 fmt::format("row {} does not end in a newline", row));
  return static_cast<uint64_t>(p - text) + 1;
}
}  // namespace

WrittenFile CsvFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  const uint64_t bytes = UniformSampleBytes(spec);
  const uint64_t values = ValuesPerRow(bytes);
  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  WrittenFile written{spec.path, 0, spec.sample_sizes.size(), {}, {}};
  written.samples.reserve(spec.sample_sizes.size());
  std::string line;
  for (uint64_t row = 0; row < spec.sample_sizes.size(); ++row) {
    RowLine(spec.seed, row, bytes, values, &line);
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
  CheckSize(kKind, name, data.size(), expected);
  uint64_t pos = 0, row = 0, columns = 0;
  for (; pos < data.size(); ++row) {
    uint64_t values = 0;
    const uint64_t next = ParseRow(name, data.data(), data.size(), pos, row, &values);
    if (row == 0) columns = values;
    // pandas takes the column count from the first line and rejects longer ones.
    if (values != columns)
      ThrowBadFile(kKind, name, pos,
                   fmt::format("row {} has {} values, the first row {}", row, values, columns));
    if (row < expected.samples.size() &&
        (expected.samples[row].offset != pos || expected.samples[row].length != next - pos))
      ThrowBadFile(kKind, name, pos, fmt::format("row {} is not where the manifest puts it", row));
    pos = next;
  }
  if (row != expected.num_samples)
    ThrowBadFile(kKind, name, pos,
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
      .traits = {.uniform_sample_size = true},  // DLIO repeats one record in every row of a file
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
  };
  return description;
}

const FormatDescription& CsvFormat::description() const { return CsvDescription(); }

}  // namespace trainbench::formats

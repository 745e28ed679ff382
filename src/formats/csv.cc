#include "formats/csv.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>

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

// Appends pandas' header line for a DataFrame of `values` columns written without its
// index, "0,1,...,values-1\n", to `writer` (a value at a time: at 150 MB samples the line
// is a gigabyte and more).
void WriteHeader(uint64_t values, BlockWriter& writer) {
  char text[24];
  for (uint64_t i = 0; i < values; ++i) {
    char* p = text;
    if (i > 0) *p++ = ',';
    p = std::to_chars(p, text + sizeof(text), i).ptr;
    writer.Append(text, static_cast<size_t>(p - text));
  }
  writer.Append("\n", 1);
}

// The end of pandas' header line at the start of data (the offset past its newline), or 0
// where the first line is a row. pandas writes the column names: ",0,1,..." with the index
// column (DLIO 2.0.0's to_csv(), older trainbench), "0,1,...,n-1" without (datagen). A
// row never starts with a comma; a headerless file is misread only if its first row is
// exactly 0,1,...,n-1 (one chance in 255^n: side 1's single value 0 is the likely one).
uint64_t HeaderEnd(const unsigned char* data, uint64_t size) {
  const auto* text = reinterpret_cast<const char*>(data);
  const auto* newline = static_cast<const char*>(std::memchr(text, '\n', size));
  const char* end = newline ? newline : text + size;
  const uint64_t line_end = static_cast<uint64_t>(end - text) + (newline ? 1 : 0);
  if (size > 0 && text[0] == ',') return line_end;
  const char* p = text;
  for (uint64_t column = 0;; ++column) {
    uint64_t v = 0;
    const auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || v != column) return 0;
    p = next;
    if (p == end) return line_end;
    if (*p != ',') return 0;
    ++p;
  }
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

// The header line is part of the layout: datasets written before it lack the key, which
// run does not compare (it reads them), while datagen does not add files with a header to
// them (DLIO 2.0.0 would read some files of the dataset and fail on the others).
void CsvLayoutKey(const config::WorkloadConfig& config, nlohmann::json& key) {
  SquareValuesLayoutKey(config, key);
  key["csv_header"] = "pandas";
}
}  // namespace

WrittenFile CsvFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  // The plan's sample size is side^2: the values of a line, as DLIO counts them.
  const uint64_t values = UniformSampleBytes(spec);
  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  WrittenFile written{spec.path, 0, spec.sample_sizes.size(), {}, {}};
  written.samples.reserve(spec.sample_sizes.size());
  // DLIO 2.0.0's reader takes the first line for the column names (read_csv's default
  // header), upstream's (header=None, v2.0.1 on) for a row: with pandas' own names there,
  // 2.0.0 finds every row, and upstream a first row of integers like the others (it reads
  // num_samples_per_file of the rows). Without them 2.0.0 loses the first row and fails on
  // the last sample.
  if (!spec.sample_sizes.empty()) WriteHeader(values, writer);
  std::string line;
  for (uint64_t row = 0; row < spec.sample_sizes.size(); ++row) {
    RowLine(spec.seed, row, values, &line);
    // pandas reads the header line with the rows: the first sample's extent starts at the
    // file's first byte, so that an epoch requests every byte DLIO's reader reads.
    const uint64_t start = row == 0 ? 0 : writer.Offset();
    writer.Append(line.data(), line.size());
    written.samples.push_back({start, writer.Offset() - start});
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
  const uint64_t header_end = HeaderEnd(data.data(), data.size());
  if (header_end == 0 && !data.empty())
    ThrowBadFile(kCsvKind, name, 0,
                 "the first line is not pandas' header 0,1,...: DLIO 2.0.0 would take the first "
                 "row for it");
  uint64_t pos = header_end, row = 0, columns = 0;
  for (; pos < data.size(); ++row) {
    uint64_t values = 0;
    const uint64_t next = ParseRow(name, data.data(), data.size(), pos, row, &values);
    if (row == 0) columns = values;
    // pandas takes the column count from the first line and rejects longer ones.
    if (values != columns)
      ThrowBadFile(kCsvKind, name, pos,
                   fmt::format("row {} has {} values, the first row {}", row, values, columns));
    const uint64_t start = row == 0 ? 0 : pos;  // the header goes with the first row
    if (row < expected.samples.size() &&
        (expected.samples[row].offset != start || expected.samples[row].length != next - start))
      ThrowBadFile(kCsvKind, name, pos,
                   fmt::format("row {} is not where the manifest puts it", row));
    pos = next;
  }
  // The header names as many columns as the rows hold (pandas pads shorter rows with NaN).
  const auto header = data.begin() + static_cast<std::ptrdiff_t>(header_end);
  const auto names = static_cast<uint64_t>(std::count(data.begin(), header, ',')) + 1;
  if (row > 0 && names != columns)
    ThrowBadFile(kCsvKind, name, 0,
                 fmt::format("the header names {} columns, the rows hold {}", names, columns));
  if (row != expected.num_samples)
    ThrowBadFile(kCsvKind, name, pos,
                 fmt::format("{} rows, manifest says {}", row, expected.num_samples));
}

WrittenFile CsvFormat::Scan(const std::string& path, storage::Storage& storage) const {
  // Rows have no index: finding them means reading every byte.
  const std::string name = storage.Describe(path);
  const auto data = storage::ReadAll(storage, path);
  WrittenFile scanned{path, data.size(), 0, {}, {}};
  // pandas' header line (DLIO 2.0.0's files, datagen's, older trainbench's) is no sample;
  // DLIO's reader reads it with the rows, so the first sample's extent starts at 0.
  uint64_t pos = HeaderEnd(data.data(), data.size()), start = 0;
  while (pos < data.size()) {
    const auto newline =
        std::find(data.begin() + static_cast<std::ptrdiff_t>(pos), data.end(), '\n');
    const uint64_t end =
        newline == data.end() ? data.size() : static_cast<uint64_t>(newline - data.begin()) + 1;
    scanned.samples.push_back({start, end - start});
    pos = start = end;
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
      .help =
          "rows of integers, one line per sample, under pandas' header line, as pandas' "
          "to_csv(index=False) writes them",
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
      .layout_key = CsvLayoutKey,
  };
  return description;
}

const FormatDescription& CsvFormat::description() const { return CsvDescription(); }

}  // namespace trainbench::formats

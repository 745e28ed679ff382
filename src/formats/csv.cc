#include "formats/csv.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "common/error.h"
#include "common/random.h"
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

// Builds row `row`'s line (without its newline) into *line, `target` bytes long with the
// newline where possible. Returns the number of values.
uint64_t RowLine(uint64_t seed, uint64_t row, uint64_t target, std::string* line) {
  Random random(Mix(seed, row));
  line->clear();
  char digits[24];
  auto put = [&](uint64_t v) {
    const auto end = std::to_chars(digits, digits + sizeof(digits), v).ptr;
    line->append(digits, end);
  };
  put(row);
  // Room left for ",v" fields: each takes 2 to 4 bytes.
  uint64_t left = target > line->size() + 1 ? target - line->size() - 1 : 0;
  uint64_t values = 0;
  auto field = [&](uint64_t v) {
    line->push_back(',');
    put(v);
    ++values;
  };
  while (left > 8) {
    const uint64_t v = random.Below(kMaxValue + 1);
    field(v);
    left -= 1 + Digits(v);
  }
  // 5..8 bytes left: two fields whose widths add up exactly; fewer: one field or none.
  if (left >= 5) {
    const size_t first = left / 2 - 1, second = left - left / 2 - 1;
    field(ValueWithDigits(random, first));
    field(ValueWithDigits(random, second));
  } else if (left >= 2) {
    field(ValueWithDigits(random, left - 1));
  }
  return values;
}

std::string HeaderLine(uint64_t columns) {
  std::string header;
  for (uint64_t c = 0; c < columns; ++c) header += fmt::format(",{}", c);
  return header + "\n";
}

// Parses one line at data[pos..) as "index,v,v,...\n"; returns the offset of the first
// byte past the newline, or throws naming the bad byte.
uint64_t ParseRow(const std::string& name, const unsigned char* data, uint64_t size, uint64_t pos,
                  uint64_t row, uint64_t columns) {
  const auto* text = reinterpret_cast<const char*>(data);
  uint64_t index = 0;
  const auto first = std::from_chars(text + pos, text + size, index);
  if (first.ec != std::errc() || index != row)
    ThrowBadFile(kKind, name, pos, fmt::format("row {} does not start with its index", row));
  uint64_t values = 0;
  const char* p = first.ptr;
  while (p < text + size && *p == ',') {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(p + 1, text + size, v);
    if (ec != std::errc() || v > kMaxValue)
      ThrowBadFile(kKind, name, static_cast<uint64_t>(p + 1 - text),
                   fmt::format("row {} has a value that is not an integer 0..{}", row, kMaxValue));
    p = end;
    ++values;
  }
  if (p >= text + size || *p != '\n')
    ThrowBadFile(kKind, name, static_cast<uint64_t>(p - text),
                 fmt::format("row {} does not end in a newline", row));
  if (values > columns)
    ThrowBadFile(kKind, name, pos,
                 fmt::format("row {} has {} values, the header {}", row, values, columns));
  return static_cast<uint64_t>(p - text) + 1;
}

// The header's column count; throws unless it is ",0,1,...,K-1\n".
uint64_t ParseHeader(const std::string& name, const std::vector<unsigned char>& data,
                     uint64_t* end) {
  const auto newline = std::find(data.begin(), data.end(), '\n');
  if (newline == data.end()) ThrowBadFile(kKind, name, data.size(), "no header line");
  const std::string header(data.begin(), newline + 1);
  uint64_t columns = 0;
  for (size_t pos = 0; pos + 1 < header.size(); ++columns) {
    const std::string want = fmt::format(",{}", columns);
    if (header.compare(pos, want.size(), want) != 0)
      ThrowBadFile(kKind, name, pos,
                   fmt::format("header is not ',0,1,...': column {} missing", columns));
    pos += want.size();
  }
  *end = header.size();
  return columns;
}
}  // namespace

WrittenFile CsvFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  // The header names as many columns as the longest row has values: count them first
  // (the rows are cheap to regenerate, and that keeps the file streaming).
  std::string line;
  uint64_t columns = 0;
  for (uint64_t row = 0; row < spec.sample_sizes.size(); ++row)
    columns = std::max(columns, RowLine(spec.seed, row, spec.sample_sizes[row], &line));

  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  const std::string header = HeaderLine(columns);
  writer.Append(header.data(), header.size());
  WrittenFile written{spec.path, 0, spec.sample_sizes.size(), {}, {}};
  written.samples.reserve(spec.sample_sizes.size());
  for (uint64_t row = 0; row < spec.sample_sizes.size(); ++row) {
    RowLine(spec.seed, row, spec.sample_sizes[row], &line);
    line.push_back('\n');
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
  uint64_t pos = 0;
  const uint64_t columns = ParseHeader(name, data, &pos);
  uint64_t row = 0;
  for (; pos < data.size(); ++row) {
    const uint64_t next = ParseRow(name, data.data(), data.size(), pos, row, columns);
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
  const auto header_end = std::find(data.begin(), data.end(), '\n');
  if (header_end == data.end()) ThrowBadFile(kKind, name, data.size(), "no header line");
  pos = static_cast<uint64_t>(header_end - data.begin()) + 1;
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

}  // namespace trainbench::formats

// ParquetFormat::Verify: re-reads a file trainbench wrote and checks the magic, the
// footer against the config (schema, row groups, codec), every page header, and every
// value against the generator's (the seed is in the footer), then the manifest's extents.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "formats/parquet/parquet.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_columns.h"
#include "formats/parquet/parquet_footer.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_page.h"
#include "formats/parquet/thrift_compact.h"

namespace trainbench::formats {
namespace {
using parquet::ColumnLayout;

constexpr std::string_view kParquetVerifyKind = "Parquet file";
// trainbench's page headers take about 20 bytes; a damaged one is reported, not searched.
constexpr uint64_t kMaxPageHeaderBytes = 256;
// The next step where a file holds what other settings write.
constexpr std::string_view kRewrite =
    "; written with other dataset settings? `trainbench datagen ... --replace` rewrites it";

// One file's check: the file, its name for messages, and what it should hold.
class Checker {
 public:
  Checker(storage::RandomAccessFile& file, const std::string& name, parquet::Codec codec)
      : file_(file), name_(name), codec_(codec) {}
  void set_seed(uint64_t seed) { seed_ = seed; }

  [[noreturn]] void Bad(uint64_t offset, const std::string& what) const {
    ThrowBadFile(kParquetVerifyKind, name_, offset, what);
  }

  // Checks the pages of one column chunk, [offset, end), holding `rows` rows from
  // `first_row`: its dictionary page (a dictionary column), then data pages of whole
  // rows, each body the encoder's for the generator's values; returns the uncompressed
  // bytes (headers included).
  uint64_t CheckChunk(size_t index, const ColumnLayout& column, uint64_t offset, uint64_t end,
                      uint64_t first_row, uint64_t rows) {
    uint64_t uncompressed = 0;
    if (column.dictionary) {
      const Page page = ReadPage(column, offset, end);
      const auto& d = page.header.dictionary_page_header;
      if (page.header.type != parquet::PageType::kDictionaryPage || !d ||
          d->num_values != parquet::kDictionaryValues || d->encoding != parquet::kPlainEncoding)
        Bad(offset, fmt::format("column '{}': expected a dictionary page of {} PLAIN values",
                                column.name, parquet::kDictionaryValues));
      parquet::EncodeDictionary(column, want_);
      if (body_ != want_)
        Bad(page.body,
            fmt::format("column '{}': the dictionary differs from the identity's", column.name));
      uncompressed += page.header_bytes + body_.size();
      offset = page.end;
    }
    for (uint64_t done = 0; done < rows;) {
      if (offset >= end)
        Bad(offset,
            fmt::format("column '{}' ends after {} of its {} rows", column.name, done, rows));
      const Page page = ReadPage(column, offset, end);
      const auto& d = page.header.data_page_header;
      if (page.header.type != parquet::PageType::kDataPage || !d)
        Bad(offset, fmt::format("column '{}': page type {}, expected a v1 data page (0)",
                                column.name, static_cast<int>(page.header.type)));
      const int32_t encoding =
          column.dictionary ? parquet::kRleDictionaryEncoding : parquet::kPlainEncoding;
      if (d->encoding != encoding)
        Bad(offset, fmt::format("column '{}': encoding {}, expected {}", column.name, d->encoding,
                                encoding));
      const auto n = d->num_values < 1 ? 0 : static_cast<uint64_t>(d->num_values) / column.size;
      if (n < 1 || n * column.size != static_cast<uint64_t>(d->num_values) || n > rows - done)
        Bad(offset, fmt::format("column '{}': page of {} values, not whole rows of {} where {} "
                                "rows remain",
                                column.name, d->num_values, column.size, rows - done));
      values_.resize(n * column.value_bytes);
      parquet::FillColumnValues(seed_, index, column, first_row + done, n, values_.data());
      const size_t start = parquet::EncodeDataPage(column, values_.data(), n, want_);
      const auto [a, b] = std::mismatch(body_.begin(), body_.end(), want_.begin(), want_.end());
      if (a != body_.end() || b != want_.end()) {
        const auto at = static_cast<uint64_t>(a - body_.begin());
        const uint64_t row_bytes = column.size * column.stored_item_bytes;
        // Uncompressed, the offset is the byte's own; compressed, the page's data.
        Bad(page.body + (codec_ == parquet::Codec::kUncompressed ? at : 0),
            at < start
                ? fmt::format("column '{}': the levels of the page at row {} differ "
                              "from the layout's",
                              column.name, first_row + done)
                : fmt::format("column '{}' row {}: value differs from the generator's "
                              "(seed {})",
                              column.name,
                              first_row + done + std::min(n - 1, (at - start) / row_bytes), seed_));
      }
      uncompressed += page.header_bytes + body_.size();
      offset = page.end;
      done += n;
    }
    if (offset != end)
      Bad(offset,
          fmt::format("column '{}': {} bytes after its last page", column.name, end - offset));
    return uncompressed;
  }

 private:
  struct Page {
    parquet::PageHeader header;
    size_t header_bytes = 0;
    uint64_t body = 0;  // where the stored body starts
    uint64_t end = 0;   // and ends
  };

  // Reads the page at `offset` (before `end`) and decompresses its body into body_.
  Page ReadPage(const ColumnLayout& column, uint64_t offset, uint64_t end) {
    Page page;
    unsigned char head[kMaxPageHeaderBytes];
    const size_t head_bytes = std::min<uint64_t>(sizeof(head), end - offset);
    parquet::ReadExactly(file_, offset, head, head_bytes, name_);
    try {
      page.header = parquet::DecodePageHeader(head, head_bytes, &page.header_bytes);
    } catch (const thrift::DecodeError& e) {
      Bad(offset + e.offset(), fmt::format("column '{}': page header: {}", column.name, e.what()));
    }
    const auto& h = page.header;
    page.body = offset + page.header_bytes;
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
        static_cast<uint64_t>(h.compressed_page_size) > end - page.body)
      Bad(offset, fmt::format("column '{}': page of {} bytes runs past its chunk's end at {}",
                              column.name, h.compressed_page_size, end));
    page.end = page.body + static_cast<uint64_t>(h.compressed_page_size);
    stored_.resize(static_cast<size_t>(h.compressed_page_size));
    parquet::ReadExactly(file_, page.body, stored_.data(), stored_.size(), name_);
    body_.resize(static_cast<size_t>(h.uncompressed_page_size));
    const std::string error =
        parquet::Decompress(codec_, stored_.data(), stored_.size(), body_.data(), body_.size());
    if (!error.empty())
      Bad(page.body,
          fmt::format("column '{}': {} page: {}", column.name, parquet::CodecName(codec_), error));
    return page;
  }

  storage::RandomAccessFile& file_;
  const std::string& name_;
  parquet::Codec codec_;
  uint64_t seed_ = 0;
  // Buffers reused page after page: the stored bytes, the body decompressed, the
  // generated values and the body they encode to.
  std::vector<unsigned char> stored_, body_, values_, want_;
};

bool SameSchema(const std::vector<parquet::SchemaElement>& a,
                const std::vector<parquet::SchemaElement>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].type != b[i].type || a[i].repetition != b[i].repetition || a[i].name != b[i].name ||
        a[i].num_children != b[i].num_children || a[i].converted_type != b[i].converted_type ||
        a[i].logical != b[i].logical ||
        (a[i].type == parquet::PhysicalType::kFixedLenByteArray &&
         a[i].type_length != b[i].type_length))
      return false;
  return true;
}
}  // namespace

void ParquetFormat::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  auto file = storage.Open(expected.path);
  const uint64_t size = file->Size();
  CheckSize(kParquetVerifyKind, name, size, expected);
  const parquet::Footer footer = parquet::ReadFooter(*file, size, name);
  const parquet::FileMetaData& meta = footer.metadata;
  Checker check(*file, name, codec_);

  const auto seed_text = meta.Value("trainbench.seed");
  const auto columns = parquet::ParseColumns(meta.Value("trainbench.columns").value_or(""));
  if (!seed_text || columns.empty())
    check.Bad(footer.offset,
              "the footer lacks trainbench.seed or trainbench.columns: not a file trainbench "
              "wrote (run `trainbench datagen ... --replace` to rewrite the dataset)");
  try {
    check.set_seed(std::stoull(*seed_text));
  } catch (const std::exception&) {
    check.Bad(footer.offset, fmt::format("trainbench.seed '{}' is not a number", *seed_text));
  }
  // The configured columns (without any: one uint8 "data" column of the file's own width).
  const auto want = parquet::ColumnLayouts(parquet_, columns[0].value_bytes);
  if (parquet::DescribeColumns(want) != parquet::DescribeColumns(columns))
    check.Bad(footer.offset,
              fmt::format("columns are {}, the config says {}{}", parquet::DescribeColumns(columns),
                          parquet::DescribeColumns(want), kRewrite));
  if (!SameSchema(meta.schema, parquet::SchemaFor(columns)))
    check.Bad(footer.offset,
              "the schema does not match trainbench.columns (DLIO's: OPTIONAL columns, "
              "fixed-size lists for size > 1, pyarrow's types)");
  if (meta.num_rows != static_cast<int64_t>(expected.num_samples))
    check.Bad(footer.offset, fmt::format("footer says {} rows, the manifest {} samples",
                                         meta.num_rows, expected.num_samples));

  const uint64_t rows = expected.num_samples;
  const uint64_t group_rows = parquet_.row_group_size == 0 ? rows : parquet_.row_group_size;
  uint64_t offset = parquet::kMagicBytes, first_row = 0;
  for (size_t g = 0; g < meta.row_groups.size(); ++g) {
    const parquet::RowGroup& group = meta.row_groups[g];
    const uint64_t n = std::min(group_rows, rows - first_row);
    if (group.num_rows != static_cast<int64_t>(n) || group.columns.size() != columns.size())
      check.Bad(offset,
                fmt::format("row group {} has {} rows and {} columns, expected {} and {}{}", g,
                            group.num_rows, group.columns.size(), n, columns.size(), kRewrite));
    int64_t uncompressed = 0;
    for (size_t c = 0; c < columns.size(); ++c) {
      const auto& m = group.columns[c].meta_data;
      const bool dictionary = columns[c].dictionary;
      if (!m || m->type != columns[c].type || m->path_in_schema != parquet::LeafPath(columns[c]) ||
          m->codec != codec_ || m->num_values != static_cast<int64_t>(n * columns[c].size) ||
          m->dictionary_page_offset.has_value() != dictionary ||
          m->StartOffset() != static_cast<int64_t>(offset) ||
          (!dictionary && m->data_page_offset != static_cast<int64_t>(offset)) ||
          m->total_compressed_size <= 0 ||
          static_cast<uint64_t>(m->total_compressed_size) > footer.offset - offset)
        check.Bad(offset, fmt::format("row group {} column '{}': its metadata is not a {} chunk "
                                      "of {} rows starting here{}",
                                      g, columns[c].name, parquet::CodecName(codec_), n, kRewrite));
      const uint64_t end = offset + static_cast<uint64_t>(m->total_compressed_size);
      const uint64_t chunk_uncompressed =
          check.CheckChunk(c, columns[c], offset, end, first_row, n);
      if (static_cast<int64_t>(chunk_uncompressed) != m->total_uncompressed_size)
        check.Bad(offset,
                  fmt::format("column '{}': total_uncompressed_size {}, pages hold {}",
                              columns[c].name, m->total_uncompressed_size, chunk_uncompressed));
      uncompressed += m->total_uncompressed_size;
      offset = end;
    }
    if (group.total_byte_size != uncompressed)
      check.Bad(offset, fmt::format("row group {}: total_byte_size {}, its chunks hold {}", g,
                                    group.total_byte_size, uncompressed));
    first_row += n;
  }
  if (first_row != rows || offset != footer.offset)
    check.Bad(offset, fmt::format("row groups hold {} rows and end at {}; expected {} rows "
                                  "ending at the footer ({})",
                                  first_row, offset, rows, footer.offset));
  const auto units = ParquetRowGroupUnits(meta, footer.offset, name);
  for (size_t u = 0; u < expected.units.size() && u < units.size(); ++u) {
    const ReadUnit& expected_unit = expected.units[u];
    const ReadUnit& got = units[u];
    bool same = expected_unit.first_sample == got.first_sample &&
                expected_unit.num_samples == got.num_samples &&
                expected_unit.extents.size() == got.extents.size();
    for (size_t c = 0; same && c < got.extents.size(); ++c)
      same = expected_unit.extents[c].offset == got.extents[c].offset &&
             expected_unit.extents[c].length == got.extents[c].length;
    if (!same)
      check.Bad(got.extents.empty() ? footer.offset : got.extents[0].offset,
                fmt::format("row group {} ({} rows, {} bytes) differs from the manifest's ({} "
                            "rows, {} bytes)",
                            u, got.num_samples, got.Bytes(), expected_unit.num_samples,
                            expected_unit.Bytes()));
  }
  if (expected.units.size() != units.size() && !expected.units.empty())
    check.Bad(footer.offset, fmt::format("{} row groups, the manifest says {}", units.size(),
                                         expected.units.size()));
}

}  // namespace trainbench::formats

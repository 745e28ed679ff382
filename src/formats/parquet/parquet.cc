#include "formats/parquet/parquet.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "formats/array_samples.h"
#include "formats/block_writer.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_columns.h"
#include "formats/parquet/parquet_footer.h"
#include "formats/parquet/parquet_metadata.h"

namespace trainbench::formats {
namespace {
using parquet::Codec;
using parquet::ColumnLayout;

constexpr std::string_view kKind = "Parquet file";
// Arrow's default data page size: pages of about this many value bytes (at least one row).
constexpr uint64_t kPageBytes = 1 << 20;

uint64_t GroupRows(const config::ParquetConfig& parquet, uint64_t rows) {
  return parquet.row_group_size == 0 ? std::max<uint64_t>(rows, 1) : parquet.row_group_size;
}

// Writes one column chunk: the rows [first_row, first_row + rows) of column `index`, in
// pages, filling the ColumnMetaData's sizes and offsets.
parquet::ColumnMetaData WriteChunk(BlockWriter& writer, uint64_t seed, size_t index,
                                   const ColumnLayout& column, uint64_t first_row, uint64_t rows,
                                   Codec codec, int level, std::vector<unsigned char>& page,
                                   std::vector<unsigned char>& packed) {
  parquet::ColumnMetaData m;
  m.type = column.type;
  m.encodings = {parquet::kPlainEncoding};
  m.path_in_schema = {column.name};
  m.codec = codec;
  m.num_values = static_cast<int64_t>(rows);
  m.data_page_offset = static_cast<int64_t>(writer.Offset());
  const uint64_t page_rows = std::max<uint64_t>(1, kPageBytes / column.value_bytes);
  for (uint64_t done = 0; done < rows;) {
    const uint64_t n = std::min(page_rows, rows - done);
    const size_t raw = n * column.value_bytes;
    page.resize(raw);
    parquet::FillColumnValues(seed, index, column, first_row + done, n, page.data());
    const unsigned char* body = page.data();
    size_t body_bytes = raw;
    if (codec != Codec::kUncompressed) {
      parquet::Compress(codec, level, page.data(), raw, packed);
      body = packed.data();
      body_bytes = packed.size();
    }
    parquet::PageHeader h;
    h.uncompressed_page_size = static_cast<int32_t>(raw);
    h.compressed_page_size = static_cast<int32_t>(body_bytes);
    h.data_page_header = parquet::DataPageHeader{static_cast<int32_t>(n)};
    const std::string header = parquet::EncodePageHeader(h);
    writer.Append(header.data(), header.size());
    writer.Append(body, body_bytes);
    m.total_uncompressed_size += static_cast<int64_t>(header.size() + raw);
    m.total_compressed_size += static_cast<int64_t>(header.size() + body_bytes);
    done += n;
  }
  return m;
}

void CheckParquet(const config::WorkloadConfig& config) {
  const auto& d = config.dataset;
  if (!parquet::CodecFor(d.compression))
    throw UsageError(fmt::format(
        "dataset.compression {} is not a Parquet codec trainbench writes; use none, snappy, "
        "gzip, lz4 or zstd",
        config::ToString(d.compression)));
  // Names go into the footer's "trainbench.columns" text, separated by ',' and ':'.
  for (size_t i = 0; i < d.parquet.columns.size(); ++i)
    if (d.parquet.columns[i].name.find_first_of(",:") != std::string::npos)
      throw UsageError(
          fmt::format("dataset.parquet.columns: column {} name '{}' has ',' or ':'; rename it", i,
                      d.parquet.columns[i].name));
  parquet::ColumnLayouts(d.parquet, 1);  // throws UsageError for a bad dtype or size
}

// A file DLIO wrote (no manifest) is read by column position: where the config skips
// columns, the file's columns must be the config's, in its order.
void CheckColumnNames(const parquet::FileMetaData& metadata, const config::ParquetConfig& parquet,
                      const std::string& file) {
  const auto columns = parquet::ColumnLayouts(parquet, 1);
  const bool selective =
      std::any_of(columns.begin(), columns.end(), [](const ColumnLayout& c) { return !c.read; });
  if (!selective || metadata.row_groups.empty()) return;
  std::string have, want;
  for (const auto& chunk : metadata.row_groups[0].columns)
    have += (have.empty() ? "" : ",") + (chunk.meta_data && !chunk.meta_data->path_in_schema.empty()
                                             ? chunk.meta_data->path_in_schema.back()
                                             : std::string("?"));
  for (const auto& c : columns) want += (want.empty() ? "" : ",") + c.name;
  if (have != want)
    throw RuntimeError(fmt::format(
        "{}: the file's columns are {}, dataset.parquet.columns says {}: a run reads the "
        "columns marked read by position; set the columns to the file's",
        file, have, want));
}
}  // namespace

ParquetFormat::ParquetFormat(const config::WorkloadConfig& config)
    : parquet_(config.dataset.parquet),
      codec_(parquet::CodecFor(config.dataset.compression).value_or(Codec::kUncompressed)),
      level_(static_cast<int>(config.dataset.compression_level)) {}

WrittenFile ParquetFormat::Write(const FileSpec& spec, storage::Storage& storage) const {
  const uint64_t rows = spec.sample_sizes.size();
  const std::vector<ColumnLayout> columns =
      parquet::ColumnLayouts(parquet_, UniformSampleBytes(spec));
  const uint64_t group_rows = GroupRows(parquet_, rows);

  parquet::FileMetaData meta;
  meta.schema = parquet::SchemaFor(columns);
  meta.num_rows = static_cast<int64_t>(rows);
  meta.key_value_metadata = {{"trainbench.seed", std::to_string(spec.seed)},
                             {"trainbench.columns", parquet::DescribeColumns(columns)}};
  meta.created_by = "trainbench version " TRAINBENCH_VERSION;

  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  writer.Append(parquet::kMagic, parquet::kMagicBytes);
  std::vector<unsigned char> page, packed;
  for (uint64_t first = 0; first < rows; first += group_rows) {
    const uint64_t n = std::min(group_rows, rows - first);
    parquet::RowGroup group;
    group.num_rows = static_cast<int64_t>(n);
    group.file_offset = static_cast<int64_t>(writer.Offset());
    group.total_compressed_size = 0;
    for (size_t c = 0; c < columns.size(); ++c) {
      parquet::ColumnChunk chunk;
      chunk.file_offset = static_cast<int64_t>(writer.Offset());
      chunk.meta_data =
          WriteChunk(writer, spec.seed, c, columns[c], first, n, codec_, level_, page, packed);
      group.total_byte_size += chunk.meta_data->total_uncompressed_size;
      *group.total_compressed_size += chunk.meta_data->total_compressed_size;
      group.columns.push_back(std::move(chunk));
    }
    meta.row_groups.push_back(std::move(group));
  }
  const uint64_t footer_offset = writer.Offset();
  const std::string footer = parquet::EncodeFileMetaData(meta);
  const auto length = static_cast<uint32_t>(footer.size());
  writer.Append(footer.data(), footer.size());
  writer.Append(&length, 4);  // little-endian hosts, as Parquet stores it
  writer.Append(parquet::kMagic, parquet::kMagicBytes);
  writer.Flush();
  WrittenFile written{spec.path, writer.Offset(), rows, {}, {}};
  written.units = ParquetRowGroupUnits(meta, footer_offset, storage.Describe(spec.path));
  out->Commit();
  return written;
}

WrittenFile ParquetFormat::Scan(const std::string& path, storage::Storage& storage) const {
  const std::string name = storage.Describe(path);
  auto file = storage.Open(path);
  WrittenFile scanned{path, file->Size(), 0, {}, {}};
  const parquet::Footer footer = parquet::ReadFooter(*file, scanned.size_bytes, name);
  scanned.units = ParquetRowGroupUnits(footer.metadata, footer.offset, name);
  scanned.num_samples = scanned.units.empty()
                            ? 0
                            : scanned.units.back().first_sample + scanned.units.back().num_samples;
  if (static_cast<int64_t>(scanned.num_samples) != footer.metadata.num_rows)
    ThrowBadFile(kKind, name, footer.offset,
                 fmt::format("footer says {} rows, its row groups hold {}",
                             footer.metadata.num_rows, scanned.num_samples));
  CheckColumnNames(footer.metadata, parquet_, name);
  return scanned;
}

std::vector<ReadUnit> ParquetRowGroupUnits(const parquet::FileMetaData& metadata, uint64_t data_end,
                                           const std::string& file) {
  std::vector<ReadUnit> units;
  uint64_t first = 0;
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const parquet::RowGroup& group = metadata.row_groups[g];
    if (group.num_rows < 0)
      ThrowBadFile(kKind, file, data_end,
                   fmt::format("row group {} has {} rows", g, group.num_rows));
    ReadUnit unit{first, static_cast<uint64_t>(group.num_rows), {}};
    for (const auto& chunk : group.columns) {
      if (!chunk.meta_data)
        ThrowBadFile(kKind, file, data_end,
                     fmt::format("row group {} has a column chunk without its metadata", g));
      const parquet::ColumnMetaData& m = *chunk.meta_data;
      const int64_t start = m.StartOffset();
      if (start < static_cast<int64_t>(parquet::kMagicBytes) || m.total_compressed_size < 0 ||
          static_cast<uint64_t>(start) > data_end ||
          static_cast<uint64_t>(m.total_compressed_size) > data_end - static_cast<uint64_t>(start))
        ThrowBadFile(kKind, file, std::max<int64_t>(start, 0),
                     fmt::format("row group {}'s column chunk '{}' ({} bytes at {}) lies outside "
                                 "the data, [4, {})",
                                 g, m.path_in_schema.empty() ? "?" : m.path_in_schema.back(),
                                 m.total_compressed_size, start, data_end));
      // What pyarrow reads for the chunk: its pages, dictionary first, as one range.
      unit.extents.push_back(
          {static_cast<uint64_t>(start), static_cast<uint64_t>(m.total_compressed_size)});
    }
    if (unit.num_samples == 0) continue;  // holds no sample: never read
    first += unit.num_samples;
    units.push_back(std::move(unit));
  }
  return units;
}

void ParquetFormat::SelectReads(WrittenFile& file) const {
  // DLIO's reader passes the columns marked read to pyarrow, or none (every column) when
  // no column is marked.
  const auto columns = parquet::ColumnLayouts(parquet_, 1);
  std::vector<bool> read;
  for (const auto& c : columns) read.push_back(c.read);
  if (std::find(read.begin(), read.end(), true) == read.end()) return;
  if (std::find(read.begin(), read.end(), false) == read.end()) return;
  for (auto& unit : file.units) {
    if (unit.extents.size() != read.size())
      throw RuntimeError(fmt::format(
          "{}: a row group has {} column chunks but dataset.parquet.columns names {} columns; "
          "set the columns to the file's, or rewrite the dataset with `trainbench datagen ... "
          "--replace`",
          file.path, unit.extents.size(), read.size()));
    std::vector<SampleExtent> kept;
    for (size_t c = 0; c < read.size(); ++c)
      if (read[c]) kept.push_back(unit.extents[c]);
    unit.extents = std::move(kept);
  }
}

const FormatDescription& ParquetDescription() {
  static const FormatDescription description{
      .name = "parquet",
      .extensions = {"parquet"},
      .traits = {.uniform_sample_size = true, .square_samples = true, .reads_units = true},
      .help =
          "Apache Parquet: dataset.parquet.columns (or one uint8 \"data\" column) as fixed-size "
          "values, PLAIN pages, row groups of parquet.row_group_size rows; a run reads a row "
          "group's column chunks marked read once for all its rows",
      .check = CheckParquet,
      .make = [](const config::WorkloadConfig& config) -> std::unique_ptr<FileFormat> {
        return std::make_unique<ParquetFormat>(config);
      },
  };
  return description;
}

const FormatDescription& ParquetFormat::description() const { return ParquetDescription(); }

}  // namespace trainbench::formats

#include "formats/parquet/parquet.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "formats/parquet/arrow_schema.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_columns.h"
#include "formats/parquet/parquet_footer.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_page.h"
#include "formats/wire/array_samples.h"
#include "formats/wire/block_writer.h"

namespace trainbench::formats {
namespace {
using parquet::Codec;
using parquet::ColumnLayout;

constexpr std::string_view kParquetKind = "Parquet file";

uint64_t GroupRows(const config::ParquetConfig& parquet, uint64_t rows) {
  return parquet.row_group_size == 0 ? std::max<uint64_t>(rows, 1) : parquet.row_group_size;
}

// Buffers one thread reuses page after page: the generated values, a page's body and
// its compressed form.
struct PageBuffers {
  std::vector<unsigned char> values, body, packed;
};

// Appends one page (header and body, compressed by `codec`), adding its sizes to `m`.
void AppendPage(BlockWriter& writer, parquet::PageHeader h, const std::vector<unsigned char>& body,
                Codec codec, int level, std::vector<unsigned char>& packed,
                parquet::ColumnMetaData& m) {
  const unsigned char* stored = body.data();
  size_t stored_bytes = body.size();
  if (codec != Codec::kUncompressed) {
    parquet::Compress(codec, level, body.data(), body.size(), packed);
    stored = packed.data();
    stored_bytes = packed.size();
  }
  h.uncompressed_page_size = static_cast<int32_t>(body.size());
  h.compressed_page_size = static_cast<int32_t>(stored_bytes);
  const std::string header = parquet::EncodePageHeader(h);
  writer.Append(header.data(), header.size());
  writer.Append(stored, stored_bytes);
  m.total_uncompressed_size += static_cast<int64_t>(header.size() + body.size());
  m.total_compressed_size += static_cast<int64_t>(header.size() + stored_bytes);
}

// Writes one column chunk: the rows [first_row, first_row + rows) of column `index`, a
// dictionary page first for a dictionary column, then data pages of whole rows, filling
// the ColumnMetaData's sizes and offsets.
parquet::ColumnMetaData WriteChunk(BlockWriter& writer, uint64_t seed, size_t index,
                                   const ColumnLayout& column, uint64_t first_row, uint64_t rows,
                                   Codec codec, int level, PageBuffers& buffers) {
  parquet::ColumnMetaData m;
  m.type = column.type;
  m.encodings = {parquet::kPlainEncoding, parquet::kRleEncoding};
  m.path_in_schema = parquet::LeafPath(column);
  m.codec = codec;
  m.num_values = static_cast<int64_t>(rows * column.size);
  if (column.dictionary) {
    m.encodings.push_back(parquet::kRleDictionaryEncoding);
    m.dictionary_page_offset = static_cast<int64_t>(writer.Offset());
    parquet::EncodeDictionary(column, buffers.body);
    parquet::PageHeader h;
    h.type = parquet::PageType::kDictionaryPage;
    h.dictionary_page_header = parquet::DictionaryPageHeader{parquet::kDictionaryValues};
    AppendPage(writer, h, buffers.body, codec, level, buffers.packed, m);
  }
  m.data_page_offset = static_cast<int64_t>(writer.Offset());
  const uint64_t page_rows = parquet::PageRows(column);
  for (uint64_t done = 0; done < rows;) {
    const uint64_t n = std::min(page_rows, rows - done);
    buffers.values.resize(n * column.value_bytes);
    parquet::FillColumnValues(seed, index, column, first_row + done, n, buffers.values.data());
    parquet::EncodeDataPage(column, buffers.values.data(), n, buffers.body);
    parquet::PageHeader h;
    parquet::DataPageHeader d;
    d.num_values = static_cast<int32_t>(n * column.size);
    d.encoding = column.dictionary ? parquet::kRleDictionaryEncoding : parquet::kPlainEncoding;
    h.data_page_header = d;
    AppendPage(writer, h, buffers.body, codec, level, buffers.packed, m);
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
                                             ? chunk.meta_data->path_in_schema.front()
                                             : std::string("?"));
  for (const auto& c : columns) want += (want.empty() ? "" : ",") + c.name;
  if (have != want)
    throw RuntimeError(fmt::format(
        "{}: the file's columns are {}, dataset.parquet.columns says {}: a run reads the "
        "columns marked read by position; set the columns to the file's",
        file, have, want));
}

[[noreturn]] void Refuse(const std::string& file, const std::string& feature,
                         const std::string& next_step) {
  throw RuntimeError(fmt::format("{}: {}: trainbench does not read this Parquet feature; {}", file,
                                 feature, next_step));
}

// The Parquet features a run refuses, by name (docs/formats.md lists them): what it reads
// is each row group's column chunks, by the byte ranges the footer gives, one chunk a
// column; whatever breaks that is refused before any read, not misread.
void CheckReadable(const parquet::FileMetaData& metadata, const std::string& file) {
  if (metadata.encrypted)
    Refuse(file, "encrypted columns (FileMetaData.encryption_algorithm)",
           "write the dataset without Parquet modular encryption");
  for (const auto& group : metadata.row_groups) {
    std::string previous;
    for (const auto& chunk : group.columns) {
      if (chunk.file_path)
        Refuse(file,
               fmt::format("a column chunk in another file (ColumnChunk.file_path '{}')",
                           *chunk.file_path),
               "write each file with its own column chunks");
      if (chunk.encrypted || !chunk.meta_data)
        Refuse(file, "an encrypted column chunk (ColumnChunk.crypto_metadata)",
               "write the dataset without Parquet modular encryption");
      const auto& path = chunk.meta_data->path_in_schema;
      const std::string top = path.empty() ? "" : path.front();
      // A fixed-size list is one leaf; a struct or map column has several.
      if (!top.empty() && top == previous)
        Refuse(file,
               fmt::format("column '{}' has several leaf columns (a struct or map column)", top),
               "write it as flat columns or fixed-size lists, as DLIO's generator does");
      previous = top;
    }
  }
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
                             {"trainbench.columns", parquet::DescribeColumns(columns)},
                             {parquet::kArrowSchemaKey, parquet::ArrowSchema(columns)}};
  meta.created_by = "trainbench version " TRAINBENCH_VERSION;

  auto out = storage.Create(spec.path);
  BlockWriter writer(*out);
  writer.Append(parquet::kMagic, parquet::kMagicBytes);
  PageBuffers buffers;
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
          WriteChunk(writer, spec.seed, c, columns[c], first, n, codec_, level_, buffers);
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
  CheckReadable(footer.metadata, name);
  scanned.units = ParquetRowGroupUnits(footer.metadata, footer.offset, name);
  scanned.num_samples = scanned.units.empty()
                            ? 0
                            : scanned.units.back().first_sample + scanned.units.back().num_samples;
  if (static_cast<int64_t>(scanned.num_samples) != footer.metadata.num_rows)
    ThrowBadFile(kParquetKind, name, footer.offset,
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
      ThrowBadFile(kParquetKind, file, data_end,
                   fmt::format("row group {} has {} rows", g, group.num_rows));
    ReadUnit unit{first, static_cast<uint64_t>(group.num_rows), {}};
    for (const auto& chunk : group.columns) {
      if (!chunk.meta_data)
        ThrowBadFile(kParquetKind, file, data_end,
                     fmt::format("row group {} has a column chunk without its metadata", g));
      const parquet::ColumnMetaData& m = *chunk.meta_data;
      const int64_t start = m.StartOffset();
      if (start < static_cast<int64_t>(parquet::kMagicBytes) || m.total_compressed_size < 0 ||
          static_cast<uint64_t>(start) > data_end ||
          static_cast<uint64_t>(m.total_compressed_size) > data_end - static_cast<uint64_t>(start))
        ThrowBadFile(kParquetKind, file, std::max<int64_t>(start, 0),
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

// The settings that shape a Parquet file's bytes (columns without `read`, which only says
// what a run reads); compression is among the common keys. The layout is the second: DLIO's
// fixed-size lists since issue 37 (the first wrote one FIXED_LEN_BYTE_ARRAY a row), so a
// dataset of the first is rewritten, not taken as complete.
static void ParquetLayoutKey(const config::WorkloadConfig& config, nlohmann::json& key) {
  key["layout"] = "dlio-lists";
  std::string columns;
  for (const auto& col : config.dataset.parquet.columns)
    columns += fmt::format("{}{}:{}:{}", columns.empty() ? "" : ",", col.name, col.dtype, col.size);
  key["parquet_columns"] = columns;
  key["parquet_row_group_size"] = config.dataset.parquet.row_group_size;
}

const FormatDescription& ParquetDescription() {
  static const FormatDescription description{
      .name = "parquet",
      .extensions = {"parquet"},
      .traits = {.uniform_sample_size = true, .square_samples = true, .reads_units = true},
      .help =
          "Apache Parquet as DLIO writes it: dataset.parquet.columns (or one uint8 \"data\" "
          "column), fixed-size lists for size > 1, row groups of parquet.row_group_size rows; "
          "a run reads a row group's column chunks marked read once for all its rows",
      .check = CheckParquet,
      .make = [](const config::WorkloadConfig& config) -> std::unique_ptr<FileFormat> {
        return std::make_unique<ParquetFormat>(config);
      },
      .layout_key = ParquetLayoutKey,
  };
  return description;
}

const FormatDescription& ParquetFormat::description() const { return ParquetDescription(); }

}  // namespace trainbench::formats

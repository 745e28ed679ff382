// Parquet, as MLPerf Storage v3.0's dlrm and flux workloads read it, in the layout DLIO's
// generator (pyarrow) writes: "PAR1", row groups of dataset.parquet.row_group_size rows
// (all rows in one without it), each column chunk data pages v1 of whole rows (about 1 MiB
// of values each, at least one row), a dictionary page first for 8-bit integer columns,
// compressed by dataset.compression's codec, then the footer (FileMetaData, its 4-byte
// length, "PAR1"). Columns (fixed-size lists for size > 1), levels and values:
// parquet_columns.h and parquet_page.h; the footer's encoding: parquet_metadata.h, with
// pyarrow's ARROW:schema note (arrow_schema.h); codecs: parquet_codec.h.
//
// A sample is a row. A run reads as DLIO's Parquet reader (argonne-lcf/dlio_benchmark's
// dlio_benchmark/reader/parquet_reader.py, read_mode default and row_group alike): the
// first time a reader needs a row of a row group it reads the whole group, only the
// columns marked read (pyarrow's read_row_group(columns=...): one read of each column
// chunk's bytes), and serves the group's other rows from it while they follow one another
// (it keeps one group). So a row group is a ReadUnit whose extents are its column chunks;
// SelectReads drops the chunks of columns marked read: false. trainbench does not read
// the footer (a few KiB per file, once per open) that pyarrow reads when it opens a file.
// Scan reads any writer's footer and refuses by name what breaks "one column chunk a
// column, in this file": encryption, column chunks in other files, struct or map columns
// (docs/formats.md lists them); codecs, encodings and page versions need no decoding.
// Stateless; thread-safe.
#pragma once

#include <vector>

#include "formats/format.h"
#include "formats/parquet/parquet_metadata.h"

namespace trainbench::formats {

const FormatDescription& ParquetDescription();

class ParquetFormat : public FileFormat {
 public:
  explicit ParquetFormat(const config::WorkloadConfig& config);
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;
  void SelectReads(WrittenFile& file) const override;

 private:
  config::ParquetConfig parquet_;
  parquet::Codec codec_;
  int level_;
};

// The read units of a file with this footer: one per row group that holds rows, its
// extents the column chunks in the file's column order. `data_end` is where the footer
// starts; throws RuntimeError (naming `file` and the offset) when a column chunk lies
// outside [4, data_end).
std::vector<ReadUnit> ParquetRowGroupUnits(const parquet::FileMetaData& metadata, uint64_t data_end,
                                           const std::string& file);

}  // namespace trainbench::formats

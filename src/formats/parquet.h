// Parquet, as MLPerf Storage v3.0's dlrm and flux workloads read it: "PAR1", row groups of
// dataset.parquet.row_group_size rows (all rows in one without it), each column chunk one
// or more PLAIN data pages (v1, about 1 MiB of values each, at least one row) of REQUIRED
// values with no dictionary, compressed by dataset.compression's codec, then the footer
// (FileMetaData, its 4-byte length, "PAR1"). Columns and values: parquet_columns.h; the
// footer's encoding: parquet_metadata.h; codecs: parquet_codec.h.
//
// A sample is a row. Its extent is the i-th of n equal contiguous shares of its row
// group's bytes (the group's column chunks lie back to back), so a batch of consecutive
// rows reads its row group sequentially and an epoch reads every data byte once, each row
// its own size. DLIO's reader (read_mode: row_group) reads whole row groups through
// pyarrow: one read of all of a group's (selected) columns, once for all its rows, plus
// the footer when it opens a file; trainbench spreads the same bytes over the rows and
// does not read the footer (a few KiB per file). Row values live in every column chunk,
// so no byte range holds one row; the share keeps each read large and sequential.
// Stateless; thread-safe.
#pragma once

#include <vector>

#include "formats/format.h"
#include "formats/parquet_metadata.h"

namespace trainbench::formats {

const FormatDescription& ParquetDescription();

class ParquetFormat : public FileFormat {
 public:
  explicit ParquetFormat(const config::WorkloadConfig& config);
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;

 private:
  config::ParquetConfig parquet_;
  parquet::Codec codec_;
  int level_;
};

// The rows' extents of a file with this footer: shares of each row group's bytes.
// `data_end` is where the footer starts; throws RuntimeError (naming `file` and the
// offset) when a column chunk lies outside [4, data_end).
std::vector<SampleExtent> ParquetRowExtents(const parquet::FileMetaData& metadata,
                                            uint64_t data_end, const std::string& file);

}  // namespace trainbench::formats

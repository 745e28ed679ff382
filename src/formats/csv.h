// csv: rows of seeded random integers (0..254), one line "v,v,...,v" per sample of side^2
// values, side = floor(sqrt(record_length_bytes)) (DLIO's "dimension"; a line is about 3.6
// bytes a value), under pandas' header line "0,1,...,side^2-1": what to_csv(index=False)
// writes for DLIO's DataFrame, so that DLIO 2.0.0's reader (read_csv's default header)
// finds every row and upstream's (header=None) reads the header as one more row of
// integers. Every line of a file has the same number of values (pandas takes the column
// count from the first line), as DLIO repeats one record per file. A sample's extent is
// its line, the first sample's from the file's start (the header with it, as pandas
// reads it). Rows draw from Mix(seed, row), so each is reproducible alone. Scan reads
// files with pandas' header line (with an index column: DLIO 2.0.0's, older
// trainbench's) and without (upstream DLIO's, trainbench's before the header).
// Stateless; thread-safe.
#pragma once

#include "formats/format.h"

namespace trainbench::formats {

const FormatDescription& CsvDescription();

class CsvFormat : public FileFormat {
 public:
  const FormatDescription& description() const override;
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;
};

}  // namespace trainbench::formats

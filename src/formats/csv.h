// csv: rows of seeded random integers (0..254) as DLIO writes them through pandas'
// to_csv(index=False, header=False): no header, no index column, one line "v,v,...,v" per
// sample of side^2 values, side = floor(sqrt(record_length_bytes)) (DLIO's "dimension";
// a line is about 3.6 bytes a value). Every line of a file has the same number of values
// (pandas' read_csv takes the column count from the first line), as DLIO repeats one
// record per file. A sample's extent is its line. Rows draw from Mix(seed, row), so each
// is reproducible alone. Scan skips the ",0,1,..." header line older trainbench files have.
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

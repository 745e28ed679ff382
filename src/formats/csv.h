// csv: rows of seeded random integers (0..254) as DLIO writes them through pandas'
// to_csv: a header line ",0,1,...,K-1" and then, per sample, a line "i,v,v,...". Each
// sample's line is exactly its sample size in bytes (newline included) where the size
// leaves room for the row index and a value, so sample sizes mean what they say; rows
// with fewer values than the header are read by pandas with NaN in the rest. A sample's
// extent is its line. Rows draw from Mix(seed, row), so each is reproducible alone.
// Stateless; thread-safe.
#pragma once

#include "formats/format.h"

namespace trainbench::formats {

class CsvFormat : public FileFormat {
 public:
  config::Format format() const override { return config::Format::kCsv; }
  WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const override;
  void Verify(const WrittenFile& expected, storage::Storage& storage) const override;
  WrittenFile Scan(const std::string& path, storage::Storage& storage) const override;
};

}  // namespace trainbench::formats

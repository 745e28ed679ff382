#include "formats/parquet/parquet_footer.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "common/error.h"
#include "formats/format.h"
#include "formats/parquet/thrift_compact.h"

namespace trainbench::formats::parquet {
namespace {
constexpr std::string_view kParquetFooterKind = "Parquet file";
}  // namespace

void ReadExactly(storage::RandomAccessFile& file, uint64_t offset, void* buffer, size_t size,
                 const std::string& name) {
  size_t done = 0;
  while (done < size) {
    const size_t n = file.ReadAt(offset + done, static_cast<char*>(buffer) + done, size - done);
    if (n == 0)
      ThrowBadFile(kParquetFooterKind, name, offset + done,
                   fmt::format("file ends {} bytes into a {}-byte read", done, size));
    done += n;
  }
}

Footer ReadFooter(storage::RandomAccessFile& file, uint64_t size, const std::string& name) {
  if (size < kMagicBytes + kTailBytes)
    ThrowBadFile(
        kParquetFooterKind, name, 0,
        fmt::format("{} bytes is too short for a Parquet file (magic, footer, magic)", size));
  char head[kMagicBytes];
  ReadExactly(file, 0, head, kMagicBytes, name);
  if (std::memcmp(head, "PARE", kMagicBytes) == 0)
    throw RuntimeError(fmt::format(
        "{}: an encrypted footer (PARE): trainbench does not read this Parquet feature; write "
        "the dataset without Parquet modular encryption",
        name));
  if (std::memcmp(head, kMagic, kMagicBytes) != 0)
    ThrowBadFile(kParquetFooterKind, name, 0, "no PAR1 magic at the start: not a Parquet file");
  unsigned char tail[kTailBytes];
  ReadExactly(file, size - kTailBytes, tail, kTailBytes, name);
  if (std::memcmp(tail + 4, kMagic, kMagicBytes) != 0)
    ThrowBadFile(kParquetFooterKind, name, size - kMagicBytes,
                 "no PAR1 magic at the end: the file is cut short or was not closed");
  uint32_t length;
  std::memcpy(&length, tail, 4);  // little-endian, as Parquet stores it (x86 and ARM hosts)
  if (length > size - kTailBytes - kMagicBytes)
    ThrowBadFile(kParquetFooterKind, name, size - kTailBytes,
                 fmt::format("footer length {} is more than the {} bytes before it", length,
                             size - kTailBytes - kMagicBytes));
  Footer footer;
  footer.offset = size - kTailBytes - length;
  std::vector<unsigned char> bytes(length);
  ReadExactly(file, footer.offset, bytes.data(), length, name);
  try {
    footer.metadata = DecodeFileMetaData(bytes.data(), bytes.size());
  } catch (const thrift::DecodeError& e) {
    ThrowBadFile(kParquetFooterKind, name, footer.offset + e.offset(),
                 fmt::format("footer (FileMetaData, {} bytes from offset {}): {}", length,
                             footer.offset, e.what()));
  }
  return footer;
}

}  // namespace trainbench::formats::parquet

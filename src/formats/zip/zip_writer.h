// Writes a ZIP archive (the container of numpy's .npz) as one forward stream through a
// BlockWriter, never seeking back, so it works over any AtomicWriter: a file or an S3
// multipart upload. libzip and minizip both rewrite each local header after its data,
// which needs a seekable output; through the Storage interface that would mean holding
// whole npz files (146 MB on average for unet3d, several times that at the tail) in
// memory per thread. libzip still reads what this writes: the npz format verifies with it.
// Every member carries ZIP64 sizes (as np.savez's force_zip64 does) and the archive
// ends with ZIP64 end records, so archives and members over 4 GiB take the same path.
// Not thread-safe: one per archive.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "formats/wire/block_writer.h"

struct z_stream_s;

namespace trainbench::formats {

class ZipWriter {
 public:
  explicit ZipWriter(BlockWriter& out);
  ~ZipWriter();
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  // Starts a STORED member whose size and CRC-32 are known before its data, so its
  // local header is complete (readers that stream without the directory accept it).
  // The caller then appends exactly `size` bytes to the BlockWriter and calls EndStored.
  // Returns the offset of the member's first data byte.
  uint64_t BeginStored(const std::string& name, uint64_t size, uint32_t crc);
  void EndStored();

  // Starts a DEFLATE member at zlib `level`; its CRC and sizes follow the data in a
  // ZIP64 data descriptor (general purpose flag bit 3), as they are known only then.
  void BeginDeflated(const std::string& name, int level);
  void Deflate(const void* data, size_t size);
  void EndDeflated();

  // Writes the central directory and the end records. Call once, after the last member.
  void Finish();

 private:
  struct Entry {
    std::string name;
    uint16_t method = 0;
    uint16_t flags = 0;
    uint32_t crc = 0;
    uint64_t compressed_bytes = 0;
    uint64_t uncompressed_bytes = 0;
    uint64_t header_offset = 0;
    uint64_t data_offset = 0;
  };
  void WriteLocalHeader(const Entry& entry);
  int DeflateStep(int flush);  // returns zlib's status

  BlockWriter& out_;
  std::vector<Entry> entries_;
  std::unique_ptr<z_stream_s> zstream_;
  bool in_member_ = false;
};

}  // namespace trainbench::formats

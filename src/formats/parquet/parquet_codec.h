// The page compression codecs trainbench writes in Parquet files, over their Debian
// libraries: SNAPPY (libsnappy), GZIP (zlib, gzip framing as parquet-mr and Arrow write
// it), ZSTD (libzstd) and LZ4_RAW (liblz4's block format, which DLIO's `lz4` is in
// pyarrow). UNCOMPRESSED is a copy. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "config/workload.h"
#include "formats/parquet/parquet_metadata.h"

namespace trainbench::formats::parquet {

// The codec for dataset.compression, or nullopt for one Parquet has no codec for here
// (lzf, bz2, zip, xz).
std::optional<Codec> CodecFor(config::Compression compression);
// "SNAPPY", as parquet.thrift names it.
std::string CodecName(Codec codec);

// Compresses `size` bytes into `out` (resized to the compressed size). `level` is used by
// GZIP (1-9) and ZSTD (1-22) and clamped to their range; SNAPPY and LZ4_RAW have none.
void Compress(Codec codec, int level, const unsigned char* data, size_t size,
              std::vector<unsigned char>& out);
// Decompresses into exactly `out_size` bytes; "" or what went wrong.
std::string Decompress(Codec codec, const unsigned char* data, size_t size, unsigned char* out,
                       size_t out_size);

}  // namespace trainbench::formats::parquet

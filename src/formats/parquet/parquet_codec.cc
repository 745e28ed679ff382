#include "formats/parquet/parquet_codec.h"

#include <fmt/format.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace trainbench::formats::parquet {
namespace {
// zlib's windowBits: 15 (32 KiB window) + 16 writes gzip framing; + 32 reads either framing.
constexpr int kGzipWrite = 15 + 16;
constexpr int kGzipOrZlibRead = 15 + 32;

void Gzip(int level, const unsigned char* data, size_t size, std::vector<unsigned char>& out) {
  z_stream z{};
  if (deflateInit2(&z, std::clamp(level, 1, 9), Z_DEFLATED, kGzipWrite, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    throw std::runtime_error("zlib: deflateInit2 failed");
  out.resize(deflateBound(&z, size));
  z.next_in = const_cast<unsigned char*>(data);  // zlib's API is not const-correct
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error(fmt::format("zlib: deflate returned {}", rc));
}

std::string Gunzip(const unsigned char* data, size_t size, unsigned char* out, size_t out_size) {
  z_stream z{};
  if (inflateInit2(&z, kGzipOrZlibRead) != Z_OK) return "zlib: inflateInit2 failed";
  z.next_in = const_cast<unsigned char*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out;
  z.avail_out = static_cast<uInt>(out_size);
  const int rc = inflate(&z, Z_FINISH);
  const uint64_t got = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return fmt::format("gzip data does not inflate (zlib {})", rc);
  if (got != out_size) return fmt::format("gzip data inflates to {} bytes, not {}", got, out_size);
  return "";
}
}  // namespace

std::optional<Codec> CodecFor(config::Compression compression) {
  switch (compression) {
    case config::Compression::kNone:
      return Codec::kUncompressed;
    case config::Compression::kSnappy:
      return Codec::kSnappy;
    case config::Compression::kGzip:
      return Codec::kGzip;
    case config::Compression::kZstd:
      return Codec::kZstd;
    case config::Compression::kLz4:
      return Codec::kLz4Raw;
    default:
      return std::nullopt;
  }
}

std::string CodecName(Codec codec) {
  switch (codec) {
    case Codec::kUncompressed:
      return "UNCOMPRESSED";
    case Codec::kSnappy:
      return "SNAPPY";
    case Codec::kGzip:
      return "GZIP";
    case Codec::kLzo:
      return "LZO";
    case Codec::kBrotli:
      return "BROTLI";
    case Codec::kLz4:
      return "LZ4";
    case Codec::kZstd:
      return "ZSTD";
    case Codec::kLz4Raw:
      return "LZ4_RAW";
  }
  return fmt::format("codec {}", static_cast<int>(codec));
}

void Compress(Codec codec, int level, const unsigned char* data, size_t size,
              std::vector<unsigned char>& out) {
  const auto* in = reinterpret_cast<const char*>(data);
  switch (codec) {
    case Codec::kUncompressed:
      out.assign(data, data + size);
      return;
    case Codec::kSnappy: {
      size_t n = snappy_max_compressed_length(size);
      out.resize(n);
      if (snappy_compress(in, size, reinterpret_cast<char*>(out.data()), &n) != SNAPPY_OK)
        throw std::runtime_error("snappy_compress failed");
      out.resize(n);
      return;
    }
    case Codec::kGzip:
      Gzip(level, data, size, out);
      return;
    case Codec::kZstd: {
      out.resize(ZSTD_compressBound(size));
      const size_t n =
          ZSTD_compress(out.data(), out.size(), data, size, std::clamp(level, 1, ZSTD_maxCLevel()));
      if (ZSTD_isError(n))
        throw std::runtime_error(fmt::format("ZSTD_compress: {}", ZSTD_getErrorName(n)));
      out.resize(n);
      return;
    }
    case Codec::kLz4Raw: {
      if (size > LZ4_MAX_INPUT_SIZE)
        throw std::runtime_error(fmt::format("a page of {} bytes is too large for LZ4", size));
      out.resize(LZ4_compressBound(static_cast<int>(size)));
      const int n = LZ4_compress_default(in, reinterpret_cast<char*>(out.data()),
                                         static_cast<int>(size), static_cast<int>(out.size()));
      if (n <= 0) throw std::runtime_error("LZ4_compress_default failed");
      out.resize(static_cast<size_t>(n));
      return;
    }
    default:
      throw std::runtime_error(fmt::format("trainbench does not write {}", CodecName(codec)));
  }
}

std::string Decompress(Codec codec, const unsigned char* data, size_t size, unsigned char* out,
                       size_t out_size) {
  const auto* in = reinterpret_cast<const char*>(data);
  switch (codec) {
    case Codec::kUncompressed:
      if (size != out_size) return fmt::format("{} bytes stored, {} expected", size, out_size);
      std::memcpy(out, data, size);
      return "";
    case Codec::kSnappy: {
      size_t n = 0;
      if (snappy_uncompressed_length(in, size, &n) != SNAPPY_OK) return "not snappy data";
      if (n != out_size)
        return fmt::format("snappy data uncompresses to {} bytes, not {}", n, out_size);
      if (snappy_uncompress(in, size, reinterpret_cast<char*>(out), &n) != SNAPPY_OK)
        return "snappy data does not uncompress";
      return "";
    }
    case Codec::kGzip:
      return Gunzip(data, size, out, out_size);
    case Codec::kZstd: {
      const size_t n = ZSTD_decompress(out, out_size, data, size);
      if (ZSTD_isError(n)) return fmt::format("zstd: {}", ZSTD_getErrorName(n));
      if (n != out_size) return fmt::format("zstd data gives {} bytes, not {}", n, out_size);
      return "";
    }
    case Codec::kLz4Raw: {
      if (size > INT_MAX || out_size > INT_MAX) return "page too large for LZ4";
      const int n = LZ4_decompress_safe(in, reinterpret_cast<char*>(out), static_cast<int>(size),
                                        static_cast<int>(out_size));
      if (n < 0) return "LZ4_RAW data does not decompress";
      if (static_cast<size_t>(n) != out_size)
        return fmt::format("LZ4_RAW data gives {} bytes, not {}", n, out_size);
      return "";
    }
    default:
      return fmt::format("codec {} is not one trainbench reads", CodecName(codec));
  }
}

}  // namespace trainbench::formats::parquet

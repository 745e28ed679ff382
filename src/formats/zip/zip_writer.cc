#include "formats/zip/zip_writer.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <climits>

#include "common/error.h"
#include "formats/wire/crc32c.h"
#include "formats/zip/zip_layout.h"

namespace trainbench::formats {
using namespace zip_records;  // NOLINT(build/namespaces): the record layout constants

ZipWriter::ZipWriter(BlockWriter& out) : out_(out) {}

ZipWriter::~ZipWriter() {
  if (zstream_) deflateEnd(zstream_.get());
}

void ZipWriter::WriteLocalHeader(const Entry& e) {
  const bool sizes_known = (e.flags & kFlagDataDescriptor) == 0;
  Packer p;
  p.U32(kLocalHeaderSignature).U16(kVersionZip64).U16(e.flags).U16(e.method);
  p.U16(kDosTime).U16(kDosDate).U32(sizes_known ? e.crc : 0);
  p.U32(kUnknown32).U32(kUnknown32);  // sizes are in the ZIP64 extra field
  p.U16(static_cast<uint16_t>(e.name.size())).U16(20).Bytes(e.name);
  p.U16(kZip64ExtraId).U16(16);
  p.U64(sizes_known ? e.uncompressed_bytes : 0).U64(sizes_known ? e.compressed_bytes : 0);
  out_.Append(p.str().data(), p.str().size());
}

uint64_t ZipWriter::BeginStored(const std::string& name, uint64_t size, uint32_t crc) {
  if (in_member_) throw RuntimeError("zip: a member is still open");
  Entry e{name, kMethodStored, 0, crc, size, size, out_.Offset(), 0};
  WriteLocalHeader(e);
  e.data_offset = out_.Offset();
  entries_.push_back(e);
  in_member_ = true;
  return e.data_offset;
}

void ZipWriter::EndStored() {
  const Entry& e = entries_.back();
  if (out_.Offset() != e.data_offset + e.uncompressed_bytes)
    throw RuntimeError(fmt::format("zip member {}: {} bytes written, {} announced", e.name,
                                   out_.Offset() - e.data_offset, e.uncompressed_bytes));
  in_member_ = false;
}

void ZipWriter::BeginDeflated(const std::string& name, int level) {
  if (in_member_) throw RuntimeError("zip: a member is still open");
  Entry e{name, kMethodDeflated, kFlagDataDescriptor, 0, 0, 0, out_.Offset(), 0};
  WriteLocalHeader(e);
  e.data_offset = out_.Offset();
  entries_.push_back(e);
  if (!zstream_) zstream_ = std::make_unique<z_stream_s>();
  if (zstream_->state) deflateEnd(zstream_.get());
  *zstream_ = z_stream_s{};
  // Negative window bits: a raw deflate stream, as ZIP stores it (no zlib header).
  if (deflateInit2(zstream_.get(), std::clamp(level, 0, 9), Z_DEFLATED, -MAX_WBITS, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    throw RuntimeError(fmt::format("zip member {}: zlib deflateInit2 failed", name));
  in_member_ = true;
}

int ZipWriter::DeflateStep(int flush) {
  size_t space = 0;
  unsigned char* dst = out_.Space(UINT_MAX, &space);
  zstream_->next_out = dst;
  zstream_->avail_out = static_cast<uInt>(space);
  const int rc = deflate(zstream_.get(), flush);
  if (rc == Z_STREAM_ERROR)
    throw RuntimeError(fmt::format("zip member {}: zlib deflate failed", entries_.back().name));
  out_.Advance(space - zstream_->avail_out);
  return rc;
}

void ZipWriter::Deflate(const void* data, size_t size) {
  Entry& e = entries_.back();
  const auto* p = static_cast<const unsigned char*>(data);
  e.crc = Crc32(p, size, e.crc);
  e.uncompressed_bytes += size;
  while (size > 0) {
    const size_t n = std::min<size_t>(size, UINT_MAX);
    zstream_->next_in = const_cast<unsigned char*>(p);  // zlib's API is not const-correct
    zstream_->avail_in = static_cast<uInt>(n);
    while (zstream_->avail_in > 0) DeflateStep(Z_NO_FLUSH);
    p += n;
    size -= n;
  }
}

void ZipWriter::EndDeflated() {
  zstream_->next_in = nullptr;
  zstream_->avail_in = 0;
  while (DeflateStep(Z_FINISH) != Z_STREAM_END) {
  }
  Entry& e = entries_.back();
  e.compressed_bytes = out_.Offset() - e.data_offset;
  Packer p;
  p.U32(kDataDescriptorSignature).U32(e.crc).U64(e.compressed_bytes).U64(e.uncompressed_bytes);
  out_.Append(p.str().data(), p.str().size());
  in_member_ = false;
}

void ZipWriter::Finish() {
  if (in_member_) throw RuntimeError("zip: Finish with a member still open");
  const uint64_t directory_offset = out_.Offset();
  for (const Entry& e : entries_) {
    Packer p;
    p.U32(kCentralHeaderSignature)
        .U16((3 << 8) | kVersionZip64)
        .U16(kVersionZip64);  // made on Unix
    p.U16(e.flags).U16(e.method).U16(kDosTime).U16(kDosDate).U32(e.crc);
    p.U32(kUnknown32).U32(kUnknown32);
    p.U16(static_cast<uint16_t>(e.name.size())).U16(28).U16(0);  // name, extra, comment
    p.U16(0).U16(0).U32(0100644u << 16);  // disk, internal attributes, -rw-r--r-- file
    p.U32(kUnknown32).Bytes(e.name);
    p.U16(kZip64ExtraId).U16(24).U64(e.uncompressed_bytes).U64(e.compressed_bytes);
    p.U64(e.header_offset);
    out_.Append(p.str().data(), p.str().size());
  }
  const uint64_t directory_bytes = out_.Offset() - directory_offset;
  const uint64_t zip64_end_offset = out_.Offset();
  const uint64_t count = entries_.size();
  Packer p;
  p.U32(kZip64EndSignature).U64(kZip64EndBytes - 12).U16((3 << 8) | kVersionZip64);
  p.U16(kVersionZip64).U32(0).U32(0).U64(count).U64(count).U64(directory_bytes);
  p.U64(directory_offset);
  p.U32(kZip64LocatorSignature).U32(0).U64(zip64_end_offset).U32(1);
  // The classic record repeats the values where they fit (readers without ZIP64 then
  // still list the archive) and says "see ZIP64" where they do not.
  const auto fit16 = [](uint64_t v) {
    return static_cast<uint16_t>(std::min<uint64_t>(v, 0xffff));
  };
  const auto fit32 = [](uint64_t v) {
    return static_cast<uint32_t>(std::min<uint64_t>(v, kUnknown32));
  };
  p.U32(kEndSignature).U16(0).U16(0).U16(fit16(count)).U16(fit16(count));
  p.U32(fit32(directory_bytes)).U32(fit32(directory_offset)).U16(0);
  out_.Append(p.str().data(), p.str().size());
}

}  // namespace trainbench::formats

#include "formats/zip/zip_directory.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>

#include "common/error.h"
#include "formats/format.h"
#include "formats/zip/zip_layout.h"

namespace trainbench::formats {
using namespace zip_records;  // NOLINT(build/namespaces): the record layout constants
namespace {

constexpr std::string_view kZipDirectoryKind = "zip archive";

std::vector<unsigned char> ReadExactly(storage::RandomAccessFile& file, uint64_t offset,
                                       size_t size, const std::string& name, const char* what) {
  std::vector<unsigned char> buffer(size);
  if (file.ReadAt(offset, buffer.data(), size) != size)
    ThrowBadFile(kZipDirectoryKind, name, offset, fmt::format("truncated {}", what));
  return buffer;
}

struct Directory {
  uint64_t entries = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

Directory FindDirectory(storage::RandomAccessFile& file, uint64_t size, const std::string& name) {
  // The end record is the last 22 bytes plus a comment of up to 64 KiB.
  const uint64_t tail_bytes = std::min<uint64_t>(size, kEndBytes + kMaxCommentBytes);
  const uint64_t tail_offset = size - tail_bytes;
  const auto tail = ReadExactly(file, tail_offset, tail_bytes, name, "end of archive");
  if (tail_bytes < kEndBytes) ThrowBadFile(kZipDirectoryKind, name, 0, "too short for a zip archive");
  uint64_t at = tail_bytes - kEndBytes;
  while (Get32(&tail[at]) != kEndSignature) {
    if (at == 0) ThrowBadFile(kZipDirectoryKind, name, size, "no end of central directory record");
    --at;
  }
  const unsigned char* end = &tail[at];
  Directory dir{Get16(end + 10), Get32(end + 16), Get32(end + 12)};
  const uint64_t end_offset = tail_offset + at;
  // Where the directory's size and offset came from: errors name that record, not the
  // (damaged) offset it holds, which may lie past the end of the file.
  uint64_t record_offset = end_offset;
  if (end_offset >= kZip64LocatorBytes) {
    const uint64_t locator_offset = end_offset - kZip64LocatorBytes;
    const auto locator = ReadExactly(file, locator_offset, kZip64LocatorBytes, name, "locator");
    if (Get32(locator.data()) == kZip64LocatorSignature) {
      const uint64_t zip64_offset = Get64(&locator[8]);
      // The ZIP64 end record lies before its locator.
      if (locator_offset < kZip64EndBytes || zip64_offset > locator_offset - kZip64EndBytes)
        ThrowBadFile(kZipDirectoryKind, name, locator_offset + 8,
                     fmt::format("the ZIP64 locator points at offset {}, where no {}-byte ZIP64 "
                                 "end record fits before the locator at {}",
                                 zip64_offset, kZip64EndBytes, locator_offset));
      const auto rec = ReadExactly(file, zip64_offset, kZip64EndBytes, name, "ZIP64 end record");
      if (Get32(rec.data()) != kZip64EndSignature)
        ThrowBadFile(kZipDirectoryKind, name, zip64_offset, "ZIP64 end record signature missing");
      dir = {Get64(&rec[32]), Get64(&rec[48]), Get64(&rec[40])};
      record_offset = zip64_offset;
    }
  }
  if (dir.offset > end_offset || dir.bytes > end_offset - dir.offset)
    ThrowBadFile(kZipDirectoryKind, name, record_offset,
                 fmt::format("the end record puts the central directory at {} ({} bytes), past "
                             "the end records at {}",
                             dir.offset, dir.bytes, end_offset));
  return dir;
}

// Applies a ZIP64 extra field: values follow for each 32-bit field that is 0xffffffff.
void ApplyZip64(const unsigned char* extra, size_t size, ZipMember* m, bool* offset_unknown) {
  for (size_t at = 0; at + 4 <= size;) {
    const uint16_t id = Get16(extra + at);
    const uint16_t len = Get16(extra + at + 2);
    if (id == kZip64ExtraId) {
      size_t pos = at + 4;
      const size_t stop = std::min(size, at + 4 + len);
      auto take = [&](uint64_t* field) {
        if (*field == kUnknown32 && pos + 8 <= stop) {
          *field = Get64(extra + pos);
          pos += 8;
        }
      };
      take(&m->uncompressed_bytes);
      take(&m->compressed_bytes);
      if (*offset_unknown && pos + 8 <= stop) {
        m->header_offset = Get64(extra + pos);
        *offset_unknown = false;
      }
      return;
    }
    at += 4 + len;
  }
}

}  // namespace

std::vector<ZipMember> ReadZipDirectory(storage::RandomAccessFile& file, const std::string& name) {
  const uint64_t size = file.Size();
  const Directory dir = FindDirectory(file, size, name);
  const auto cd = ReadExactly(file, dir.offset, dir.bytes, name, "central directory");
  std::vector<ZipMember> members;
  uint64_t at = 0;
  for (uint64_t i = 0; i < dir.entries; ++i) {
    const uint64_t where = dir.offset + at;
    if (at + kCentralHeaderBytes > cd.size())
      ThrowBadFile(kZipDirectoryKind, name, where, "central directory is truncated");
    const unsigned char* h = &cd[at];
    if (Get32(h) != kCentralHeaderSignature)
      ThrowBadFile(kZipDirectoryKind, name, where, "central header signature missing");
    const size_t name_bytes = Get16(h + 28), extra_bytes = Get16(h + 30),
                 comment_bytes = Get16(h + 32);
    const size_t entry_bytes = kCentralHeaderBytes + name_bytes + extra_bytes + comment_bytes;
    if (at + entry_bytes > cd.size())
      ThrowBadFile(kZipDirectoryKind, name, where, "central header runs past the directory");
    ZipMember m;
    m.flags = Get16(h + 8);
    m.method = Get16(h + 10);
    m.crc = Get32(h + 16);
    m.compressed_bytes = Get32(h + 20);
    m.uncompressed_bytes = Get32(h + 24);
    m.header_offset = Get32(h + 42);
    m.name.assign(reinterpret_cast<const char*>(h + kCentralHeaderBytes), name_bytes);
    bool offset_unknown = m.header_offset == kUnknown32;
    ApplyZip64(h + kCentralHeaderBytes + name_bytes, extra_bytes, &m, &offset_unknown);
    if (offset_unknown) ThrowBadFile(kZipDirectoryKind, name, where, "ZIP64 header offset missing");
    const auto local =
        ReadExactly(file, m.header_offset, kLocalHeaderBytes, name, "local file header");
    if (Get32(local.data()) != kLocalHeaderSignature)
      ThrowBadFile(kZipDirectoryKind, name, m.header_offset,
                   fmt::format("local header signature of {} missing", m.name));
    m.data_offset = m.header_offset + kLocalHeaderBytes + Get16(&local[26]) + Get16(&local[28]);
    if (m.data_offset + m.compressed_bytes > dir.offset)
      ThrowBadFile(kZipDirectoryKind, name, m.header_offset,
                   fmt::format("member {} runs into the central directory", m.name));
    members.push_back(std::move(m));
    at += entry_bytes;
  }
  return members;
}

const ZipMember& FindZipMember(const std::vector<ZipMember>& members, const std::string& member,
                               const std::string& name) {
  for (const auto& m : members)
    if (m.name == member) return m;
  throw RuntimeError(fmt::format("{}: zip archive has no member {}", name, member));
}

std::vector<unsigned char> ReadZipMemberPrefix(storage::RandomAccessFile& file,
                                               const ZipMember& member, size_t max_bytes,
                                               const std::string& name) {
  const size_t want = static_cast<size_t>(std::min<uint64_t>(max_bytes, member.uncompressed_bytes));
  if (member.method == kMethodStored)
    return ReadExactly(file, member.data_offset, want, name, "member data");
  if (member.method != kMethodDeflated)
    ThrowBadFile(kZipDirectoryKind, name, member.header_offset,
                 fmt::format("member {} uses compression method {}", member.name, member.method));
  std::vector<unsigned char> out(want);
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
    ThrowBadFile(kZipDirectoryKind, name, member.data_offset, "zlib inflateInit2");
  std::vector<unsigned char> in(64 * 1024);
  uint64_t read_at = member.data_offset;
  const uint64_t data_end = member.data_offset + member.compressed_bytes;
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(want);
  int rc = Z_OK;
  while (zs.avail_out > 0 && rc != Z_STREAM_END) {
    if (zs.avail_in == 0) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(in.size(), data_end - read_at));
      if (n == 0) break;
      if (file.ReadAt(read_at, in.data(), n) != n) break;
      read_at += n;
      zs.next_in = in.data();
      zs.avail_in = static_cast<uInt>(n);
    }
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
  }
  const size_t got = want - zs.avail_out;
  inflateEnd(&zs);
  if (got != want)
    ThrowBadFile(kZipDirectoryKind, name, member.data_offset,
                 fmt::format("member {} does not inflate", member.name));
  return out;
}

}  // namespace trainbench::formats

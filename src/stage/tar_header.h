// The fields of a tar header block that extraction needs, read from its raw 512 bytes:
// numbers (octal, or GNU base-256 for sizes of 8 GiB and more), the checksum, the name
// (with the POSIX ustar prefix) and the records of a pax extended header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trainbench::stage {

inline constexpr size_t kTarBlock = 512;

// A number field: octal digits after optional leading spaces, ending at a space or NUL (an
// all-NUL field is 0), or GNU base-256 (first byte 0x80, then big-endian bytes). nullopt when
// malformed, negative (base-256 0xff) or past 2^63.
std::optional<uint64_t> ParseTarNumber(std::string_view field);

// A block of 512 zero bytes: two of them end an archive.
bool IsZeroBlock(const unsigned char* block);

// Whether the stored checksum equals the sum of the block's bytes (the checksum field counted
// as spaces), summed as unsigned bytes (POSIX) or as signed ones (old Sun and BSD tars), as
// GNU tar accepts either.
bool TarChecksumOk(const unsigned char* block);

struct TarHeader {
  std::string name;  // the ustar prefix, '/', then the name field when the magic is POSIX's
  uint64_t size = 0;
  char type = '0';
};

// A header block that is not all zeros. Throws RuntimeError naming `place` (e.g. "archive
// offset 1024") on a checksum mismatch or a malformed size.
TarHeader ParseTarHeader(const unsigned char* block, std::string_view place);

// What a pax extended header ('x' or 'g') says about the next member(s). An empty value
// ("path=") unsets a keyword, as POSIX says.
struct PaxRecords {
  std::optional<std::string> path;
  std::optional<uint64_t> size;
  bool sparse = false;  // GNU.sparse.* keywords: a sparse file, whose data is not its bytes
};

// "LENGTH keyword=value\n" records; later ones override `records`' earlier values. Throws
// RuntimeError naming `place` on a malformed record.
void ParsePaxRecords(std::string_view data, std::string_view place, PaxRecords& records);

}  // namespace trainbench::stage

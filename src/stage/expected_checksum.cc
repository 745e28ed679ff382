#include "stage/expected_checksum.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/strings.h"

namespace trainbench::stage {

std::string ChecksumLabel(const Expected& e) {
  return e.hex ? fmt::format("{} ({})", HashName(e.kind), e.from) : "none";
}

ExpectedChecksums::ExpectedChecksums(const StageOptions& options) : options_(options) {
  if (!options_.checksums_file.empty()) checksums_ = ReadChecksumsFile(options_.checksums_file);
}

Expected ExpectedChecksums::For(const std::string& name, const ProbeResult& probe) const {
  Expected e;
  if (!options_.sha256.empty()) {
    e.hex = ToLower(options_.sha256);
    e.from = "--sha256";
  } else if (!options_.checksums_file.empty()) {
    const auto it = checksums_.find(name);
    if (it == checksums_.end())
      throw UsageError(
          fmt::format("--checksums {} has no line for '{}' (names are relative to "
                      "DEST): add it, or stage without --checksums",
                      options_.checksums_file, name));
    e.hex = it->second;
    e.from = "--checksums " + options_.checksums_file;
  } else if (probe.sha256_hex) {
    e.hex = probe.sha256_hex;
    e.from = probe.checksum_from;
  } else if (probe.md5_hex) {
    e.hex = probe.md5_hex;
    e.kind = HashKind::kMd5;
    e.from = probe.checksum_from;
  }
  if (e.hex) e.hasher = std::make_unique<Hasher>(e.kind);
  return e;
}

}  // namespace trainbench::stage

// What each staged object must hash to, and where that is known from: --sha256 (one object),
// a line of --checksums FILE, else what its server said (a Digest header's SHA-256, a
// single-part S3 ETag's MD5); none known, the object is staged unverified.
// Not thread-safe: the stage's loop thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "stage/checksum.h"
#include "stage/probe.h"
#include "stage/stager.h"

namespace trainbench::stage {

// What an object must hash to, and the hasher fed its bytes in order.
struct Expected {
  std::optional<std::string> hex;  // none: no checksum is known
  HashKind kind = HashKind::kSha256;
  std::string from;  // "--sha256", "--checksums FILE", "digest header", "S3 ETag"
  std::unique_ptr<Hasher> hasher;
  std::optional<std::string> got;  // the digest once the last byte was fed
};

// The object's `checksum` in the results: "sha-256 (--sha256)", or "none".
std::string ChecksumLabel(const Expected& e);

class ExpectedChecksums {
 public:
  // Reads --checksums FILE when one is given: throws UsageError naming the file, or its line
  // that does not parse.
  explicit ExpectedChecksums(const StageOptions& options);
  // What object `name` (relative to DEST) must hash to, `probe` being its server's answer.
  // Throws UsageError when --checksums has no line for it.
  Expected For(const std::string& name, const ProbeResult& probe) const;

 private:
  const StageOptions& options_;
  std::map<std::string, std::string> checksums_;  // --checksums: name -> hex
};

}  // namespace trainbench::stage

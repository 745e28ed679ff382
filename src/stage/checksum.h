// Object checksums: SHA-256 and MD5 over bytes fed in order (OpenSSL's EVP), the hex and
// base64 forms servers send them in (Digest: sha-256=..., an S3 ETag), and checksum lists in
// sha256sum's format. A Hasher is not thread-safe; the free functions are.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

typedef struct evp_md_ctx_st EVP_MD_CTX;

namespace trainbench::stage {

enum class HashKind { kSha256, kMd5 };

class Hasher {
 public:
  explicit Hasher(HashKind kind);
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  void Update(const void* data, size_t size);
  // The digest in lower-case hex; the hasher starts afresh after.
  std::string FinalHex();
  void Reset();

 private:
  HashKind kind_;
  EVP_MD_CTX* ctx_;
};

// "sha-256" or "md5": what a checksum of this kind is called in messages.
const char* HashName(HashKind kind);

// Lower-case hex of `size` bytes.
std::string ToHex(const unsigned char* data, size_t size);
// Standard base64 (padding optional) to lower-case hex; nullopt when it is not base64.
std::optional<std::string> Base64ToHex(std::string_view text);
// `text` is `digits` hex digits (either case).
bool IsHex(std::string_view text, size_t digits);

// The SHA-256 in a `Digest: sha-256=B64` (RFC 3230) or `Repr-Digest: sha-256=:B64:`
// (RFC 9530) header value, as hex; nullopt when it has none.
std::optional<std::string> Sha256FromDigestHeader(std::string_view value);
// A single-part S3 ETag ("32 hex digits") is the object's MD5; multipart ones ("...-N") and
// other servers' ETags are not checksums: nullopt.
std::optional<std::string> Md5FromS3Etag(std::string_view etag);

// A sha256sum-format file ("HEX  NAME" or "HEX *NAME" per line, '#' comments): name -> hex.
// Names are kept as written, without a leading "./". Throws UsageError naming the file and
// line that does not parse, or the file that cannot be read.
std::map<std::string, std::string> ReadChecksumsFile(const std::string& path);

}  // namespace trainbench::stage

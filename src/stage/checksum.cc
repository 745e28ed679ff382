#include "stage/checksum.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <cctype>
#include <fstream>
#include <stdexcept>

#include "common/error.h"

namespace trainbench::stage {

Hasher::Hasher(HashKind kind) : kind_(kind), ctx_(EVP_MD_CTX_new()) {
  if (!ctx_) throw std::bad_alloc();
  Reset();
}

Hasher::~Hasher() { EVP_MD_CTX_free(ctx_); }

void Hasher::Reset() {
  EVP_DigestInit_ex(ctx_, kind_ == HashKind::kSha256 ? EVP_sha256() : EVP_md5(), nullptr);
}

void Hasher::Update(const void* data, size_t size) { EVP_DigestUpdate(ctx_, data, size); }

std::string Hasher::FinalHex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(ctx_, digest, &length);
  Reset();
  return ToHex(digest, length);
}

const char* HashName(HashKind kind) { return kind == HashKind::kSha256 ? "sha-256" : "md5"; }

std::string ToHex(const unsigned char* data, size_t size) {
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    hex += kHex[data[i] >> 4];
    hex += kHex[data[i] & 15];
  }
  return hex;
}

bool IsHex(std::string_view text, size_t digits) {
  if (text.size() != digits) return false;
  for (char c : text)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::optional<std::string> Base64ToHex(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  std::string bytes;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+' || c == '-')
      v = 62;
    else if (c == '/' || c == '_')
      v = 63;
    else
      return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  if (bytes.empty()) return std::nullopt;
  return ToHex(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

std::optional<std::string> Sha256FromDigestHeader(std::string_view value) {
  // A list of "algorithm=value" items; the algorithm is case-insensitive.
  size_t start = 0;
  while (start < value.size()) {
    size_t end = value.find(',', start);
    if (end == std::string_view::npos) end = value.size();
    std::string_view item = value.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    const size_t eq = item.find('=');
    if (eq != std::string_view::npos) {
      std::string name(item.substr(0, eq));
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::string_view v = item.substr(eq + 1);
      while (!v.empty() && (v.back() == ' ' || v.back() == ':')) v.remove_suffix(1);
      while (!v.empty() && v.front() == ':') v.remove_prefix(1);
      if (name == "sha-256") {
        auto hex = Base64ToHex(v);
        if (hex && hex->size() == 64) return hex;
      }
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> Md5FromS3Etag(std::string_view etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"')
    etag = etag.substr(1, etag.size() - 2);
  if (!IsHex(etag, 32)) return std::nullopt;
  std::string hex(etag);
  for (char& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return hex;
}

std::map<std::string, std::string> ReadChecksumsFile(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw UsageError(
        fmt::format("--checksums: cannot read '{}'; give a file in sha256sum's "
                    "format (`sha256sum FILES > {}`)",
                    path, path));
  std::map<std::string, std::string> sums;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find(' ');
    std::string hex = line.substr(0, space);
    if (space == std::string::npos || !IsHex(hex, 64) || space + 2 > line.size())
      throw UsageError(fmt::format(
          "--checksums: {}:{} is not a sha256sum line (64 hex digits, two spaces or \" *\", a "
          "name): '{}'",
          path, number, line.substr(0, 120)));
    std::string name = line.substr(space + 1);
    if (!name.empty() && (name[0] == ' ' || name[0] == '*')) name.erase(0, 1);
    if (name.rfind("./", 0) == 0) name.erase(0, 2);
    for (char& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    sums[name] = hex;
  }
  return sums;
}

}  // namespace trainbench::stage

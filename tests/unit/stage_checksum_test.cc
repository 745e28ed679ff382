#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "common/error.h"
#include "stage/checksum.h"

namespace trainbench::stage {
namespace {

TEST(StageChecksum, Sha256AndMd5OfKnownText) {
  Hasher sha(HashKind::kSha256);
  sha.Update("abc", 3);
  EXPECT_EQ(sha.FinalHex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // In pieces, and the hasher starts afresh after FinalHex.
  sha.Update("a", 1);
  sha.Update("bc", 2);
  EXPECT_EQ(sha.FinalHex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Hasher md5(HashKind::kMd5);
  md5.Update("abc", 3);
  EXPECT_EQ(md5.FinalHex(), "900150983cd24fb0d6963f7d28e17f72");
}

TEST(StageChecksum, DigestHeaders) {
  // sha-256 of "abc" in base64.
  const std::string b64 = "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=";
  const std::string hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  EXPECT_EQ(Sha256FromDigestHeader("sha-256=" + b64), hex);
  EXPECT_EQ(Sha256FromDigestHeader("MD5=xyz, SHA-256=" + b64), hex);
  EXPECT_EQ(Sha256FromDigestHeader("sha-256=:" + b64 + ":"), hex);  // RFC 9530
  EXPECT_FALSE(Sha256FromDigestHeader("md5=kAFQmDzST7DWlj99KOF/cg=="));
  EXPECT_FALSE(Sha256FromDigestHeader("sha-256=!!!"));
  EXPECT_FALSE(Sha256FromDigestHeader(""));
}

TEST(StageChecksum, S3EtagIsMd5OnlyForSinglePart) {
  EXPECT_EQ(Md5FromS3Etag("\"900150983CD24FB0D6963F7D28E17F72\""),
            "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_FALSE(Md5FromS3Etag("\"900150983cd24fb0d6963f7d28e17f72-3\""));  // multipart
  EXPECT_FALSE(Md5FromS3Etag("\"6540b8d5-40000000\""));                   // nginx's
}

TEST(StageChecksum, ChecksumsFile) {
  const std::string path = testing::TempDir() + "/stage_sums.txt";
  {
    std::ofstream out(path);
    out << "# made by sha256sum\n"
        << "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD  ./a/b.tar\n"
        << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad *c.bin\n";
  }
  const auto sums = ReadChecksumsFile(path);
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_EQ(sums.at("a/b.tar"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_TRUE(sums.count("c.bin"));
  {
    std::ofstream out(path);
    out << "nothex  name\n";
  }
  try {
    ReadChecksumsFile(path);
    FAIL() << "a bad line was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":1"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
  EXPECT_THROW(ReadChecksumsFile(path), UsageError);
}

}  // namespace
}  // namespace trainbench::stage

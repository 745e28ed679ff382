#include "formats/wire/crc32c.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <numeric>
#include <vector>

namespace trainbench::formats {
namespace {

// RFC 3720 (iSCSI), appendix B.4: CRC32C test vectors.
TEST(Crc32cTest, Rfc3720Vectors) {
  std::vector<unsigned char> zeros(32, 0x00), ones(32, 0xff), up(32), down(32);
  std::iota(up.begin(), up.end(), 0);
  for (int i = 0; i < 32; ++i) down[i] = static_cast<unsigned char>(31 - i);
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8a9136aau);
  EXPECT_EQ(Crc32c(ones.data(), ones.size()), 0x62a8ab43u);
  EXPECT_EQ(Crc32c(up.data(), up.size()), 0x46dd794eu);
  EXPECT_EQ(Crc32c(down.data(), down.size()), 0x113fdb5cu);
  // An iSCSI SCSI Read (10) command PDU.
  const unsigned char pdu[48] = {0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00,
                                 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00,
                                 0x00, 0x18, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(Crc32c(pdu, sizeof(pdu)), 0xd9963a56u);
}

TEST(Crc32cTest, IncrementalEqualsWhole) {
  const char* text = "123456789";
  EXPECT_EQ(Crc32c(text, 9), 0xe3069283u);  // the standard check value
  EXPECT_EQ(Crc32c(text + 4, 5, Crc32c(text, 4)), 0xe3069283u);
}

TEST(Crc32cTest, MaskMatchesTensorFlow) {
  // TensorFlow's masked CRC of an empty buffer's CRC (0).
  EXPECT_EQ(MaskCrc(0), 0xa282ead8u);
  const uint32_t crc = 0x12345678u;
  EXPECT_EQ(MaskCrc(crc), ((crc >> 15) | (crc << 17)) + 0xa282ead8u);
}

TEST(Crc32Test, MatchesZlib) {
  EXPECT_EQ(Crc32("123456789", 9), 0xcbf43926u);  // the standard check value
  std::vector<unsigned char> data(100000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 7 + i / 13);
  const uint32_t whole = Crc32(data.data(), data.size());
  EXPECT_EQ(whole, crc32(0, data.data(), static_cast<uInt>(data.size())));
  EXPECT_EQ(Crc32(data.data() + 500, data.size() - 500, Crc32(data.data(), 500)), whole);
}

}  // namespace
}  // namespace trainbench::formats

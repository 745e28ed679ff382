// storage::OpenStorage, the one factory of backends: a path or file:// is the file system,
// http(s):// (in any case) a web server read in place; a web server refuses what writes
// (a writer's lock included) but takes a reader's mark as a no-op; any other scheme is
// refused naming every scheme there is. A URL's password is never in what it says.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "storage/http_storage.h"
#include "storage/posix_storage.h"
#include "storage/storage.h"

namespace trainbench::storage {
namespace {

TEST(OpenStorageTest, APathAndAFileUriAreTheFileSystem) {
  auto plain = OpenStorage("/tmp/tb-open");
  ASSERT_NE(dynamic_cast<PosixStorage*>(plain.get()), nullptr);
  EXPECT_EQ(plain->LocalPath("a.bin"), "/tmp/tb-open/a.bin");
  auto file = OpenStorage("file:///tmp/tb-open");
  ASSERT_NE(dynamic_cast<PosixStorage*>(file.get()), nullptr);
  EXPECT_EQ(file->LocalPath("a.bin"), "/tmp/tb-open/a.bin");
}

TEST(OpenStorageTest, AnHttpUrlIsAWebServerReadOnly) {
  for (const std::string uri :
       {"http://alice:hunter2@127.0.0.1:9/data/", "HTTPS://alice:hunter2@127.0.0.1:9/data"}) {
    SCOPED_TRACE(uri);
    auto storage = OpenStorage(uri);
    ASSERT_NE(dynamic_cast<HttpStorage*>(storage.get()), nullptr);
    const std::string described = storage->Describe("x.tar");
    EXPECT_NE(described.find("alice:<redacted>@127.0.0.1:9/data/x.tar"), std::string::npos)
        << described;
    EXPECT_EQ(described.find("hunter2"), std::string::npos);
    EXPECT_FALSE(storage->LocalPath("x.tar").has_value());
    EXPECT_THROW(storage->Create("x.tar"), UsageError);
    EXPECT_THROW(storage->TryLock(".trainbench.lock"), UsageError);
    const LockAttempt mark = storage->TryLockFreshName(".trainbench.readers/host.1.0");
    EXPECT_EQ(mark.lock, nullptr);
    EXPECT_TRUE(mark.holder.empty());
  }
}

TEST(OpenStorageTest, AnotherSchemeIsRefusedNamingEverySchemeAndNoPassword) {
  try {
    OpenStorage("ftp://bob:hunter2@host/data");
    FAIL() << "ftp:// opened";
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("scheme 'ftp' is not supported"), std::string::npos) << message;
    EXPECT_NE(message.find("file:///path"), std::string::npos) << message;
    EXPECT_NE(message.find("s3://bucket/prefix"), std::string::npos) << message;
    EXPECT_NE(message.find("http(s)://"), std::string::npos) << message;
    EXPECT_NE(message.find("bob:<redacted>@host"), std::string::npos) << message;
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace trainbench::storage

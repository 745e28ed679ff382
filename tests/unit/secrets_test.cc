#include "common/secrets.h"

#include <gtest/gtest.h>

namespace trainbench {
namespace {

TEST(RedactUrlPasswords, HidesTheUserinfoPasswordKeepsTheRest) {
  EXPECT_EQ(RedactUrlPasswords("http://alice:PASSW0RDX@127.0.0.1:8080/data/f.bin"),
            "http://alice:<redacted>@127.0.0.1:8080/data/f.bin");
  EXPECT_EQ(RedactUrlPasswords("https://bob:MIRRORPW@cache:3128"),
            "https://bob:<redacted>@cache:3128");
  // In a message, every URL; a quote or space ends a URL that has no path.
  EXPECT_EQ(RedactUrlPasswords("--mirror 'http://bob:pw@m:1' and SOURCE http://a:b@h/x?q=1 end"),
            "--mirror 'http://bob:<redacted>@m:1' and SOURCE http://a:<redacted>@h/x?q=1 end");
  // A percent-encoded '@' or ':' in the password is hidden with it.
  EXPECT_EQ(RedactUrlPasswords("http://u:p%40ss%3Aword@h/"), "http://u:<redacted>@h/");
}

TEST(RedactUrlPasswords, LeavesTextWithoutAPasswordAlone) {
  for (const char* text :
       {"http://127.0.0.1:8080/a@b.bin", "http://alice@host/f", "s3://bucket/key",
        "no url here: x@y", "ftp://", "", "http://h/p?to=a:b@c"})
    EXPECT_EQ(RedactUrlPasswords(text), text) << text;
}

TEST(IsSecretName, NamesThePasswordsAndKeys) {
  EXPECT_TRUE(IsSecretName("secret_access_key"));
  EXPECT_TRUE(IsSecretName("AWS_SESSION_TOKEN"));
  EXPECT_TRUE(IsSecretName("password"));
  EXPECT_FALSE(IsSecretName("access_key_id"));
}

}  // namespace
}  // namespace trainbench

// The next step S3Endpoint::Error names for a failed request: each cause its own (issue 34:
// a skewed clock and a missing permission were both told to check the key and the region,
// and a certificate not yet valid was called one not signed by a trusted CA).
#include <gtest/gtest.h>

#include <string>

#include "storage/s3/s3_http.h"
#include "storage/s3/s3_options.h"

namespace trainbench::storage {
namespace {

std::string ErrorFor(long status, const std::string& body, CURLcode curl = CURLE_OK,
                     const std::string& curl_error = "") {
  S3Options o;
  o.endpoint = "https://s3.example.com:7480";
  o.access_key_id = "AKID";
  o.secret_access_key = "secret";
  o.credentials_source = "AWS_ACCESS_KEY_ID";
  S3Endpoint e(o, S3Location{"bench", "ds"});
  S3Request r;
  r.method = "PUT";
  r.key = "ds/train/a.npy";
  S3Result result;
  result.status = status;
  result.curl = curl;
  S3Transfer t;
  t.text = body;
  std::snprintf(t.error, sizeof t.error, "%s", curl_error.c_str());
  return e.Error(r, result, t);
}

TEST(S3ErrorHintTest, RequestTimeTooSkewedNamesTheClocks) {
  const std::string m = ErrorFor(
      403,
      "<Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request "
      "time and the current time is too large.</Message><RequestTime>20261127T101500Z"
      "</RequestTime><ServerTime>2026-11-27T14:30:00Z</ServerTime></Error>");
  EXPECT_NE(m.find("HTTP 403 RequestTimeTooSkewed"), std::string::npos) << m;
  EXPECT_NE(m.find("this host's clock (20261127T101500Z) and the server's (2026-11-27T14:30:00Z) "
                   "differ"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("NTP"), std::string::npos) << m;
  EXPECT_EQ(m.find("check the access key"), std::string::npos) << m;
}

TEST(S3ErrorHintTest, AccessDeniedNamesThePermission) {
  const std::string m =
      ErrorFor(403, "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>");
  EXPECT_NE(m.find("the access key (from AWS_ACCESS_KEY_ID) is valid, but not allowed PutObject "
                   "on s3://bench/ds/train/a.npy: grant it that permission"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("check the access key"), std::string::npos) << m;
}

TEST(S3ErrorHintTest, ABadSignatureNamesTheSecretAndAnUnknownKeyTheKeyId) {
  const std::string m = ErrorFor(403, "<Error><Code>SignatureDoesNotMatch</Code></Error>");
  EXPECT_NE(m.find("check the secret access key (from AWS_ACCESS_KEY_ID)"), std::string::npos) << m;
  const std::string key = ErrorFor(403, "<Error><Code>InvalidAccessKeyId</Code></Error>");
  EXPECT_NE(key.find("the server knows no such access key: check the access key ID (from "
                     "AWS_ACCESS_KEY_ID)"),
            std::string::npos)
      << key;
  // A 403 that names no code still names every suspect.
  const std::string bare = ErrorFor(403, "");
  EXPECT_NE(bare.find("check the access key and secret (from AWS_ACCESS_KEY_ID) and the region"),
            std::string::npos)
      << bare;
}

TEST(S3ErrorHintTest, ACertificateNotYetValidNamesTheClock) {
  const std::string m = ErrorFor(0, "", CURLE_PEER_FAILED_VERIFICATION,
                                 "SSL certificate problem: certificate is not yet valid");
  EXPECT_NE(m.find("not valid yet by this host's clock: this host's clock is behind"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("not signed by a CA"), std::string::npos) << m;
  const std::string expired = ErrorFor(0, "", CURLE_PEER_FAILED_VERIFICATION,
                                       "SSL certificate problem: certificate has expired");
  EXPECT_NE(expired.find("has expired by this host's clock"), std::string::npos) << expired;
  const std::string untrusted =
      ErrorFor(0, "", CURLE_PEER_FAILED_VERIFICATION,
               "SSL certificate problem: unable to get local issuer certificate");
  EXPECT_NE(untrusted.find("not signed by a CA trusted here"), std::string::npos) << untrusted;
}

}  // namespace
}  // namespace trainbench::storage

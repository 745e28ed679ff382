// S3 URLs: path style or virtual-hosted (the bucket in the host name), as
// S3Options::force_path_style and the endpoint decide. The gateway tests
// (tests/s3/addressing_test.sh) check that the server accepts both and their signatures.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/error.h"
#include "storage/s3/s3_http.h"
#include "storage/s3/s3_options.h"

namespace trainbench::storage {
namespace {

S3Options Options(const std::string& endpoint, std::optional<bool> force_path_style) {
  S3Options o;
  o.endpoint = endpoint;
  o.force_path_style = force_path_style;
  o.access_key_id = "AKID";
  o.secret_access_key = "secret";
  return o;
}

std::string UrlOf(const std::string& endpoint, std::optional<bool> force_path_style,
                  const std::string& bucket, const std::string& key) {
  S3Endpoint e(Options(endpoint, force_path_style), S3Location{bucket, ""});
  S3Request r;
  r.key = key;
  return e.Url(r);
}

TEST(S3AddressingTest, EndpointHost) {
  EXPECT_EQ(EndpointHost("http://127.0.0.1:7480"), "127.0.0.1");
  EXPECT_EQ(EndpointHost("https://S3.Example.COM"), "s3.example.com");
  EXPECT_EQ(EndpointHost("http://[::1]:9000/"), "[::1]");
  EXPECT_EQ(EndpointHost("http://localhost:9000/base"), "localhost");
  EXPECT_TRUE(IsIpAddressHost("10.0.0.1"));
  EXPECT_TRUE(IsIpAddressHost("[::1]"));
  EXPECT_FALSE(IsIpAddressHost("3com.example"));
}

TEST(S3AddressingTest, DnsEndpointIsVirtualHostedUnlessForced) {
  EXPECT_EQ(UrlOf("https://s3.example.com", std::nullopt, "bench", "a/b c"),
            "https://bench.s3.example.com/a/b%20c");
  EXPECT_EQ(UrlOf("https://s3.example.com", false, "bench", "k"), "https://bench.s3.example.com/k");
  EXPECT_EQ(UrlOf("https://s3.example.com", true, "bench", "k"), "https://s3.example.com/bench/k");
  EXPECT_EQ(UrlOf("http://s3.example.com:8080", std::nullopt, "bench", ""),
            "http://bench.s3.example.com:8080/");
}

TEST(S3AddressingTest, AddressEndpointIsAlwaysPathStyle) {
  for (auto force :
       {std::optional<bool>(), std::optional<bool>(false), std::optional<bool>(true)}) {
    EXPECT_EQ(UrlOf("http://127.0.0.1:7480", force, "bench", "k"), "http://127.0.0.1:7480/bench/k");
    EXPECT_EQ(UrlOf("http://[::1]:7480", force, "bench", "k"), "http://[::1]:7480/bench/k");
  }
}

TEST(S3AddressingTest, LocalhostIsPathStyleUnlessPathStyleIsTurnedOff) {
  // Unset: path style, what a local MinIO or RGW without a DNS name serves.
  EXPECT_EQ(UrlOf("http://localhost:9000", std::nullopt, "bench", "k"),
            "http://localhost:9000/bench/k");
  // DLIO's s3_force_path_style: False means virtual-hosted, as its S3 connector does.
  EXPECT_EQ(UrlOf("http://localhost:9000", false, "bench", "k"), "http://bench.localhost:9000/k");
  EXPECT_EQ(UrlOf("http://localhost:9000", true, "bench", "k"), "http://localhost:9000/bench/k");
}

TEST(S3AddressingTest, BucketsThatCannotBeHostNamesArePathStyle) {
  EXPECT_EQ(UrlOf("https://s3.example.com", false, "My_Bucket", "k"),
            "https://s3.example.com/My_Bucket/k");
  // A dot over https: a wildcard certificate covers one label.
  EXPECT_EQ(UrlOf("https://s3.example.com", false, "a.b.c", "k"), "https://s3.example.com/a.b.c/k");
  EXPECT_EQ(UrlOf("http://s3.example.com", false, "a.b.c", "k"), "http://a.b.c.s3.example.com/k");
  EXPECT_EQ(UrlOf("https://s3.example.com", false, "192.168.1.1", "k"),
            "https://s3.example.com/192.168.1.1/k");
  EXPECT_EQ(UrlOf("https://s3.example.com", false, "-bad", "k"), "https://s3.example.com/-bad/k");
}

TEST(S3AddressingTest, QueryIsSortedAfterTheKey) {
  S3Endpoint e(Options("http://localhost:1", false), S3Location{"bench", "p"});
  S3Request r;
  r.query = {{"prefix", "p/"}, {"list-type", "2"}};
  EXPECT_EQ(e.Url(r), "http://bench.localhost:1/?list-type=2&prefix=p%2F");
  EXPECT_TRUE(e.virtual_hosted());
}

TEST(S3AddressingTest, ForcePathStyleOptionIsTriState) {
  EXPECT_FALSE(ResolveS3Options({}).force_path_style.has_value());
  EXPECT_EQ(ResolveS3Options({{"s3_force_path_style", "False"}}).force_path_style,
            std::optional<bool>(false));
  EXPECT_EQ(ResolveS3Options({{"s3_force_path_style", "true"}}).force_path_style,
            std::optional<bool>(true));
}

TEST(S3AddressingTest, CaBundleSourceIsNamed) {
  const S3Options o = ResolveS3Options({{"ca_bundle", "/etc/ca.pem"}});
  EXPECT_EQ(o.ca_bundle, "/etc/ca.pem");
  EXPECT_EQ(o.ca_bundle_source, "storage.storage_options.ca_bundle");
}

TEST(S3AddressingTest, LeaseSecondsIsAStorageOption) {
  EXPECT_EQ(ResolveS3Options({}).lease_seconds, 60u);
  EXPECT_EQ(ResolveS3Options({{"lease_seconds", "4"}}).lease_seconds, 4u);
  EXPECT_THROW(ResolveS3Options({{"lease_seconds", "0"}}), UsageError);
}

}  // namespace
}  // namespace trainbench::storage

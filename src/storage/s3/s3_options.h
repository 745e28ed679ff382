// Where an S3 endpoint is and who trainbench is to it, resolved the way the AWS tools do
// (later sources win): defaults, ~/.aws/credentials and ~/.aws/config for the profile
// (AWS_PROFILE, else "default"; endpoint_url, region, ca_bundle), the standard environment
// variables (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, AWS_REGION, AWS_DEFAULT_REGION,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_CA_BUNDLE), then DLIO's
// storage_options (endpoint_url, region, access_key_id, secret_access_key, s3_force_path_style,
// s3_max_attempts, ca_bundle, part_size, list_max_keys, range_size, lease_seconds: the table in
// s3_options.cc, whose names storage_options.h gives the layers above). The secret
// never leaves this struct: messages name where it came from, never its value. Plain data;
// thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace trainbench::storage {

struct S3Location {
  std::string bucket;
  std::string prefix;  // no leading or trailing '/'; may be empty
};

// "s3://bucket/some/prefix" -> {bucket, "some/prefix"}; throws UsageError naming the URI.
S3Location ParseS3Uri(const std::string& uri);

struct S3Options {
  std::string endpoint;  // scheme://host[:port]; empty: https://s3.<region>.amazonaws.com
  std::string region = "us-east-1";
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  std::string credentials_source;  // where the keys came from, for messages
  // Addressing: true, the bucket in the path (http://host/bucket/key); false, virtual-hosted
  // (http://bucket.host/key) whenever the bucket can be a host name and the endpoint is not an
  // IP address (localhost included: a false from DLIO's s3_force_path_style means it); unset,
  // virtual-hosted too except for an IP address or localhost endpoint (path style there, what
  // local MinIO or RGW servers without a DNS name serve).
  std::optional<bool> force_path_style;
  unsigned max_attempts = 5;         // per request, the first try included
  std::string ca_bundle;             // PEM file of trusted CAs; empty: the system's
  std::string ca_bundle_source;      // where ca_bundle came from, for messages
  uint64_t part_size = 16ull << 20;  // multipart upload part size
  // The least a ranged GET of a sample asks for (a larger sample is read in pieces of
  // max(reader.transfer_size, this)): as the AWS SDKs' and rclone's 8 MiB download parts,
  // because a GET's fixed cost makes 256 KiB ranges of large objects slow. 0: the pieces
  // are reader.transfer_size.
  uint64_t range_size = 8ull << 20;
  unsigned list_max_keys = 1000;  // keys per ListObjectsV2 page (S3's own maximum)
  // How long a prefix's lock lease lasts unless renewed (renewed every quarter of it): long
  // enough that a slow store never lets a live holder's lease lapse, short enough that a
  // killed holder's is taken over soon. The tests shorten it to see renewals.
  unsigned lease_seconds = 60;
};

// `storage_options`: DLIO's storage.storage_options map. Throws UsageError naming the
// option when a value does not parse, or an unknown option with the nearest known name.
S3Options ResolveS3Options(const std::map<std::string, std::string>& storage_options);

}  // namespace trainbench::storage

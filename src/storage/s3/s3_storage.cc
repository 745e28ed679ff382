#include "storage/s3/s3_storage.h"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <memory>
#include <pugixml.hpp>
#include <vector>

#include "common/error.h"
#include "common/log.h"
#include "storage/s3/s3_lease_lock.h"
#include "storage/s3/s3_read_engine.h"

namespace trainbench::storage {
namespace {

// Parts of a multipart upload in flight at once: enough to hide one part's round trip
// behind the others' transfers without holding many parts in memory.
constexpr size_t kParallelParts = 4;

class S3Writer : public AtomicWriter {
 public:
  S3Writer(const S3Endpoint& endpoint, std::string key) : e_(endpoint), key_(std::move(key)) {}
  ~S3Writer() override {
    for (auto& p : parts_)
      if (p.valid()) p.wait();
    if (upload_id_.empty() || committed_) return;
    try {  // an abandoned upload must not linger (and cost) on the server
      S3Request r;
      r.method = "DELETE";
      r.key = key_;
      r.query = {{"uploadId", upload_id_}};
      S3Transfer t;
      e_.Perform(r, t);
    } catch (const std::exception&) {
    }
  }

  // Parts are part_size bytes whatever the appends' sizes: one Append of a whole object (the
  // dataset's manifest, 12 MB for 100k files) is cut into parts too, not sent as one body.
  void Append(const void* data, size_t size) override {
    const auto* p = static_cast<const unsigned char*>(data);
    const size_t part_size = e_.options().part_size;
    written_ += size;
    while (size > 0) {
      const size_t take = std::min(size, part_size - std::min(part_size, buffer_.size()));
      buffer_.insert(buffer_.end(), p, p + take);
      p += take;
      size -= take;
      if (buffer_.size() >= part_size) StartPart();
    }
  }
  void Sync() override {}  // S3 acknowledges a PUT once it is durable
  void Commit() override {
    if (upload_id_.empty()) {
      S3Request r;
      r.method = "PUT";
      r.key = key_;
      r.body = buffer_.data();
      r.body_size = buffer_.size();
      S3Transfer t;
      e_.Perform(r, t);
    } else {
      if (!buffer_.empty()) StartPart();
      std::string xml = "<CompleteMultipartUpload>";
      for (size_t i = 0; i < parts_.size(); ++i)
        xml += fmt::format("<Part><PartNumber>{}</PartNumber><ETag>{}</ETag></Part>", i + 1,
                           parts_[i].get());  // rethrows a part's failure
      xml += "</CompleteMultipartUpload>";
      S3Request r;
      r.method = "POST";
      r.key = key_;
      r.query = {{"uploadId", upload_id_}};
      r.body = reinterpret_cast<const unsigned char*>(xml.data());
      r.body_size = xml.size();
      r.content_type = "application/xml";
      S3Transfer t;
      std::string failure;
      try {
        e_.Perform(r, t);  // a 200 with an <Error> body is retried there, and thrown
      } catch (const IoError& e) {
        failure = e.what();
      }
      // A lost reply to a Complete that the server carried out: the retry then finds no
      // upload (NoSuchUpload) though the object is whole. The object, if it has our size and
      // part count, is ours.
      if (!failure.empty() && !CompletedAnyway()) throw IoError(failure, 0);
    }
    committed_ = true;
  }
  uint64_t BytesWritten() const override { return written_; }

 private:
  void Initiate() {
    S3Request r;
    r.method = "POST";
    r.key = key_;
    r.query = {{"uploads", ""}};
    S3Transfer t;
    e_.Perform(r, t);
    pugi::xml_document doc;
    doc.load_buffer(t.text.data(), t.text.size());
    upload_id_ = doc.child("InitiateMultipartUploadResult").child_value("UploadId");
    if (upload_id_.empty())
      throw IoError(fmt::format("S3 CreateMultipartUpload {} started no upload: {}",
                                e_.Describe(key_), t.text.substr(0, 300)),
                    0);
  }

  // After a failed Complete: whether the object is there with what we sent (its size, and
  // where the ETag is a multipart one, "<md5>-<parts>", our part count).
  bool CompletedAnyway() const {
    S3Request head;
    head.method = "HEAD";
    head.key = key_;
    S3Transfer t;
    try {
      if (e_.Perform(head, t).status == 404) return false;
    } catch (const IoError&) {
      return false;
    }
    if (t.content_length != written_) return false;
    std::string etag = t.etag;
    std::erase(etag, '"');
    const size_t dash = etag.rfind('-');
    return dash == std::string::npos || etag.substr(dash + 1) == std::to_string(parts_.size());
  }

  // Sends the buffer as the next part on a thread of its own; at most kParallelParts
  // are in flight (the oldest is waited for first).
  void StartPart() {
    if (upload_id_.empty()) Initiate();
    if (parts_.size() >= kParallelParts) parts_[parts_.size() - kParallelParts].wait();
    auto body = std::make_shared<std::vector<unsigned char>>(std::move(buffer_));
    buffer_ = {};
    const std::string number = std::to_string(parts_.size() + 1);
    parts_.push_back(std::async(std::launch::async, [this, body, number] {
      S3Request r;
      r.method = "PUT";
      r.key = key_;
      r.query = {{"partNumber", number}, {"uploadId", upload_id_}};
      r.body = body->data();
      r.body_size = body->size();
      S3Transfer t;
      e_.Perform(r, t);
      return t.etag;
    }));
  }

  const S3Endpoint& e_;
  std::string key_;
  std::vector<unsigned char> buffer_;
  std::string upload_id_;
  std::vector<std::future<std::string>> parts_;  // each part's ETag, in part order
  uint64_t written_ = 0;
  bool committed_ = false;
};

class S3Object : public RandomAccessFile {
 public:
  S3Object(const S3Endpoint& endpoint, std::string key, uint64_t size)
      : e_(endpoint), key_(std::move(key)), size_(size) {}
  size_t ReadAt(uint64_t offset, void* buffer, size_t size) override {
    if (size == 0 || offset >= size_) return 0;
    S3Request r;
    r.key = key_;
    r.range = {{offset, size}};
    S3Transfer t;
    t.out = static_cast<unsigned char*>(buffer);
    t.out_capacity = size;
    e_.Perform(r, t);
    return static_cast<size_t>(std::min<uint64_t>(t.received, size));
  }
  uint64_t Size() override { return size_; }

 private:
  const S3Endpoint& e_;
  std::string key_;
  uint64_t size_;
};

}  // namespace

S3Storage::S3Storage(const std::string& uri,
                     const std::map<std::string, std::string>& storage_options)
    : endpoint_(ResolveS3Options(storage_options), ParseS3Uri(uri)) {
  if (endpoint_.options().access_key_id.empty() || endpoint_.options().secret_access_key.empty())
    throw UsageError(fmt::format(
        "no S3 credentials for {}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile "
        "in ~/.aws/credentials (AWS_PROFILE), or storage.storage_options.access_key_id and "
        "secret_access_key",
        uri));
}

std::unique_ptr<AtomicWriter> S3Storage::Create(const std::string& path) {
  return std::make_unique<S3Writer>(endpoint_, endpoint_.Key(path));
}

std::unique_ptr<RandomAccessFile> S3Storage::Open(const std::string& path, const OpenOptions&) {
  const auto size = FileSize(path);
  if (!size)
    throw IoError(fmt::format("cannot open '{}': no such object at {}", Describe(path),
                              endpoint_.options().endpoint),
                  ENOENT);
  return std::make_unique<S3Object>(endpoint_, endpoint_.Key(path), *size);
}

std::optional<uint64_t> S3Storage::FileSize(const std::string& path) {
  S3Request r;
  r.method = "HEAD";
  r.key = endpoint_.Key(path);
  S3Transfer t;
  const S3Result result = endpoint_.Perform(r, t);
  if (result.status == 404) return std::nullopt;
  return t.content_length.value_or(0);  // HEAD's Content-Length: the object's size
}

void S3Storage::Remove(const std::string& path) {
  S3Request r;
  r.method = "DELETE";
  r.key = endpoint_.Key(path);
  S3Transfer t;
  endpoint_.Perform(r, t);
}

LockAttempt S3Storage::TryLock(const std::string& path) {
  return TryLeaseLock(endpoint_, endpoint_.Key(path));
}

LockAttempt S3Storage::TryLockFreshName(const std::string& path) {
  return TryLeaseLock(endpoint_, endpoint_.Key(path), /*fresh_name=*/true);
}

std::vector<ListEntry> S3Storage::List(const std::string& prefix) {
  std::vector<ListEntry> entries;
  ListEach(prefix, [&](const ListEntry& e) { entries.push_back(e); });
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  return entries;
}

// A page of keys at a time: a million objects are never held as entries at once.
void S3Storage::ListEach(const std::string& prefix,
                         const std::function<void(const ListEntry&)>& each) {
  const std::string root = endpoint_.Key("");
  std::string want = endpoint_.Key(prefix);
  if (!want.empty()) want += "/";
  std::string token;
  for (int page = 0; page < 1000000; ++page) {  // bounded: a million pages of 1000 keys
    S3Request r;
    r.key = "";
    r.query = {{"list-type", "2"},
               {"max-keys", std::to_string(endpoint_.options().list_max_keys)},
               {"prefix", want}};
    if (!token.empty()) r.query.push_back({"continuation-token", token});
    S3Transfer t;
    endpoint_.Perform(r, t);
    pugi::xml_document doc;
    if (!doc.load_buffer(t.text.data(), t.text.size()))
      throw IoError(fmt::format("S3 ListObjectsV2 of {} returned no XML", Describe(prefix)), 0);
    const auto result = doc.child("ListBucketResult");
    for (auto c : result.children("Contents")) {
      std::string key = c.child_value("Key");
      if (!root.empty()) key = key.substr(root.size() + 1);
      each({std::move(key), std::stoull(c.child_value("Size"))});
    }
    if (std::string(result.child_value("IsTruncated")) != "true") break;
    token = result.child_value("NextContinuationToken");
    if (token.empty()) break;
  }
}

// The S3 form of a temporary file: a multipart upload that a killed writer never
// completed nor aborted (a dropped writer aborts its own). It holds storage (and costs)
// until aborted, and no listing of objects shows it.
size_t S3Storage::RemoveLeftovers(const std::string& prefix) {
  if (uploads_unlisted_) return 0;
  std::string want = endpoint_.Key(prefix);
  if (!want.empty()) want += "/";
  size_t removed = 0;
  std::string key_marker, upload_marker;
  for (int page = 0; page < 100000; ++page) {  // bounded: 1000 uploads a page
    S3Request r;
    r.query = {{"uploads", ""}, {"prefix", want}};
    if (!key_marker.empty()) {
      r.query.push_back({"key-marker", key_marker});
      r.query.push_back({"upload-id-marker", upload_marker});
    }
    S3Transfer t;
    try {
      endpoint_.Perform(r, t);
    } catch (const IoError& error) {
      // Best effort: a server without ListMultipartUploads (s3rver: 501) can still be written.
      LogWarning(
          fmt::format("cannot look for multipart uploads left under {} by a killed "
                      "writer (they may hold storage until aborted): {}",
                      Describe(prefix), error.what()));
      uploads_unlisted_ = true;
      return removed;
    }
    pugi::xml_document doc;
    if (!doc.load_buffer(t.text.data(), t.text.size()))
      throw IoError(
          fmt::format("S3 ListMultipartUploads under {} returned no XML", Describe(prefix)), 0);
    const auto result = doc.child("ListMultipartUploadsResult");
    for (auto upload : result.children("Upload")) {
      S3Request abort;
      abort.method = "DELETE";
      abort.key = upload.child_value("Key");
      abort.query = {{"uploadId", upload.child_value("UploadId")}};
      S3Transfer a;
      endpoint_.Perform(abort, a);
      ++removed;
    }
    if (std::string(result.child_value("IsTruncated")) != "true") break;
    key_marker = result.child_value("NextKeyMarker");
    upload_marker = result.child_value("NextUploadIdMarker");
    if (key_marker.empty()) break;
  }
  return removed;
}

std::map<std::string, double> S3Storage::Counters() const {
  const auto& s = endpoint_.stats();
  return {{"s3_requests", static_cast<double>(s.requests.load())},
          {"s3_retries", static_cast<double>(s.retries.load())},
          {"s3_retry_bytes", static_cast<double>(s.retry_bytes.load())},
          {"s3_retry_seconds", static_cast<double>(s.retry_ns.load()) / 1e9}};
}

std::string S3Storage::Describe(const std::string& path) const {
  return endpoint_.Describe(endpoint_.Key(path));
}

std::optional<std::string> S3Storage::LocalPath(const std::string&) const { return std::nullopt; }

std::string S3Storage::EndpointUrl() const {
  return EndpointWithoutUserinfo(endpoint_.options().endpoint);
}

std::unique_ptr<ReadEngine> S3Storage::OpenReadEngine(SharedObjectNames objects,
                                                      const ReadEngineOptions& options) {
  if (options.engine != "s3") return Storage::OpenReadEngine(std::move(objects), options);
  return MakeS3ReadEngine(endpoint_, std::move(objects));
}

bool S3EndpointGiven(const std::map<std::string, std::string>& options) {
  return !ResolveS3Options(options).endpoint.empty();
}

}  // namespace trainbench::storage

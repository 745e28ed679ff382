#include "storage/s3_source.h"

#include <algorithm>

#include "common/error.h"
#include "common/strings.h"
#include "storage/http/range_get_signer.h"
#include "storage/s3/s3_request_queue.h"
#include "storage/s3/s3_storage.h"

namespace trainbench::storage {
namespace {

// A GetObject of a byte range, signed as every S3 request is (S3Endpoint::Prepare).
class S3RangeGetSigner : public RangeGetSigner {
 public:
  explicit S3RangeGetSigner(const S3Endpoint& endpoint) : endpoint_(endpoint) {}

  void PrepareRangeGet(CURL* easy, const std::string& key, uint64_t offset, uint64_t length,
                       std::unique_ptr<SignedRequestState>& state) const override {
    if (!state) state = std::make_unique<State>();
    S3Request r;
    r.key = key;
    r.range = {{offset, length}};
    endpoint_.Prepare(easy, r, static_cast<State&>(*state).transfer);
  }

 private:
  struct State : SignedRequestState {
    S3Transfer transfer;  // the signed headers live here while the request runs
  };
  const S3Endpoint& endpoint_;
};

}  // namespace

S3Source::S3Source(const std::string& uri, const std::map<std::string, std::string>& options)
    : storage_(std::make_unique<S3Storage>(uri, options)),
      signer_(std::make_unique<S3RangeGetSigner>(storage_->endpoint())) {}

S3Source::~S3Source() = default;

const S3Endpoint& S3Source::endpoint() const { return storage_->endpoint(); }

const RangeGetSigner& S3Source::signer() const { return *signer_; }

std::string S3Source::Key(const std::string& path) const { return endpoint().Key(path); }

std::string S3Source::Describe(const std::string& key) const { return endpoint().Describe(key); }

std::string S3Source::ObjectUrl(const std::string& key) const {
  S3Request r;
  r.key = key;
  return endpoint().Url(r);
}

std::string S3Source::MirrorPath(const std::string& key) const {
  return "/" + endpoint().location().bucket + "/" + PercentEncode(key, true);
}

std::optional<uint64_t> S3Source::Size(const std::string& path) { return storage_->FileSize(path); }

std::vector<ListEntry> S3Source::List() { return storage_->List(""); }

uint64_t S3Source::Requests() const { return endpoint().stats().requests.load(); }

std::string S3Source::EndpointUrl() const { return storage_->EndpointUrl(); }

void S3Source::HeadAll(const std::vector<std::string>& keys, unsigned concurrency,
                       const std::function<void(size_t, const HeadResult&)>& done,
                       const std::function<void()>& between) const {
  const S3Endpoint& e = endpoint();
  S3RequestQueue queue(
      e, static_cast<unsigned>(std::clamp<size_t>(keys.size(), 1, std::max(1u, concurrency))));
  auto finished_one = [&](const S3Completion& c) {
    HeadResult r;
    r.attempts = c.attempts;
    r.latency_ns = c.latency_ns;
    r.last_attempt_ns = c.last_attempt_ns;
    if (c.result.curl == CURLE_OK && c.result.status == 404) {
      done(c.tag, r);
      return;
    }
    if (!c.result.Ok()) throw IoError(e.Error(*c.request, c.result, *c.transfer), 0);
    r.found = true;
    r.content_length = c.transfer->content_length;
    r.etag = c.transfer->etag;
    done(c.tag, r);
  };
  size_t next = 0, finished = 0;
  while (finished < keys.size()) {
    if (between) between();
    for (; next < keys.size() && !queue.Full(); ++next) {
      S3Request r;
      r.method = "HEAD";
      r.key = keys[next];
      queue.Submit(r, next);
    }
    finished += queue.Reap(1, 0.2, finished_one);
  }
}

}  // namespace trainbench::storage

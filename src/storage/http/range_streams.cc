#include "storage/range_streams.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "storage/http/curl_multi.h"
#include "storage/http/range_get_signer.h"
#include "storage/s3_source.h"

namespace trainbench::storage {
namespace {

// libcurl's receive buffer: larger than its 16 KiB default, so a range costs fewer recv()
// calls and callbacks (512 KiB is libcurl's own ceiling).
constexpr long kReceiveBuffer = 512 * 1024;

}  // namespace

struct RangeStreams::Impl {
  struct Stream {
    Impl* owner = nullptr;
    unsigned index = 0;
    CURL* easy = nullptr;
    std::unique_ptr<SignedRequestState> signed_state;  // a signed request's, while it runs
    char error[CURL_ERROR_SIZE] = {};
    RangeReply reply;
    bool head_known = false;
  };

  Impl(unsigned n, Receiver r, std::string agent)
      : receiver(std::move(r)), user_agent(std::move(agent)), streams(n), multi(n) {
    for (unsigned i = 0; i < n; ++i) {
      streams[i].owner = this;
      streams[i].index = i;
      streams[i].easy = multi.easy(i);
    }
  }

  static size_t OnHeader(char* data, size_t size, size_t count, void* user) {
    auto& s = *static_cast<Stream*>(user);
    const size_t n = size * count;
    std::string line(data, n);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
    if (line.rfind("HTTP/", 0) == 0) {  // a new response (after a redirect): forget the last
      s.reply.range_start.reset();
      s.reply.range_total.reset();
      return n;
    }
    const size_t colon = line.find(':');
    if (colon == std::string::npos) return n;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name != "content-range") return n;
    const std::string value = line.substr(colon + 1);  // "bytes START-END/TOTAL"
    const size_t bytes = value.find("bytes");
    const size_t dash = value.find('-', bytes);
    const size_t slash = value.find('/', bytes);
    if (bytes == std::string::npos || dash == std::string::npos || slash == std::string::npos)
      return n;
    s.reply.range_start = std::strtoull(value.c_str() + bytes + 5, nullptr, 10);
    if (value[slash + 1] != '*')
      s.reply.range_total = std::strtoull(value.c_str() + slash + 1, nullptr, 10);
    return n;
  }

  static size_t OnBody(char* data, size_t size, size_t count, void* user) {
    auto& s = *static_cast<Stream*>(user);
    const size_t n = size * count;
    if (!s.head_known) {
      s.head_known = true;
      if (!s.reply.file) curl_easy_getinfo(s.easy, CURLINFO_RESPONSE_CODE, &s.reply.status);
    }
    return s.owner->receiver(s.index, s.reply, data, n) ? n : 0;
  }

  void Start(Stream& s, const RangeGet& get) {
    if (get.s3) {
      get.s3->signer().PrepareRangeGet(s.easy, get.s3_key, get.offset, get.length,
                                       s.signed_state);  // resets the handle first
    } else {
      curl_easy_reset(s.easy);
      curl_easy_setopt(s.easy, CURLOPT_URL, get.url.c_str());
      const std::string range =
          std::to_string(get.offset) + "-" + std::to_string(get.offset + get.length - 1);
      curl_easy_setopt(s.easy, CURLOPT_RANGE, range.c_str());  // libcurl copies it
      curl_easy_setopt(s.easy, CURLOPT_FOLLOWLOCATION, 1L);
      curl_easy_setopt(s.easy, CURLOPT_MAXREDIRS, 5L);
      curl_easy_setopt(s.easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
      curl_easy_setopt(s.easy, CURLOPT_NOSIGNAL, 1L);
      curl_easy_setopt(s.easy, CURLOPT_TCP_KEEPALIVE, 1L);
      curl_easy_setopt(s.easy, CURLOPT_USERAGENT, user_agent.c_str());
    }
    s.reply = RangeReply{};
    s.reply.file = !get.s3 && get.url.rfind("file://", 0) == 0;
    s.head_known = false;
    s.error[0] = 0;
    curl_easy_setopt(s.easy, CURLOPT_WRITEFUNCTION, OnBody);
    curl_easy_setopt(s.easy, CURLOPT_WRITEDATA, &s);
    curl_easy_setopt(s.easy, CURLOPT_HEADERFUNCTION, OnHeader);
    curl_easy_setopt(s.easy, CURLOPT_HEADERDATA, &s);
    curl_easy_setopt(s.easy, CURLOPT_ERRORBUFFER, s.error);
    curl_easy_setopt(s.easy, CURLOPT_BUFFERSIZE, kReceiveBuffer);
    curl_easy_setopt(s.easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(s.easy, CURLOPT_LOW_SPEED_TIME,
                     std::max(1L, static_cast<long>(get.stall_timeout_s + 0.5)));
    multi.Add(s.index);
  }

  Receiver receiver;
  std::string user_agent;
  std::vector<Stream> streams;
  CurlMulti multi;  // after streams: its handles go before the headers they use
};

RangeStreams::RangeStreams(unsigned streams, Receiver receiver, std::string user_agent)
    : impl_(std::make_unique<Impl>(std::max(1u, streams), std::move(receiver),
                                   std::move(user_agent))) {}

RangeStreams::~RangeStreams() = default;

unsigned RangeStreams::size() const { return impl_->multi.size(); }

bool RangeStreams::Active(unsigned stream) const { return impl_->multi.Active(stream); }

void RangeStreams::Start(unsigned stream, const RangeGet& get) {
  impl_->Start(impl_->streams[stream], get);
}

void RangeStreams::Stop(unsigned stream) { impl_->multi.Remove(stream); }

void RangeStreams::PerformAndReap(const std::function<void(unsigned, const TransferEnd&)>& done) {
  impl_->multi.PerformAndReap([&](unsigned i, CURLcode code) {
    const auto& s = impl_->streams[i];
    done(i, EndOfTransfer(s.easy, code, s.error));
  });
}

void RangeStreams::Poll(double seconds) { impl_->multi.Poll(seconds); }

}  // namespace trainbench::storage

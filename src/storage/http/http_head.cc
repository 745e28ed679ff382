#include "storage/http_head.h"

#include <curl/curl.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/strings.h"
#include "storage/http/curl_multi.h"

namespace trainbench::storage {
namespace {

size_t OnHeadHeader(char* data, size_t size, size_t count, void* user) {
  auto& headers = *static_cast<std::map<std::string, std::string>*>(user);
  const size_t n = size * count;
  std::string line(data, n);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (line.rfind("HTTP/", 0) == 0) {
    headers.clear();  // a redirect's headers are not the object's
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return n;
  std::string value = line.substr(colon + 1);
  while (!value.empty() && value.front() == ' ') value.erase(0, 1);
  headers[ToLower(line.substr(0, colon))] = value;
  return n;
}

}  // namespace

struct HttpHead::Impl {
  CURL* easy = nullptr;
  std::string user_agent;
};

HttpHead::HttpHead(std::string user_agent) : impl_(std::make_unique<Impl>()) {
  impl_->easy = curl_easy_init();
  if (!impl_->easy) throw RuntimeError("curl_easy_init failed");
  impl_->user_agent = std::move(user_agent);
}

HttpHead::~HttpHead() { curl_easy_cleanup(impl_->easy); }

HeadReply HttpHead::Head(const std::string& url) {
  CURL* easy = impl_->easy;
  HeadReply reply;
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_reset(easy);
  curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
  curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
  curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(easy, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 60000L);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, OnHeadHeader);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &reply.headers);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, impl_->user_agent.c_str());
  const double start = NowSeconds();
  const CURLcode code = curl_easy_perform(easy);
  reply.seconds = NowSeconds() - start;
  reply.end = EndOfTransfer(easy, code, error);
  return reply;
}

}  // namespace trainbench::storage

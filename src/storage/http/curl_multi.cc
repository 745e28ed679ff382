#include "storage/http/curl_multi.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "common/error.h"

namespace trainbench::storage {

CurlMulti::CurlMulti(unsigned handles) : multi_(curl_multi_init()), slots_(handles) {
  if (!multi_) throw RuntimeError("curl_multi_init failed");
  curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, static_cast<long>(handles));
  for (auto& s : slots_) {
    s.easy = curl_easy_init();
    if (!s.easy) {
      for (auto& t : slots_)
        if (t.easy) curl_easy_cleanup(t.easy);
      curl_multi_cleanup(multi_);
      throw RuntimeError("curl_easy_init failed");
    }
  }
}

CurlMulti::~CurlMulti() {
  for (auto& s : slots_) {
    if (s.active) curl_multi_remove_handle(multi_, s.easy);
    curl_easy_cleanup(s.easy);
  }
  curl_multi_cleanup(multi_);
}

void CurlMulti::Add(unsigned i) {
  // Set here, not by the caller: curl_easy_reset (S3Endpoint::Prepare does one) clears it.
  curl_easy_setopt(slots_[i].easy, CURLOPT_PRIVATE, reinterpret_cast<void*>(uintptr_t{i}));
  slots_[i].active = true;
  curl_multi_add_handle(multi_, slots_[i].easy);
}

void CurlMulti::Remove(unsigned i) {
  if (!slots_[i].active) return;
  curl_multi_remove_handle(multi_, slots_[i].easy);
  slots_[i].active = false;
}

void CurlMulti::PerformAndReap(const std::function<void(unsigned, CURLcode)>& done) {
  int running = 0;
  curl_multi_perform(multi_, &running);
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    void* p = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &p);
    const auto i = static_cast<unsigned>(reinterpret_cast<uintptr_t>(p));
    const CURLcode code = msg->data.result;
    Remove(i);  // `msg` is not to be read after this
    done(i, code);
  }
}

void CurlMulti::Poll(double seconds) {
  // At least 1 ms for any wait at all: a wait shorter than that would spin.
  const int ms = seconds <= 0 ? 0 : std::max(1, static_cast<int>(seconds * 1000));
  curl_multi_poll(multi_, nullptr, 0, ms, nullptr);
}

bool CurlTransferBroke(CURLcode code) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

TransferEnd EndOfTransfer(CURL* easy, CURLcode code, const char* error) {
  TransferEnd end;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &end.status);
  char* effective = nullptr;
  curl_easy_getinfo(easy, CURLINFO_EFFECTIVE_URL, &effective);
  if (effective) end.effective_url = effective;
  if (code == CURLE_OK) return end;
  end.error = std::string(error && *error ? error : curl_easy_strerror(code)) + " (curl " +
              std::to_string(static_cast<int>(code)) + ")";
  end.cut_short =
      code == CURLE_PARTIAL_FILE || code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING;
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      end.fault = TransferFault::kUnreachable;
      break;
    case CURLE_SSL_CONNECT_ERROR:
      end.fault = TransferFault::kHandshake;
      break;
    case CURLE_WRITE_ERROR:
    case CURLE_ABORTED_BY_CALLBACK:
      end.fault = TransferFault::kAborted;
      break;
    default:
      end.fault = CurlTransferBroke(code) ? TransferFault::kBroken : TransferFault::kOther;
  }
  return end;
}

}  // namespace trainbench::storage

// HEAD requests to http(s) URLs on one kept-alive connection, redirects followed: what a
// downloader asks before it fetches (size, identity, digest headers). Storage's public face
// for it, without libcurl's types. Not thread-safe: one thread uses an HttpHead.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "storage/transfer_end.h"

namespace trainbench::storage {

struct HeadReply {
  TransferEnd end;
  std::map<std::string, std::string> headers;  // the final response's, names in lower case
  double seconds = 0;                          // the request's duration
};

class HttpHead {
 public:
  explicit HttpHead(std::string user_agent);
  ~HttpHead();
  HttpHead(const HttpHead&) = delete;
  HttpHead& operator=(const HttpHead&) = delete;

  // One HEAD of `url` (10 s to connect, 60 s in all); never throws for what the server or
  // the network did: `end` says it.
  HeadReply Head(const std::string& url);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trainbench::storage

// How an HTTP or S3 transfer ended, in the terms a caller that retries needs (the public
// face of libcurl's result codes: stage decides from it whether a mirror is down, a try may
// be repeated, or the origin refuses). Plain data.
#pragma once

#include <string>

namespace trainbench::storage {

enum class TransferFault {
  kNone,         // the transfer ran to its end: the HTTP status says how it went
  kUnreachable,  // no connection: refused, or the host (or proxy) name did not resolve
  kHandshake,    // a TLS handshake cut short
  kBroken,       // cut below HTTP in a way another try may mend: a timeout (a stall
                 // included), a reset, a body cut short, nothing answered, an HTTP/2 error
  kAborted,      // the receiver of the body stopped it
  kOther,        // anything else (a malformed URL, a protocol or certificate error)
};

struct TransferEnd {
  TransferFault fault = TransferFault::kNone;
  // kBroken by an answer that ended early (a close before Content-Length's end, nothing
  // answered, a receive error): what came may be the start of the body.
  bool cut_short = false;
  std::string error;          // libcurl's words and code ("... (curl 28)") when fault is set
  long status = 0;            // the final response's HTTP status (0: none, or file://)
  std::string effective_url;  // the URL that answered, after redirects
};

}  // namespace trainbench::storage

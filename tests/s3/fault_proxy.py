#!/usr/bin/python3
"""An HTTP/1.1 forwarding proxy that injects S3 faults, for the S3 tests.

Listens on 127.0.0.1, forwards each request unchanged (Host header included: SigV4 signs
Host, so a client signs for the proxy's host:port and connects to the proxy as its endpoint)
to one upstream (the gateway), and per a seeded plan answers a share of requests with
503 SlowDown, cuts a share of responses mid-body (headers and part of the body, then the
connection is closed), and delays a share. Keep-alive works on both sides. Standard library
only; run with /usr/bin/python3.

  /usr/bin/python3 tests/s3/fault_proxy.py --upstream 127.0.0.1:PORT --port-file F \\
      --stats S.json --seed 1 --slowdown 0.2 --cut 0.1 --delay 0.2 --delay-ms 200

Each request draws one number from random.Random(seed + request index) (the index counts
requests in arrival order from 0): below --slowdown it gets 503, below slowdown+cut it is cut,
below slowdown+cut+delay it is delayed, below ...+stall it stalls (headers and half the body,
then nothing for --stall-s seconds before the connection closes), below ...+corrupt its body
is forwarded whole with its first byte flipped, else it is forwarded as is. --cut-per-mib P cuts forwarded
bodies in proportion to their bytes instead of per request (a flaky link, fair to clients
that make few large requests and to those that make many small ones): each response's cut
point is drawn from an exponential distribution with mean 1/P MiB (seeded by the request
index); a body longer than that is cut there. --no-fault-first
N forwards the first N requests untouched (setup steps of a test); --fault-requests N lets
only requests with an index below N draw a fault (later ones are forwarded as is).
--lose-reply KIND (create, complete, part, put, get) forwards the first --lose-count (1)
requests of that S3 operation (CreateMultipartUpload, CompleteMultipartUpload, UploadPart,
PutObject, GetObject) and drops the server's reply: the connection closes with the request carried out
and no answer sent (a reply lost on the way back); a repeat of a lost Complete is answered
404 NoSuchUpload, as by a server that forgets a completed upload (AWS S3; RGW 16 answers
200 again). --drop-range removes the Range header of
every request, as a server or cache that ignores Range does (the reply is a 200 with the
whole object); SigV4 signs Range, so such a GET is sent unsigned, and the bucket must let
anyone read (a bucket policy: s3_public_read in lib.sh). --ignore-conditions answers 200 where the server
answered a request with If-None-Match or If-Match 412 Precondition Failed, as a server that
ignores conditional writes would (those headers are signed: they cannot be removed). --answer KIND=STATUS (repeatable; KIND as --lose-reply, or
list-uploads for ListMultipartUploads) answers every such request with STATUS and an S3 error
body (501 NotImplemented, 413 EntityTooLarge, ...) without forwarding it. --error-200 KIND
answers the first --error-200-count (1) requests of KIND with 200 OK and an S3 <Error> body
(InternalError), not forwarded: AWS documents that CompleteMultipartUpload may answer so.
--max-body BYTES answers a request whose Content-Length exceeds BYTES 413 EntityTooLarge, not
forwarded, as a server or proxy with a body limit does. --fault-match REGEX lets only requests
whose request line ("GET /bucket/key?query HTTP/1.1") matches REGEX draw a fault (the others
are forwarded as is; their indexes still count). --skew-s SECONDS answers every request, not
forwarded, as a server whose clock is SECONDS ahead of the client's answers a signature dated
by the client's: 403 RequestTimeTooSkewed (its RequestTime and ServerTime in the body; no body
to a HEAD, as S3 sends none), Date SECONDS after now.

The stats file (JSON, rewritten after every request and on SIGTERM/SIGINT/exit) counts:
connections, requests, forwarded (reached upstream, cut and delayed included), slowdown, cut,
delayed, stalled, corrupted, lost, ranges_dropped, conditions_ignored, answered, errors_in_200,
too_large (--max-body's 413s), skewed (--skew-s's 403s), largest_body (the largest Content-Length forwarded),
upstream_errors, and by_method.
"""

import argparse
import email.utils
import json
import os
import random
import re
import signal
import socket
import socketserver
import sys
import threading
import time

MAX_HEAD = 64 * 1024
TIMEOUT_S = 60

SLOWDOWN_BODY = (
    b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code>'
    b"<Message>Please reduce your request rate.</Message>"
    b"<RequestId>fault-proxy-%d</RequestId></Error>"
)


class Stats:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.counts = {
            "connections": 0,
            "requests": 0,
            "forwarded": 0,
            "slowdown": 0,
            "cut": 0,
            "delayed": 0,
            "stalled": 0,
            "corrupted": 0,
            "lost": 0,
            "ranges_dropped": 0,
            "conditions_ignored": 0,
            "answered": 0,
            "errors_in_200": 0,
            "too_large": 0,
            "skewed": 0,
            "largest_body": 0,
            "upstream_errors": 0,
            "by_method": {},
        }

    def next_request(self, method):
        with self.lock:
            index = self.counts["requests"]
            self.counts["requests"] += 1
            by = self.counts["by_method"]
            by[method] = by.get(method, 0) + 1
            return index

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] += n

    def write(self):
        if not self.path:
            return
        with self.lock:
            text = json.dumps(self.counts, sort_keys=True)
        tmp = "%s.%d.tmp" % (self.path, threading.get_ident())
        with open(tmp, "w") as f:
            f.write(text + "\n")
        os.replace(tmp, self.path)


class Closed(Exception):
    """The peer closed the connection (or sent something that is not HTTP/1.1)."""


def read_head(rfile):
    """Reads a message head up to the blank line; returns (start line, [(name, value)], raw)."""
    raw = b""
    while True:
        line = rfile.readline(MAX_HEAD + 1)
        if not line:
            if raw:
                raise Closed("eof inside a message head")
            raise Closed("eof")
        raw += line
        if len(raw) > MAX_HEAD:
            raise Closed("message head too large")
        if line in (b"\r\n", b"\n"):
            if raw == line:  # stray empty line between messages
                raw = b""
                continue
            break
    lines = raw.decode("latin-1").split("\r\n")
    start = lines[0]
    headers = []
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
    return start, headers, raw


def header(headers, name):
    name = name.lower()
    for k, v in headers:
        if k.lower() == name:
            return v
    return None


class Pacer:
    """A bandwidth limit shared by every connection (--rate-mb): each piece of a body waits
    for its slot, so all bodies together never pass `rate` bytes per second."""

    def __init__(self, rate):
        self.rate = rate
        self.lock = threading.Lock()
        self.next = time.monotonic()

    def take(self, n):
        with self.lock:
            now = time.monotonic()
            self.next = max(self.next, now) + n / self.rate
            wait = self.next - now
        if wait > 0:
            time.sleep(wait)


PACER = None  # set by --rate-mb


def copy_exact(rfile, wsock, n, limit=None):
    """Copies n bytes from rfile to wsock (wsock None: discards); with limit, stops after
    limit bytes. Returns the number copied."""
    done = 0
    stop = n if limit is None else min(n, limit)
    while done < stop:
        chunk = rfile.read(min(16384 if PACER else 65536, stop - done))
        if not chunk:
            raise Closed("eof inside a body")
        if wsock is not None:
            if PACER:
                PACER.take(len(chunk))
            wsock.sendall(chunk)
        done += len(chunk)
    return done


def copy_chunked(rfile, wsock):
    """Copies a chunked body (chunks and trailers, as they are)."""
    while True:
        line = rfile.readline(MAX_HEAD)
        if not line:
            raise Closed("eof inside a chunked body")
        if wsock is not None:
            wsock.sendall(line)
        size = int(line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while True:
                trailer = rfile.readline(MAX_HEAD)
                if not trailer:
                    raise Closed("eof inside trailers")
                if wsock is not None:
                    wsock.sendall(trailer)
                if trailer in (b"\r\n", b"\n"):
                    return
        copy_exact(rfile, wsock, size + 2)


def has_body(headers):
    te = header(headers, "transfer-encoding")
    return bool(te) or int(header(headers, "content-length") or 0) > 0


def copy_body(rfile, wsock, headers):
    """Copies a request body as framed by its headers."""
    te = header(headers, "transfer-encoding")
    if te and "chunked" in te.lower():
        copy_chunked(rfile, wsock)
        return
    length = header(headers, "content-length")
    if length:
        copy_exact(rfile, wsock, int(length))


class Upstream:
    """One keep-alive connection to the upstream, opened on demand."""

    def __init__(self, addr):
        self.addr = addr
        self.sock = None
        self.rfile = None

    def connect(self):
        if self.sock is None:
            self.sock = socket.create_connection(self.addr, timeout=TIMEOUT_S)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.rfile = self.sock.makefile("rb")
        return self.sock

    def close(self):
        if self.sock is not None:
            try:
                self.rfile.close()
                self.sock.close()
            except OSError:
                pass
        self.sock = None
        self.rfile = None


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.request.settimeout(TIMEOUT_S)
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.rfile = self.request.makefile("rb")
        self.upstream = Upstream(self.server.upstream_addr)
        self.server.stats.add("connections")

    def finish(self):
        self.upstream.close()
        try:
            self.rfile.close()
        except OSError:
            pass

    def handle(self):
        try:
            while self.one_request():
                pass
        except (Closed, OSError, ValueError):
            pass
        finally:
            self.server.stats.write()

    def plan(self, index, start):
        o = self.server.options
        if index < o.no_fault_first or (o.fault_requests >= 0 and index >= o.fault_requests):
            return "forward"
        if o.fault_match and not re.search(o.fault_match, start):
            return "forward"
        r = random.Random(o.seed * 1000003 + index).random()
        if r < o.slowdown:
            return "slowdown"
        if r < o.slowdown + o.cut:
            return "cut"
        if r < o.slowdown + o.cut + o.delay:
            return "delay"
        if r < o.slowdown + o.cut + o.delay + o.stall:
            return "stall"
        if r < o.slowdown + o.cut + o.delay + o.stall + o.corrupt:
            return "corrupt"
        return "forward"

    def one_request(self):
        """Serves one request; False when the client connection is to be closed."""
        start, headers, raw = read_head(self.rfile)
        method = start.split(" ", 1)[0]
        stats = self.server.stats
        index = stats.next_request(method)
        action = self.plan(index, start)
        expect = (header(headers, "expect") or "").lower() == "100-continue"
        client_close = (header(headers, "connection") or "").lower() == "close"

        if self.server.options.skew_s:
            stats.add("skewed")
            if not expect:
                copy_body(self.rfile, None, headers)
            now = time.time() + self.server.options.skew_s
            body = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>RequestTimeTooSkewed</Code>'
                    b"<Message>The difference between the request time and the current time is too "
                    b"large.</Message><RequestTime>%s</RequestTime><ServerTime>%s</ServerTime>"
                    b"<MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds></Error>"
                    % ((header(headers, "x-amz-date") or "").encode(),
                       time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)).encode()))
            self.request.sendall(
                b"HTTP/1.1 403 Forbidden\r\nContent-Type: application/xml\r\nDate: %s\r\n"
                b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                % (email.utils.formatdate(now, usegmt=True).encode(), len(body),
                   b"" if method == "HEAD" else body))
            stats.write()
            return False

        if action == "slowdown":
            stats.add("slowdown")
            if not expect:
                copy_body(self.rfile, None, headers)  # keeps the connection usable
            body = SLOWDOWN_BODY % index
            keep = not expect and not client_close
            self.request.sendall(
                b"HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\n"
                b"Content-Length: %d\r\nConnection: %s\r\n\r\n%s"
                % (len(body), b"keep-alive" if keep else b"close", body)
            )
            stats.write()
            return keep

        error_200 = False
        if self.server.options.error_200 and request_kind(start) == self.server.options.error_200:
            with self.server.lose_lock:
                if self.server.error_200_left > 0:
                    self.server.error_200_left -= 1
                    error_200 = True
        if error_200:
            stats.add("errors_in_200")
            if not expect:
                copy_body(self.rfile, None, headers)
            body = (b'<?xml version="1.0" encoding="UTF-8"?>\n\n<Error><Code>InternalError</Code>'
                    b"<Message>We encountered an internal error. Please try again.</Message>"
                    b"<RequestId>fault-proxy-%d</RequestId></Error>" % index)
            self.request.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\n"
                b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
            stats.write()
            return False

        answer = self.server.answers.get(request_kind(start))
        code_name = None
        length = int(header(headers, "content-length") or 0)
        if self.server.options.max_body and length > self.server.options.max_body:
            stats.add("too_large")
            answer = 413
        elif answer is None:
            with stats.lock:
                stats.counts["largest_body"] = max(stats.counts["largest_body"], length)
        if request_kind(start) == "complete" and start in self.server.lost_requests:
            answer, code_name = 404, b"NoSuchUpload"  # the upload is gone once completed
        if answer is not None:
            stats.add("answered")
            if not expect:
                copy_body(self.rfile, None, headers)
            body = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code>'
                    b"<Message>fault_proxy answers %d</Message></Error>"
                    % (code_name or ERROR_CODES.get(answer, b"InternalError"), answer))
            self.request.sendall(
                b"HTTP/1.1 %d Fault\r\nContent-Type: application/xml\r\n"
                b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (answer, len(body), body))
            stats.write()
            return False

        if action == "delay":
            stats.add("delayed")
            time.sleep(self.server.options.delay_ms / 1000.0)

        if self.server.options.rewrite_host:
            raw = rewrite_host(raw, self.server.options.rewrite_host)
        if self.server.options.drop_range and header(headers, "range") is not None:
            # SigV4 signs Range: the GET goes on unsigned (the bucket must let anyone read).
            raw = drop_headers(raw, (b"range:", b"authorization:"))
            stats.add("ranges_dropped")
        lose = False
        o = self.server.options
        if o.lose_reply and request_kind(start) == o.lose_reply:
            with self.server.lose_lock:
                if self.server.lose_left > 0:
                    self.server.lose_left -= 1
                    self.server.lost_requests.add(start)
                    lose = True
        reused = self.upstream.sock is not None
        try:
            up = self.upstream.connect()
            up.sendall(raw)
        except OSError:
            # A kept-alive upstream connection may have been closed: one fresh try.
            self.upstream.close()
            try:
                up = self.upstream.connect()
                up.sendall(raw)
            except OSError:
                return self.upstream_error()
        stats.add("forwarded")
        try:
            if expect:
                status, rheaders, rraw = read_head(self.upstream.rfile)
                if status.split(" ")[1] == "100":
                    self.request.sendall(rraw)
                    copy_body(self.rfile, up, headers)
                    status, rheaders, rraw = read_head(self.upstream.rfile)
                else:
                    # A final answer before the body: the client may or may not send it;
                    # pass the answer on and close both sides.
                    self.relay(method, status, rheaders, rraw, cut=False)
                    self.upstream.close()
                    return False
            else:
                copy_body(self.rfile, up, headers)
                try:
                    status, rheaders, rraw = read_head(self.upstream.rfile)
                except (Closed, OSError) as e:
                    # The upstream closed a kept-alive connection as the request went out: a
                    # request without a body is sent again once on a fresh connection.
                    if not reused or has_body(headers) or str(e) not in ("eof", ""):
                        raise
                    self.upstream.close()
                    up = self.upstream.connect()
                    up.sendall(raw)
                    status, rheaders, rraw = read_head(self.upstream.rfile)
        except (Closed, OSError) as e:
            if isinstance(e, Closed) and "body" in str(e):
                raise  # the client went away mid-request
            return self.upstream_error()
        conditional = header(headers, "if-none-match") or header(headers, "if-match")
        if o.ignore_conditions and conditional and status.split(" ")[1] == "412":
            # As a server that ignores conditions would answer (the headers are signed, so
            # they cannot be removed on the way): the write "succeeded".
            copy_body(self.upstream.rfile, None, rheaders)
            stats.add("conditions_ignored")
            self.request.sendall(b'HTTP/1.1 200 OK\r\nETag: "0123456789abcdef0123456789abcdef"\r\n'
                                 b"Content-Length: 0\r\n\r\n")
            stats.write()
            return not client_close
        if lose:
            # The server carried the request out; its reply is read and never sent on.
            code = int(status.split(" ")[1])
            if method != "HEAD" and code not in (204, 304):
                copy_body(self.upstream.rfile, None, rheaders)
            self.upstream.close()
            stats.add("lost")
            stats.write()
            self.request.shutdown(socket.SHUT_RDWR)
            return False
        cut_at = None
        if action == "forward" and o.cut_per_mib > 0:
            draw = random.Random(o.seed * 1000003 + index + 500009).expovariate(o.cut_per_mib)
            cut_at = int(draw * 2**20)
        keep = self.relay(method, status, rheaders, rraw, cut=(action in ("cut", "stall")),
                          stall=(action == "stall"), corrupt=(action == "corrupt"),
                          cut_at=cut_at)
        if action == "cut" or (cut_at is not None and not keep and self.cut_done):
            stats.add("cut")
        stats.write()
        return keep and not client_close

    def upstream_error(self):
        self.server.stats.add("upstream_errors")
        self.upstream.close()
        body = b"fault_proxy: upstream unreachable\n"
        try:
            self.request.sendall(
                b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                % (len(body), body)
            )
        except OSError:
            pass
        self.server.stats.write()
        return False

    def relay(self, method, status, rheaders, rraw, cut, stall=False, corrupt=False,
              cut_at=None):
        """Passes the upstream's response on (with cut: its head and part of its body, then
        closes; with stall also: then waits --stall-s first; with corrupt: whole, its first
        byte flipped; with cut_at: cut after that many body bytes if the body is longer).
        Returns whether both connections stay usable."""
        code = int(status.split(" ")[1])
        no_body = method == "HEAD" or code in (204, 304) or 100 <= code < 200
        te = (header(rheaders, "transfer-encoding") or "").lower()
        length = header(rheaders, "content-length")
        self.cut_done = False
        if cut_at is not None and not no_body and length is not None and cut_at < int(length):
            self.request.sendall(rraw)
            copy_exact(self.upstream.rfile, self.request, int(length), limit=cut_at)
            self.request.shutdown(socket.SHUT_RDWR)
            self.upstream.close()
            self.cut_done = True
            return False
        up_close = (header(rheaders, "connection") or "").lower() == "close"
        src = self.upstream.rfile
        if cut:
            # Headers and part of the body; with no body, part of the headers.
            if no_body or (length is not None and int(length) < 2):
                self.request.sendall(rraw[: len(rraw) // 2])
            else:
                self.request.sendall(rraw)
                if length is not None:
                    copy_exact(src, self.request, int(length), limit=int(length) // 2)
                else:  # chunked or until close: the first piece of it
                    piece = src.read1(4096) if hasattr(src, "read1") else src.read(1)
                    self.request.sendall(piece[: max(1, len(piece) // 2)])
            if stall:  # counted now: the client may be gone before the stall ends
                self.server.stats.add("stalled")
                self.server.stats.write()
                time.sleep(self.server.options.stall_s)
            self.request.shutdown(socket.SHUT_RDWR)
            self.upstream.close()
            return False
        self.request.sendall(rraw)
        if corrupt and not no_body and length is not None and int(length) > 0:
            first = bytearray(copy_first(src))
            first[0] ^= 0xFF
            self.server.stats.add("corrupted")  # only a body that was there to corrupt
            self.request.sendall(bytes(first))
            copy_exact(src, self.request, int(length) - 1)
        elif no_body:
            pass
        elif "chunked" in te:
            copy_chunked(src, self.request)
        elif length is not None:
            copy_exact(src, self.request, int(length))
        else:  # until the upstream closes
            while True:
                chunk = src.read1(65536)
                if not chunk:
                    break
                self.request.sendall(chunk)
            self.upstream.close()
            return False
        if up_close:
            self.upstream.close()
        return True


def copy_first(rfile):
    """Reads one byte of a body."""
    b = rfile.read(1)
    if not b:
        raise Closed("eof inside a body")
    return b


def request_kind(start):
    """The S3 operation of a request line, as --lose-reply names it (None: another)."""
    method, _, rest = start.partition(" ")
    target = rest.split(" ", 1)[0]
    params = [p.split("=", 1)[0] for p in target.partition("?")[2].split("&") if p]
    if method == "POST" and "uploads" in params:
        return "create"
    if method == "POST" and "uploadId" in params:
        return "complete"
    if method == "PUT" and "partNumber" in params:
        return "part"
    if method == "PUT":
        return "put"
    if method == "GET" and "uploads" in params:
        return "list-uploads"
    if method == "GET" and not params:
        return "get"
    return None


ERROR_CODES = {413: b"EntityTooLarge", 501: b"NotImplemented", 400: b"InvalidRequest",
               403: b"AccessDenied", 404: b"NoSuchKey"}


def drop_headers(raw, names):
    """The request head without the headers `names` (lower-case bytes, with ':'); None when
    it had none of them."""
    lines = raw.split(b"\r\n")
    kept = [line for line in lines if not line.lower().startswith(names)]
    return None if len(kept) == len(lines) else b"\r\n".join(kept)


def rewrite_host(raw, host):
    lines = raw.split(b"\r\n")
    for i, line in enumerate(lines):
        if line.lower().startswith(b"host:"):
            lines[i] = b"Host: " + host.encode()
    return b"\r\n".join(lines)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--upstream", required=True, help="HOST:PORT of the S3 server")
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    p.add_argument("--port-file", help="written with the port once listening")
    p.add_argument("--stats", help="JSON file of counts")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--slowdown", type=float, default=0.0, help="share answered 503 SlowDown")
    p.add_argument("--cut", type=float, default=0.0, help="share cut mid-body")
    p.add_argument("--cut-per-mib", type=float, default=0.0,
                   help="chance per MiB of body forwarded that the connection is cut there")
    p.add_argument("--delay", type=float, default=0.0, help="share delayed")
    p.add_argument("--delay-ms", type=int, default=200)
    p.add_argument("--stall", type=float, default=0.0, help="share stalled mid-body")
    p.add_argument("--stall-s", type=float, default=30.0, help="how long a stall lasts")
    p.add_argument("--corrupt", type=float, default=0.0, help="share with a flipped body byte")
    p.add_argument("--fault-requests", type=int, default=-1,
                   help="only requests with an index below this draw faults (-1: all)")
    p.add_argument("--no-fault-first", type=int, default=0, help="requests forwarded untouched first")
    p.add_argument("--rewrite-host", help="replace the Host header (to show SigV4 refusing it)")
    p.add_argument("--lose-reply", choices=["create", "complete", "part", "put", "get"],
                   help="drop the reply to requests of this S3 operation (forwarded first)")
    p.add_argument("--lose-count", type=int, default=1, help="how many replies --lose-reply drops")
    p.add_argument("--drop-range", action="store_true", help="remove every request's Range header")
    p.add_argument("--ignore-conditions", action="store_true",
                   help="answer a conditional request's 412 with 200 (as if the write was done)")
    p.add_argument("--answer", action="append", default=[], metavar="KIND=STATUS",
                   help="answer requests of KIND with STATUS, not forwarded")
    p.add_argument("--error-200", choices=["create", "complete", "part", "put", "get"],
                   help="answer requests of this S3 operation 200 with an <Error> body")
    p.add_argument("--error-200-count", type=int, default=1, help="how many --error-200 answers")
    p.add_argument("--max-body", type=int, default=0,
                   help="answer requests with a longer body 413 EntityTooLarge (0: no limit)")
    p.add_argument("--fault-match", help="only requests whose request line matches this regex draw faults")
    p.add_argument("--skew-s", type=float, default=0.0,
                   help="answer every request 403 RequestTimeTooSkewed, Date this many seconds ahead")
    p.add_argument("--max-seconds", type=float, default=600, help="exit after this long")
    p.add_argument("--rate-mb", type=float, default=0.0,
                   help="a bandwidth limit in MB/s (10^6 B/s) over every connection's bodies")
    o = p.parse_args()
    if o.slowdown + o.cut + o.delay + o.stall + o.corrupt > 1:
        p.error("--slowdown + --cut + --delay + --stall + --corrupt must not exceed 1")
    host, _, port = o.upstream.rpartition(":")

    stats = Stats(o.stats)
    server = Server(("127.0.0.1", o.port), Handler)
    server.upstream_addr = (host or "127.0.0.1", int(port))
    server.options = o
    server.stats = stats
    if o.rate_mb > 0:
        global PACER
        PACER = Pacer(o.rate_mb * 1e6)
    server.lose_lock = threading.Lock()
    server.lose_left = o.lose_count if o.lose_reply else 0
    server.lost_requests = set()
    server.error_200_left = o.error_200_count if o.error_200 else 0
    server.answers = {}
    for spec in o.answer:
        kind, _, status = spec.partition("=")
        server.answers[kind] = int(status)
    stats.write()

    def stop(signum, frame):
        stats.write()
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # Never outlive a forgotten test by much.
    signal.signal(signal.SIGALRM, stop)
    signal.alarm(max(1, int(o.max_seconds)))

    if o.port_file:
        tmp = o.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % server.server_address[1])
        os.replace(tmp, o.port_file)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        stats.write()


if __name__ == "__main__":
    sys.exit(main())

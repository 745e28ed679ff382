#include "storage/s3/s3_lease_lock.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "common/host_name.h"
#include "common/log.h"

namespace trainbench::storage {
namespace {

constexpr long kPreconditionFailed = 412;

// The lease object's body: lines of "name: value".
struct Lease {
  std::string holder;  // "pid 12 on hosta"
  std::string host;
  long pid = 0;
  std::string token;  // tells our lease from another's with the same holder text
  double expires_unix = 0;
};

std::string Body(const Lease& lease) {
  return fmt::format(
      "trainbench lock\nholder: {}\nhost: {}\npid: {}\ntoken: {}\nexpires_unix: {:.0f}\n",
      lease.holder, lease.host, lease.pid, lease.token, lease.expires_unix);
}

Lease ParseBody(const std::string& body) {
  Lease lease;
  std::istringstream in(body);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    const std::string name = line.substr(0, colon), value = line.substr(colon + 2);
    if (name == "holder") lease.holder = value;
    if (name == "token") lease.token = value;
    if (name == "host") lease.host = value;
    if (name == "pid") lease.pid = std::strtol(value.c_str(), nullptr, 10);
    if (name == "expires_unix") lease.expires_unix = std::strtod(value.c_str(), nullptr);
  }
  return lease;
}

// A holder on this host whose process is gone (killed: its lease stays until it expires)
// need not be waited for; a pid now used by another program is gone too. A holder on
// another host is taken to live until its lease expires.
bool HolderGoneFromThisHost(const Lease& lease) {
  if (lease.pid <= 0 || lease.host != LocalHostName()) return false;
  std::ifstream comm(fmt::format("/proc/{}/comm", lease.pid));
  std::string name;
  return !std::getline(comm, name) || name.rfind("trainbench", 0) != 0;
}

double UnixNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The holder of a lease that must be honoured (unexpired, its process not known gone), as the
// refusal names it; nothing when it may be taken over.
std::optional<std::string> LiveHolder(const Lease& lease) {
  const double left_s = lease.expires_unix - UnixNow();
  if (left_s <= 0 || HolderGoneFromThisHost(lease)) return std::nullopt;
  return fmt::format("{}; its lease runs {:.0f} s more unless renewed",
                     lease.holder.empty() ? "an unknown holder" : lease.holder, left_s);
}

// PUT the lease; `condition` is the precondition header. The new ETag, or nothing when
// the precondition failed.
std::optional<std::string> Put(const S3Endpoint& endpoint, const std::string& key,
                               const Lease& lease, const std::string& condition) {
  const std::string body = Body(lease);
  S3Request r;
  r.method = "PUT";
  r.key = key;
  r.body = reinterpret_cast<const unsigned char*>(body.data());
  r.body_size = body.size();
  r.content_type = "text/plain";
  r.headers = {condition};
  r.returned_statuses = {kPreconditionFailed};
  S3Transfer t;
  const S3Result result = endpoint.Perform(r, t);
  if (result.status == kPreconditionFailed) return std::nullopt;
  return t.etag;
}

// PUT the lease if the stored one still has `etag`. S3 compares If-Match with the quoted
// ETag as it sends it; Ceph's RADOS Gateway 16 only with the bare hex, so each form is
// tried (a lease that really changed fails both).
std::optional<std::string> PutIfMatch(const S3Endpoint& endpoint, const std::string& key,
                                      const Lease& lease, const std::string& etag) {
  std::string bare = etag;
  if (bare.size() >= 2 && bare.front() == '"' && bare.back() == '"')
    bare = bare.substr(1, bare.size() - 2);
  if (auto put = Put(endpoint, key, lease, fmt::format("If-Match: \"{}\"", bare))) return put;
  return Put(endpoint, key, lease, fmt::format("If-Match: {}", bare));
}

// The lease as stored, with its ETag; nothing when there is none.
std::optional<std::pair<Lease, std::string>> Get(const S3Endpoint& endpoint,
                                                 const std::string& key) {
  S3Request r;
  r.key = key;
  r.returned_statuses = {404};
  S3Transfer t;
  if (endpoint.Perform(r, t).status == 404) return std::nullopt;
  return std::pair{ParseBody(t.text), t.etag};
}

class LeaseLock : public StorageLock {
 public:
  LeaseLock(const S3Endpoint& endpoint, std::string key, Lease lease, std::string etag)
      : endpoint_(endpoint),
        lease_s_(endpoint.options().lease_seconds),
        key_(std::move(key)),
        lease_(std::move(lease)),
        etag_(std::move(etag)),
        renewer_([this] { RenewUntilStopped(); }) {}
  LeaseLock(const LeaseLock&) = delete;
  LeaseLock& operator=(const LeaseLock&) = delete;
  ~LeaseLock() override {
    {
      std::lock_guard guard(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    renewer_.join();
    if (lost_) return;  // the object is another holder's now
    try {
      S3Request r;
      r.method = "DELETE";
      r.key = key_;
      S3Transfer t;
      endpoint_.Perform(r, t);
    } catch (const std::exception& e) {
      Warn("could not remove the lock {} ({}); it expires by itself in {:.0f} s",
           endpoint_.Describe(key_), e.what(), lease_s_);
    }
  }

 private:
  void RenewUntilStopped() {
    std::unique_lock guard(mutex_);
    while (!wake_.wait_for(guard, std::chrono::duration<double>(lease_s_ / 4),
                           [this] { return stop_; })) {
      guard.unlock();
      lease_.expires_unix = UnixNow() + lease_s_;
      std::optional<std::string> etag;
      std::string failure;
      try {
        etag = PutIfMatch(endpoint_, key_, lease_, etag_);
      } catch (const std::exception& e) {
        failure = e.what();  // tried again at the next renewal, while the lease lasts
      }
      guard.lock();
      if (!failure.empty()) {
        Warn("could not renew the lock {}: {}", endpoint_.Describe(key_), failure);
      } else if (!etag) {
        lost_ = true;
        Warn(
            "lost the lock {}: another trainbench took it over after its lease expired (this "
            "process could not renew it for {:.0f} s); two writers may now share the folder",
            endpoint_.Describe(key_), lease_s_);
        return;
      } else {
        etag_ = *etag;
      }
    }
  }

  const S3Endpoint& endpoint_;
  const double lease_s_;
  const std::string key_;
  Lease lease_;
  std::string etag_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool lost_ = false;
  std::thread renewer_;  // last: it starts once the members above exist
};

}  // namespace

LockAttempt TryLeaseLock(const S3Endpoint& endpoint, const std::string& key, bool fresh_name) {
  Lease mine;
  mine.host = LocalHostName();
  mine.pid = ::getpid();
  mine.holder = fmt::format("pid {} on {}", mine.pid, mine.host);
  mine.token = fmt::format("{:016x}", std::random_device{}() * 0x100000001ULL ^ ::getpid());
  LockAttempt attempt;
  // A live lease is looked for before any PUT: on a server that ignores If-None-Match (s3rver,
  // fauxqs) the PUT would replace it, and two writers would share the prefix for the whole
  // run. There the lock is then only as good as this read: a writer that starts between
  // another's read and PUT (milliseconds) is not seen. Elsewhere the PUT decides, as below.
  if (const auto stored = fresh_name ? std::nullopt : Get(endpoint, key)) {
    if (auto holder = LiveHolder(stored->first)) {
      attempt.holder = *holder;
      return attempt;
    }
  }
  // Two rounds: a stale lease taken over by someone else between our GET and PUT leaves
  // its new holder's lease for the second round to report.
  for (int round = 0; round < 2; ++round) {
    mine.expires_unix = UnixNow() + endpoint.options().lease_seconds;
    if (auto etag = Put(endpoint, key, mine, "If-None-Match: *")) {
      // A server that ignores If-None-Match (s3rver, fauxqs) lets every writer "take" the
      // lock: the same conditional PUT again must fail, or the lock means nothing here.
      if (auto again = Put(endpoint, key, mine, "If-None-Match: *")) {
        Warn(
            "the prefix of {} cannot be locked on this server: it ignores conditional writes "
            "(a second PUT with If-None-Match: * of an existing object succeeded); a trainbench "
            "started later is refused once it reads this lease, but one started within the "
            "moment between another's read and write of it is not: start writers of one "
            "folder one at a time",
            endpoint.Describe(key));
        etag = again;
      }
      attempt.lock = std::make_unique<LeaseLock>(endpoint, key, mine, *etag);
      return attempt;
    }
    const auto stored = Get(endpoint, key);
    if (!stored) continue;  // released between our PUT and GET
    const auto& [lease, etag] = *stored;
    if (lease.token == mine.token) {  // our PUT's reply was lost and its retry refused
      attempt.lock = std::make_unique<LeaseLock>(endpoint, key, mine, etag);
      return attempt;
    }
    if (auto holder = LiveHolder(lease)) {
      attempt.holder = *holder;
      return attempt;
    }
    const double left_s = lease.expires_unix - UnixNow();
    const bool gone = HolderGoneFromThisHost(lease);
    if (auto taken = PutIfMatch(endpoint, key, mine, etag)) {
      if (gone)
        Warn("took over the lock {} from {}, which no longer runs", endpoint.Describe(key),
             lease.holder);
      else
        Warn("took over the lock {} from {}, whose lease expired {:.0f} s ago",
             endpoint.Describe(key), lease.holder, -left_s);
      attempt.lock = std::make_unique<LeaseLock>(endpoint, key, mine, *taken);
      return attempt;
    }
  }
  attempt.holder = "another trainbench that took it at the same moment";
  return attempt;
}

}  // namespace trainbench::storage

// The lock of a prefix on an object store, which has no flock: a lease object. It is
// created with a conditional PUT (If-None-Match: *), so of two writers racing for it
// exactly one wins (S3 since 2024, Ceph's RADOS Gateway and MinIO honour it). A live lease
// is read first and refused, so on a server that ignores the condition (s3rver, fauxqs) a
// later writer is refused too, though not one that starts between another's read and PUT. The
// holder renews the lease every quarter of it (PUT If-Match: its ETag) and deletes the object when
// done. A holder that died leaves the object behind, so a lease whose expiry has passed may be
// taken over (PUT If-Match: the stale ETag; again one winner), and so may the lease of a holder on
// this host whose process is gone (a killed datagen, re-run at once). Expiry is judged by the
// contender's clock: hosts' clocks must agree to well within the lease.
#pragma once

#include <string>

#include "storage/s3/s3_http.h"
#include "storage/storage.h"

namespace trainbench::storage {

// Takes the lease `key` (a full key), for the endpoint's options().lease_seconds. Throws IoError
// when the store fails otherwise. `fresh_name`: a key no other holder uses (a reader's mark), so no
// live lease is looked for before the conditional PUT (a GET fewer per run).
LockAttempt TryLeaseLock(const S3Endpoint& endpoint, const std::string& key,
                         bool fresh_name = false);

}  // namespace trainbench::storage

// The `s3` read engine: ranged GETs through libcurl's multi interface, no thread per
// request. Each queue owns a multi handle and `depth` easy handles (so connections are
// kept and reused); Submit adds a GET, Reap drives the transfers and waits on their
// sockets (curl_multi_poll) up to its timeout. A GET that fails in a way another try may
// mend (5xx, SlowDown, a cut connection) is tried again after a jittered backoff without
// blocking the others, up to s3_max_attempts; a range past the object's end reads 0
// bytes, so the read loop reports the short read. Thread-safe as ReadEngine says.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/object_names.h"
#include "storage/read_queue.h"
#include "storage/s3/s3_http.h"

namespace trainbench::storage {

// `names`: the objects under the endpoint's prefix, in the engine's object order.
// `endpoint` must outlive it.
std::unique_ptr<ReadEngine> MakeS3ReadEngine(const S3Endpoint& endpoint, SharedObjectNames names);

}  // namespace trainbench::storage

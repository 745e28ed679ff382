// A ReadEngine that records every read it completes in an op-log (metrics/op_log.h): the
// object, bytes, start (at Submit), end (start plus the engine's own latency), error, and
// the queue as the thread. Wraps any engine, so every storage and format gets the same log.
// Thread safety: as ReadEngine (each queue has its own buffer; the log is shared).
#pragma once

#include <memory>

#include "metrics/op_log.h"
#include "storage/read_queue.h"

namespace trainbench::storage {

std::unique_ptr<ReadEngine> WithOpLog(std::unique_ptr<ReadEngine> engine,
                                      std::shared_ptr<metrics::OpLog> log);

}  // namespace trainbench::storage

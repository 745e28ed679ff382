// One kind of operation as a replay and a sai3-bench workload report it (ops::OpFigures over
// the seconds they took): its row of summary.json's "ops", and the table both print, a line
// per kind (a replay: the original's line above the replay's). Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/json_fields.h"
#include "metrics/histogram.h"
#include "ops/op_figures.h"

namespace trainbench::app {

// The fields are summary.json's keys.
struct OpRow {
  // The operation, where the row stands alone (a sai3-bench mix's; a replay names its pair of
  // rows, the original's and the replay's, once above them).
  std::optional<std::string> op;
  uint64_t count = 0, bytes = 0, errors = 0, skipped = 0;
  std::string first_error;
  double ops_per_second = 0;
  double MiB_per_second = 0;
  nlohmann::json latency_ms;    // LatencyJson's percentiles
  std::optional<double> share;  // of all the job's operations (a sai3-bench mix)
  std::optional<nlohmann::json> first_byte_latency_ms;  // a GET's, where the storage measures it
};
TB_JSON_FIELDS(OpRow, op, count, bytes, errors, skipped, first_error, ops_per_second,
               MiB_per_second, latency_ms, share, first_byte_latency_ms)

OpRow RowOf(const ops::OpFigures& figures, double seconds);

// A line of the table: `label` (the operation's name, or "GET orig" for a replay's original).
struct OpLine {
  std::string label;
  const ops::OpFigures* figures = nullptr;
  double seconds = 0;                              // the span they took
  std::optional<double> share;                     // of all the job's operations (a sai3-bench mix)
  const metrics::Histogram* first_byte = nullptr;  // GET's time to first byte, where measured
};

// The header and a line each: op, ops, share (where a line has one), MiB, ops/s, MiB/s,
// p50 and p99 ms, first byte p50 ms (where a line has one), errors (with the first).
std::string OpsTable(const std::vector<OpLine>& lines);

}  // namespace trainbench::app

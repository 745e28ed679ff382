#include "ops/op_figures.h"

namespace trainbench::ops {

void OpFigures::Merge(const OpFigures& other) {
  count += other.count;
  bytes += other.bytes;
  errors += other.errors;
  skipped += other.skipped;
  latency_ns.Merge(other.latency_ns);
  if (first_error.empty()) first_error = other.first_error;
}

void MergeByName(OpFiguresByName& into, const OpFiguresByName& from) {
  for (const auto& [name, figures] : from) into[name].Merge(figures);
}

}  // namespace trainbench::ops

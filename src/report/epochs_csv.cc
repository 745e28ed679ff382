#include "report/epochs_csv.h"

#include <fmt/format.h>

#include "common/units.h"

namespace trainbench::report {

std::string EpochsCsv(const metrics::RunRecord& r) {
  std::string out =
      "kind,epoch,start_s,duration_s,steps,samples,bytes_read,requested_bytes,au_percentage,"
      "samples_per_second,io_MB_per_second,io_MiB_per_second,compute_s,data_wait_s,complete\n";
  for (const auto* list : {&r.preloads, &r.epochs, &r.evals})
    for (const auto& p : *list)
      out += fmt::format(
          "{},{},{:.6f},{:.6f},{},{},{},{},{:.4f},{:.3f},{:.3f},{:.3f},{:.6f},{:.6f},{}\n", p.kind,
          p.epoch, p.start_s, p.duration_s, p.steps, p.samples, p.bytes_read, p.requested_bytes,
          p.au_percentage, p.SamplesPerSecond(), p.BytesPerSecond() / kMB,
          p.BytesPerSecond() / kMiB, p.compute_s, p.data_wait_s, p.complete ? 1 : 0);
  return out;
}

}  // namespace trainbench::report

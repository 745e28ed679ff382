#include "metrics/run_record.h"

namespace trainbench::metrics {

double PhaseRecord::SamplesPerSecond() const {
  return duration_s > 0 ? static_cast<double>(samples) / duration_s : 0;
}

double PhaseRecord::BytesPerSecond() const {
  return duration_s > 0 ? static_cast<double>(bytes_read) / duration_s : 0;
}

}  // namespace trainbench::metrics

#include "metrics/run_record_json.h"

namespace trainbench::metrics {

void to_json(nlohmann::json& j, const Histogram& h) {
  const auto p = h.Export();
  j = {{"buckets", p.buckets}, {"count", p.count}, {"sum", p.sum}, {"min", p.min}, {"max", p.max}};
}

void from_json(const nlohmann::json& j, Histogram& h) {
  Histogram::Parts p;
  j.at("buckets").get_to(p.buckets);
  j.at("count").get_to(p.count);
  j.at("sum").get_to(p.sum);
  j.at("min").get_to(p.min);
  j.at("max").get_to(p.max);
  h = Histogram::Import(p);
}

}  // namespace trainbench::metrics

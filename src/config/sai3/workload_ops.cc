#include "config/sai3/workload_ops.h"

#include <fmt/format.h>

#include "common/strings.h"
#include "config/sai3/values.h"

namespace trainbench::config::sai3 {

void ReadWorkload(const YAML::Node& list, Sai3Config& c, const Source& source) {
  double total = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    const std::string at = fmt::format("workload[{}]", i);
    if (!e.IsMap()) Bad(source, e, at, "expected a map (op, path, weight)");
    Sai3Op op;
    if (!e["op"]) Bad(source, e, at, "op is missing: get, put, stat, list or delete");
    op.op = ToLower(Text(e["op"], at + ".op", source));
    if (op.op == "head") op.op = "stat";
    if (op.op != "get" && op.op != "put" && op.op != "stat" && op.op != "list" &&
        op.op != "delete") {
      std::string message = fmt::format("'{}': give get, put, stat, list or delete", op.op);
      const std::string nearest = NearestMatch(op.op, {"get", "put", "stat", "list", "delete"});
      if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
      Bad(source, e["op"], at + ".op", message);
    }
    if (!e["path"]) Bad(source, e, at, "path is missing: a glob or prefix under the target");
    op.path = Text(e["path"], at + ".path", source);
    if (op.path.find('{') != std::string::npos)
      Bad(source, e["path"], at + ".path", "brace expansions are not globs: use *");
    op.weight = e["weight"] ? Read(e["weight"], at + ".weight", source, "a number", Number) : 1;
    if (op.weight < 0 || op.weight > 1e9)
      Bad(source, e["weight"], at + ".weight", fmt::format("{}: give 0 to 1e9", op.weight));
    if (op.op == "put") {
      if (e["size_distribution"])
        op.sizes = Sizes(e["size_distribution"], at + ".size_distribution", source);
      else if (e["object_size"])
        op.sizes.min = op.sizes.max = Size(e["object_size"], at + ".object_size", source);
      else
        Bad(source, e, at, "a put needs object_size or size_distribution");
    }
    if (e["use_multi_endpoint"] &&
        Read(e["use_multi_endpoint"], at + ".use_multi_endpoint", source, "true or false", Bool))
      Bad(source, e["use_multi_endpoint"], at + ".use_multi_endpoint",
          "trainbench runs against one target: give false");
    total += op.weight;
    c.workload.push_back(op);
  }
  if (!c.workload.empty() && c.duration_s > 0 && total <= 0)
    Bad(source, list, "workload", "the weights add up to 0: give at least one op a weight");
}

}  // namespace trainbench::config::sai3

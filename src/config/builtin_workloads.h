// The workloads shipped under workloads/*.yaml, embedded into the binary at build time
// (trainbench_embed_files in CMakeLists.txt, cmake/EmbedFiles.cmake, writes the definition).
#pragma once

#include <string>
#include <vector>

namespace trainbench::config {

struct BuiltinWorkload {
  std::string name;
  std::string yaml;
};

const std::vector<BuiltinWorkload>& BuiltinWorkloads();

}  // namespace trainbench::config

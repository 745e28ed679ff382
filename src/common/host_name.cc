#include "common/host_name.h"

#include <unistd.h>

namespace trainbench {

std::string LocalHostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

}  // namespace trainbench

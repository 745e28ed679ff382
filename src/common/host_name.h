// This host's name as gethostname(2) gives it: what log lines, results and locks name a
// host by.
#pragma once

#include <string>

namespace trainbench {

// "localhost" when the system will not say.
std::string LocalHostName();

}  // namespace trainbench

// Which configuration names hold secrets (S3 secret keys, session tokens, passwords):
// their values are never printed, logged, or written to results. Pure.
#pragma once

#include <string_view>

namespace trainbench {

bool IsSecretName(std::string_view name);

}  // namespace trainbench

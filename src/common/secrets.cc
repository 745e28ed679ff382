#include "common/secrets.h"

#include "common/strings.h"

namespace trainbench {

bool IsSecretName(std::string_view name) {
  const std::string n = ToLower(name);
  return n.find("secret") != std::string::npos || n.find("session_token") != std::string::npos ||
         n.find("password") != std::string::npos;
}

}  // namespace trainbench

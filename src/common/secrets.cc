#include "common/secrets.h"

#include "common/strings.h"

namespace trainbench {

bool IsSecretName(std::string_view name) {
  const std::string n = ToLower(name);
  return n.find("secret") != std::string::npos || n.find("session_token") != std::string::npos ||
         n.find("password") != std::string::npos;
}

std::string RedactUrlPasswords(std::string_view text) {
  std::string out;
  size_t copied = 0;
  for (size_t scheme = text.find("://"); scheme != std::string_view::npos;
       scheme = text.find("://", scheme + 3)) {
    const size_t start = scheme + 3;
    // The authority ends at the path, query or fragment, or where the URL ends in a message
    // (a space, a quote, a bracket): a password holds none of these unencoded.
    const size_t end = std::min(text.size(), text.find_first_of("/?#'\"<>()[]` \t\r\n", start));
    const size_t at = text.substr(start, end - start).rfind('@');
    if (at == std::string_view::npos) continue;
    const size_t colon = text.substr(start, at).find(':');
    if (colon == std::string_view::npos) continue;  // a user name alone
    const size_t password = start + colon + 1;
    out.append(text.substr(copied, password - copied));
    out.append(kRedacted);
    copied = start + at;
  }
  out.append(text.substr(copied));
  return out;
}

}  // namespace trainbench

// Which configuration names hold secrets (S3 secret keys, session tokens, passwords), and
// the password of a URL's userinfo (http://user:PASSWORD@host/...): their values are never
// printed, logged, or written to results; kRedacted stands in their place. Pure.
#pragma once

#include <string>
#include <string_view>

namespace trainbench {

inline constexpr std::string_view kRedacted = "<redacted>";

bool IsSecretName(std::string_view name);

// `text` with the password of every URL's userinfo in it replaced by kRedacted
// ("stage http://alice:<redacted>@host/f"); the user name stays. Text without one comes back
// unchanged. For a URL stored or shown, and for any message that may quote one.
std::string RedactUrlPasswords(std::string_view text);

}  // namespace trainbench

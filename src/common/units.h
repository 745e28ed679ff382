// Unit-labelled formatting. Principle: MB = 10^6 and MiB = 2^20, never mixed; every
// figure printed says which it is.
#pragma once

#include <cstdint>
#include <string>

namespace trainbench {

inline constexpr double kMB = 1e6;
inline constexpr double kGB = 1e9;
inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// "1.23 GB" style, decimal units.
std::string FormatBytes(double bytes);
// "1.23 GiB" style, binary units.
std::string FormatBytesBinary(double bytes);
// "12.3 s", "4m05s", "1h02m".
std::string FormatDuration(double seconds);

}  // namespace trainbench

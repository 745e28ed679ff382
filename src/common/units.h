// Unit-labelled formatting. Principle: MB = 10^6 and MiB = 2^20, never mixed; every
// figure printed says which it is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trainbench {

inline constexpr double kMB = 1e6;
inline constexpr double kGB = 1e9;
inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// `amount` per second over `seconds`; 0 over no time.
inline double PerSecond(double amount, double seconds) {
  return seconds > 0 ? amount / seconds : 0.0;
}
// Seconds from one wall-clock nanosecond stamp to a later one; 0 when it is not later.
inline double SecondsBetween(int64_t start_ns, int64_t end_ns) {
  return end_ns > start_ns ? static_cast<double>(end_ns - start_ns) / 1e9 : 0.0;
}

// "1.23 GB" style, decimal units.
std::string FormatBytes(double bytes);
// "1.23 GiB" style, binary units.
std::string FormatBytesBinary(double bytes);
// "12.3 s", "4m05s", "1h02m".
std::string FormatDuration(double seconds);

// What a bare k, m, g, t means in a size: 10^3 (sai3-bench's sizes) or 2^10 (a chunk size,
// where "8M" is 8 MiB). kB/MB/GB/TB are always decimal, KiB/MiB/GiB always binary.
enum class BareUnit { kDecimal, kBinary };

// A byte count written as "1048576", "32KB", "1MiB", "1.5 GB", "8M", "1_000_000": digits (with
// '.', and ',' '_' ' ' between them ignored) and an optional unit (b, k, kb, kib, ki, m, mb,
// mib, mi, g, ... t; any case). nullopt for anything else, a negative, or past 10^18.
std::optional<uint64_t> ParseByteSize(std::string_view text, BareUnit bare);

}  // namespace trainbench

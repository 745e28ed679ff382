// Flag validators with plain messages: CLI11's PositiveNumber prints its range as two
// 300-digit numbers and lets `nan` through, and an unsigned flag silently wraps "-5" to
// 18446744073709551611. Each check parses the text itself, before the value is stored.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "app/job_checks.h"

namespace trainbench::cli {

// An integer of at least `min` (a count, a seed).
CLI::Validator AtLeast(int64_t min);

// An integer from `min` to `max`, for a count that costs a thread or a queue entry each.
CLI::Validator Between(int64_t min, int64_t max);

// A finite number above 0 (a rate, a size, seconds).
CLI::Validator PositiveFinite();

// A finite number of at least 0 (a coefficient).
CLI::Validator NonNegativeFinite();
using app::CheckInterval;

// --s3-option KEY=VALUE... as storage_options. Throws UsageError naming a malformed one.
std::map<std::string, std::string> ParseS3Options(const std::vector<std::string>& pairs);

}  // namespace trainbench::cli

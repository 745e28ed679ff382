// Small string helpers shared by config parsing and the CLI.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainbench {

// Levenshtein distance; used to suggest the nearest known key or name.
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, or "" when none is close enough to be a likely typo.
std::string NearestMatch(std::string_view word, const std::vector<std::string>& candidates);

std::vector<std::string> Split(std::string_view text, char separator);
std::string ToLower(std::string_view text);
bool StartsWith(std::string_view text, std::string_view prefix);
// RFC 3986 percent-encoding as URLs and SigV4 want it: unreserved characters kept, '/' kept
// when `keep_slash`.
std::string PercentEncode(std::string_view text, bool keep_slash);

// Whether a '/'-separated name matches a shell glob: `*` and `?` within one path part, `**`
// across parts ("a/**/b" matches "a/b" and "a/x/y/b"), anything else itself.
bool GlobMatch(std::string_view pattern, std::string_view name);
// The pattern's folder before its first wildcard ("data/x*/y" -> "data/"; "*" -> "").
std::string GlobFolder(std::string_view pattern);

// `text` (bytes from the network or a file: a tar name field, an error body) made safe for
// a terminal and for JSON: valid UTF-8 that prints is kept, any other byte becomes \xHH, and
// more than `max_bytes` of input is cut with "...".
std::string Printable(std::string_view text, size_t max_bytes = 200);

// `text` as one RFC 4180 CSV field: quoted (with quotes doubled) when it holds a comma, a
// quote or a line break, as is otherwise.
std::string CsvField(std::string_view text);

// "1 object", "7 objects": a count and its noun, plural with an "s" unless the count is 1.
std::string CountOf(size_t count, std::string_view noun);

}  // namespace trainbench

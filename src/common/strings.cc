#include "common/strings.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace trainbench {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string NearestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const auto& candidate : candidates) {
    const size_t d = EditDistance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  // Beyond about half the word's length a suggestion is noise, not help.
  const size_t limit = std::max<size_t>(3, word.size() / 2);
  return best_distance <= limit ? best : std::string();
}

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string ToLower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool GlobMatch(std::string_view pattern, std::string_view name) {
  while (!pattern.empty()) {
    if (pattern.substr(0, 3) == "**/") {  // zero or more whole folders
      const std::string_view rest = pattern.substr(3);
      for (size_t at = 0;; ++at) {
        if (GlobMatch(rest, name.substr(at))) return true;
        at = name.find('/', at);
        if (at == std::string_view::npos) return false;
      }
    }
    if (pattern.substr(0, 2) == "**") {
      for (size_t at = 0; at <= name.size(); ++at)
        if (GlobMatch(pattern.substr(2), name.substr(at))) return true;
      return false;
    }
    if (pattern.front() == '*') {
      for (size_t at = 0; at <= name.size(); ++at) {
        if (GlobMatch(pattern.substr(1), name.substr(at))) return true;
        if (at < name.size() && name[at] == '/') return false;
      }
      return false;
    }
    if (name.empty()) return false;
    if (pattern.front() == '?' ? name.front() == '/' : pattern.front() != name.front())
      return false;
    pattern.remove_prefix(1);
    name.remove_prefix(1);
  }
  return name.empty();
}

std::string GlobFolder(std::string_view pattern) {
  const size_t wild = pattern.find_first_of("*?[");
  const std::string_view fixed = pattern.substr(0, wild);
  const size_t slash = fixed.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(fixed.substr(0, slash + 1));
}

namespace {

// The length of the printable UTF-8 sequence at the start of `text`, or 0.
size_t PrintableSequence(std::string_view text) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead >= 0x20 && lead < 0x7f) return 1;
  size_t length = 0;
  uint32_t code = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    code = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    code = lead & 0x0f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3f);
  }
  const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < least[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return code < 0xa0 ? 0 : length;  // C1 controls are escaped too
}

}  // namespace

std::string Printable(std::string_view text, size_t max_bytes) {
  const bool cut = text.size() > max_bytes;
  if (cut) text = text.substr(0, max_bytes);
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const size_t n = PrintableSequence(text);
    if (n > 0) {
      out.append(text.substr(0, n));
      text.remove_prefix(n);
      continue;
    }
    static const char kHex[] = "0123456789abcdef";
    const auto c = static_cast<unsigned char>(text[0]);
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
    text.remove_prefix(1);
  }
  if (cut) out += "...";
  return out;
}

std::string PercentEncode(std::string_view text, bool keep_slash) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
        (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CountOf(size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

}  // namespace trainbench

#include "metrics/op_log_reader.h"

#include <fmt/format.h>
#include <zstd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>

#include "common/error.h"
#include "common/strings.h"

namespace trainbench::metrics {
namespace {

constexpr unsigned char kZstdMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};

std::string ReadFile(const std::string& path) {
  // fopen takes a folder on Linux and the read then fails as an I/O error (exit 1): it is
  // the wrong argument, as a missing file is.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError(
        fmt::format("op-log {}: a folder, not an op-log: give the file (`run --op-log FILE` wrote "
                    "FILE.tsv.zst, or FILE.rankNNNN.tsv.zst per rank)",
                    path));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file)
    throw IoError(fmt::format("op-log {}: cannot open it: {}", path, std::strerror(errno)), errno);
  std::string data;
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) data.append(chunk, n);
  if (std::ferror(file.get()))
    throw IoError(fmt::format("op-log {}: cannot read it: {}", path, std::strerror(errno)), errno);
  return data;
}

// Decompresses what there is; a frame cut short (a killed writer) keeps what came before.
std::string Decompress(const std::string& path, const std::string& compressed,
                       std::string& dropped) {
  std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(),
                                                                  &ZSTD_freeDStream);
  ZSTD_initDStream(stream.get());
  std::string out, chunk(ZSTD_DStreamOutSize(), '\0');
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  size_t left = 0;
  while (in.pos < in.size) {
    ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
    left = ZSTD_decompressStream(stream.get(), &o, &in);
    if (ZSTD_isError(left)) {
      if (out.empty())
        throw UsageError(fmt::format("op-log {}: not a zstd stream ({}) at byte {}", path,
                                     ZSTD_getErrorName(left), in.pos));
      dropped = fmt::format("damaged zstd data at byte {}", in.pos);
      return out;
    }
    out.append(chunk.data(), o.pos);
    if (o.pos == 0 && left != 0 && in.pos == in.size) break;
  }
  // Flush what the decoder still holds for the last (possibly unfinished) frame.
  while (true) {
    ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
    ZSTD_inBuffer none{nullptr, 0, 0};
    const size_t r = ZSTD_decompressStream(stream.get(), &o, &none);
    if (ZSTD_isError(r) || o.pos == 0) break;
    out.append(chunk.data(), o.pos);
  }
  if (left != 0) dropped = "a zstd frame cut short (a job killed while writing it)";
  return out;
}

template <typename T>
bool ParseNumber(const std::string& text, T& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool ParseUtcNanos(const std::string& text, int64_t& ns) {
  // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)
  std::tm t{};
  int year, month, day, hour, minute, second;
  int used = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute,
                  &second, &used) != 6 ||
      used != 19)
    return false;
  t.tm_year = year - 1900;
  t.tm_mon = month - 1;
  t.tm_mday = day;
  t.tm_hour = hour;
  t.tm_min = minute;
  t.tm_sec = second;
  int64_t fraction = 0;
  size_t i = 19;
  if (i < text.size() && text[i] == '.') {
    int digits = 0;
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits)
      if (digits < 9) fraction = fraction * 10 + (text[i] - '0');
    if (digits == 0) return false;
    for (; digits < 9; ++digits) fraction *= 10;
  }
  const std::string zone = text.substr(i);
  if (zone != "Z" && zone != "+00:00" && zone != "") return false;
  ns = static_cast<int64_t>(timegm(&t)) * 1000000000 + fraction;
  return true;
}

std::string RelativeName(const OpLogEntry& entry) {
  // The endpoint with or without its trailing slash ("/data" or "/data/" for "/data/train/x").
  std::string root = entry.endpoint;
  if (!root.empty() && root.back() != '/') root += '/';
  if (root.size() > 1 && entry.file.size() > root.size() &&
      entry.file.compare(0, root.size(), root) == 0)
    return entry.file.substr(root.size());
  return entry.file;  // already relative (sai3-bench logs keys)
}

OpLogContents ReadOpLog(const std::string& path) {
  OpLogContents contents;
  std::string text = ReadFile(path);
  if (text.size() >= 4 && std::memcmp(text.data(), kZstdMagic, 4) == 0)
    text = Decompress(path, text, contents.dropped);

  size_t pos = 0, line_number = 0;
  std::map<std::string, size_t> column;
  while (pos < text.size()) {
    const size_t newline = text.find('\n', pos);
    if (newline == std::string::npos) {
      // A last line without its newline was cut in the middle of a write.
      if (contents.dropped.empty()) contents.dropped = "a last line without its end";
      break;
    }
    std::string_view line(text.data() + pos, newline - pos);
    pos = newline + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::vector<std::string> fields = Split(line, '\t');
    if (column.empty()) {
      for (size_t i = 0; i < fields.size(); ++i) column[fields[i]] = i;
      for (const char* need : {"op", "bytes", "file", "start", "end"})
        if (!column.count(need))
          throw UsageError(fmt::format(
              "op-log {}: line 1 has no '{}' column: not an op-log of trainbench or sai3-bench "
              "(its header starts idx, thread, op, client_id, ...)",
              path, need));
      continue;
    }
    auto field = [&](const char* name) -> const std::string& {
      static const std::string kNone;
      const auto it = column.find(name);
      return it == column.end() || it->second >= fields.size() ? kNone : fields[it->second];
    };
    auto bad = [&](const char* name) {
      return UsageError(fmt::format("op-log {}: line {}, column '{}': '{}' is not a {}", path,
                                    line_number, name, field(name),
                                    std::string(name) == "start" || std::string(name) == "end" ||
                                            std::string(name) == "first_byte"
                                        ? "UTC time"
                                        : "number"));
    };
    OpLogEntry e;
    e.op = field("op");
    if (e.op == "STAT") e.op = "HEAD";
    e.client_id = field("client_id");
    e.endpoint = field("endpoint");
    e.endpoint_url = field("endpoint_url");
    e.file = field("file");
    e.error = field("error");
    if (!field("idx").empty() && !ParseNumber(field("idx"), e.idx)) throw bad("idx");
    if (!field("thread").empty() && !ParseNumber(field("thread"), e.thread)) throw bad("thread");
    if (!field("n_objects").empty() && !ParseNumber(field("n_objects"), e.n_objects))
      throw bad("n_objects");
    if (!ParseNumber(field("bytes"), e.bytes)) throw bad("bytes");
    if (!ParseUtcNanos(field("start"), e.start_ns)) throw bad("start");
    if (!ParseUtcNanos(field("end"), e.end_ns)) throw bad("end");
    if (!field("first_byte").empty() && !ParseUtcNanos(field("first_byte"), e.first_byte_ns))
      throw bad("first_byte");
    if (!field("duration_ns").empty()) {
      if (!ParseNumber(field("duration_ns"), e.duration_ns)) throw bad("duration_ns");
    } else {
      e.duration_ns = e.end_ns > e.start_ns ? static_cast<uint64_t>(e.end_ns - e.start_ns) : 0;
    }
    contents.entries.push_back(std::move(e));
  }
  if (column.empty()) throw UsageError(fmt::format("op-log {}: empty (no header line)", path));
  return contents;
}

}  // namespace trainbench::metrics

// The op-log's lines: sai3-bench's columns, indexes in order across buffers, times in UTC with
// nanoseconds, tabs and newlines in a file name or an error never split a line, and a
// .zst log that zstd decompresses to the same text as a plain one; an s3:// log names its
// server in an endpoint_url column, which the reader hands back.
#include "metrics/op_log.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <fstream>
#include <sstream>

#include "metrics/op_log_reader.h"

namespace trainbench::metrics {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteSome(const std::string& path) {
  auto log = std::make_shared<OpLog>(path, "host:0", "s3://bucket");
  {
    OpLogBuffer a(log, 64), b(log, 64);
    OpRecord r;
    r.bytes = 4096;
    r.file = "train/a\tb.npz";
    r.start_ns = 1'764'040'801'000'000'123;  // 2025-11-25T03:20:01.000000123Z
    r.end_ns = r.start_ns + 2'500'000;
    a.Add(r);
    r.thread = 1;
    r.error = "cut\nshort";
    b.Add(r);
  }
  log->Close();
}

TEST(OpLog, LinesInSai3BenchColumns) {
  const std::string path = testing::TempDir() + "/ops.tsv";
  WriteSome(path);
  std::istringstream lines(Slurp(path));
  std::string header, first, second, extra;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_FALSE(std::getline(lines, extra));
  EXPECT_EQ(header, kOpLogHeader);
  EXPECT_EQ(first,
            "0\t0\tGET\thost:0\t1\t4096\ts3://bucket\ttrain/a b.npz\t\t"
            "2025-11-25T03:20:01.000000123Z\t\t2025-11-25T03:20:01.002500123Z\t2500000");
  EXPECT_EQ(second.substr(0, 4), "1\t1\t");
  EXPECT_NE(second.find("\tcut short\t"), std::string::npos) << second;
}

TEST(OpLog, ZstdDecompressesToThePlainText) {
  const std::string plain = testing::TempDir() + "/ops2.tsv";
  const std::string packed = testing::TempDir() + "/ops2.tsv.zst";
  WriteSome(plain);
  WriteSome(packed);
  const std::string z = Slurp(packed);
  std::string out(1 << 16, '\0');
  ZSTD_DCtx* d = ZSTD_createDCtx();
  ZSTD_inBuffer in{z.data(), z.size(), 0};
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  while (in.pos < in.size) ASSERT_FALSE(ZSTD_isError(ZSTD_decompressStream(d, &o, &in)));
  ZSTD_freeDCtx(d);
  out.resize(o.pos);
  EXPECT_EQ(out, Slurp(plain));
}

TEST(OpLog, AnS3LogNamesItsServerOnEveryLine) {
  const std::string path = testing::TempDir() + "/ops3.tsv";
  auto log = std::make_shared<OpLog>(path, "host:0", "s3://bucket");
  log->NoteEndpointUrl("http://127.0.0.1:7480");
  log->NoteEndpointUrl("http://elsewhere:9000");  // the first storage's is the log's
  {
    OpLogBuffer a(log, 64);
    OpRecord r;
    r.file = "train/a.npz";
    r.start_ns = 1'764'040'801'000'000'123;
    r.end_ns = r.start_ns + 1000;
    a.Add(r);
    a.Add(r);
  }
  log->Close();
  std::istringstream lines(Slurp(path));
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header, std::string(kOpLogHeader) + "\tendpoint_url");
  int n = 0;
  while (std::getline(lines, line)) {
    ++n;
    EXPECT_EQ(line.substr(line.size() - 22), "\thttp://127.0.0.1:7480") << line;
  }
  EXPECT_EQ(n, 2);
  const OpLogContents contents = ReadOpLog(path);
  ASSERT_EQ(contents.entries.size(), 2u);
  EXPECT_EQ(contents.entries[0].endpoint_url, "http://127.0.0.1:7480");
  EXPECT_EQ(contents.entries[1].duration_ns, 1000u);
}

}  // namespace
}  // namespace trainbench::metrics

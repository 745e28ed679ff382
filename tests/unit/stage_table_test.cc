// The stage's table on stdout (stage::FormatTable): a long source URL keeps its column apart
// from the role (issue 34: "http://...:18188mirror").
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "stage/stage_account.h"

namespace trainbench::stage {
namespace {

TEST(StageTable, ALongSourceDoesNotRunIntoTheRole) {
  StageAccount a;
  a.source = "http://origin/f.bin";
  a.dest = "/dest";
  a.complete = true;
  SourceRow mirror;
  mirror.source = "http://cache-01.storage.example.org:18188";  // 41 characters
  mirror.role = "mirror";
  SourceRow origin;
  origin.source = "http://origin";
  origin.role = "origin";
  a.sources = {mirror, origin};
  const std::string table = FormatTable(a);
  EXPECT_EQ(table.find(":18188mirror"), std::string::npos) << table;
  // Every row's role starts in the header's role column.
  std::istringstream lines(table);
  std::string line;
  size_t role_column = std::string::npos;
  int rows = 0;
  while (std::getline(lines, line)) {
    if (line.find("  source ") == 0) role_column = line.find("role");
    if (line.find("mirror") != std::string::npos || line.find(" origin ") != std::string::npos) {
      ASSERT_NE(role_column, std::string::npos) << table;
      EXPECT_TRUE(line.compare(role_column, 6, "mirror") == 0 ||
                  line.compare(role_column, 6, "origin") == 0)
          << line << "\n"
          << table;
      EXPECT_EQ(line[role_column - 1], ' ') << line;
      ++rows;
    }
  }
  EXPECT_EQ(rows, 2) << table;
}

}  // namespace
}  // namespace trainbench::stage

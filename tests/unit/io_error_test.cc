// storage::ThrowIoError's next step follows the errno: out of descriptors is the open-file
// limit, not the folder's permissions (issue 34: a stage of many objects hitting EMFILE was
// told to check that DEST is writable).
#include "storage/io_error.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "common/error.h"

namespace trainbench::storage {
namespace {

std::string MessageFor(int error_number) {
  try {
    ThrowIoError("cannot open", "/dest/a.npy.part", error_number);
  } catch (const IoError& e) {
    return e.what();
  }
  return "";
}

TEST(ThrowIoErrorTest, EachErrnoItsNextStep) {
  const std::string emfile = MessageFor(EMFILE);
  EXPECT_NE(emfile.find("cannot open '/dest/a.npy.part': Too many open files; this process "
                        "reached its open-file limit: raise it (ulimit -n)"),
            std::string::npos)
      << emfile;
  EXPECT_EQ(emfile.find("writable"), std::string::npos) << emfile;
  EXPECT_NE(MessageFor(ENFILE).find("fs.file-max"), std::string::npos);
  EXPECT_NE(MessageFor(EACCES).find("fix the permissions"), std::string::npos);
  EXPECT_NE(MessageFor(ENOSPC).find("free space"), std::string::npos);
}

}  // namespace
}  // namespace trainbench::storage

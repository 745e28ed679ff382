// One regular tar member being written: under a temporary name beside its final one
// (".NAME.tb-partial"), renamed when whole, so a stop never leaves a half-written file under a
// final name. Destroying it before Commit removes the temporary file.
// No fsync: a staged dataset is millions of small files and syncing each would cost more than
// the download; after a crash, re-extract from the resume offset (the last members extracted
// may be lost to the page cache, as with tar -x). Modes, owners and times are not restored:
// files get 0666 and folders 0777, less the umask.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace trainbench::stage {

class TarMemberFile {
 public:
  TarMemberFile();
  ~TarMemberFile();
  TarMemberFile(const TarMemberFile&) = delete;
  TarMemberFile& operator=(const TarMemberFile&) = delete;

  // Starts a member at `path` (its folder exists). `what` names it in errors
  // ("tar member 'a/b.jpg' at archive offset 1024").
  void Open(const std::string& path, std::string what);
  // `last_piece`: these are the member's last bytes (a whole member in one piece is then
  // written without a copy).
  void Write(const char* data, size_t size, bool last_piece);
  // Writes what is buffered, closes and renames to the final name; returns the bytes written.
  // With `expected_bytes`, throws (and removes the file) when the count differs.
  uint64_t Commit(const uint64_t* expected_bytes);
  // Closes and removes the temporary file, if one is open.
  void Abort() noexcept;

 private:
  void Flush();
  void WriteAll(const char* data, size_t size);
  [[noreturn]] void Fail(const std::string& doing, int error_number);

  int fd_ = -1;
  std::string path_;
  std::string temp_path_;
  std::string what_;
  std::unique_ptr<char[]> buffer_;
  size_t buffered_ = 0;
  uint64_t written_ = 0;
};

}  // namespace trainbench::stage

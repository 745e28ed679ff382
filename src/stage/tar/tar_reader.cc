#include "stage/tar/tar_reader.h"

#include "common/error.h"

namespace trainbench::stage {

ArchivePtr NewTarReader() {
  ArchivePtr a(archive_read_new());
  if (!a) throw RuntimeError("tar extractor: libarchive could not allocate a reader");
  archive_read_support_filter_gzip(a.get());
  archive_read_support_format_tar(a.get());
  return a;
}

std::string ArchiveError(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "libarchive gave no reason";
}

}  // namespace trainbench::stage

#include "formats/tfrecord/tfrecord_index.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace trainbench::formats {
namespace {
constexpr std::string_view kTfrecordIndexKind = "TFRecord index";

std::string IndexText(const std::vector<SampleExtent>& extents) {
  std::string text;
  for (const auto& e : extents) text += fmt::format("{} {}\n", e.offset, e.length);
  return text;
}
}  // namespace

std::string TfrecordIndexPath(const std::string& data_path) {
  const std::string split = data_path.rfind("valid/", 0) == 0 ? "valid" : "train";
  const size_t slash = data_path.find_last_of('/');
  return "index/" + split + "/" +
         (slash == std::string::npos ? data_path : data_path.substr(slash + 1)) + ".idx";
}

void WriteTfrecordIndex(storage::Storage& storage, const std::string& index_path,
                        const std::vector<SampleExtent>& extents) {
  const std::string text = IndexText(extents);
  auto out = storage.Create(index_path);
  out->Append(text.data(), text.size());
  out->Commit();
}

void CheckTfrecordIndex(storage::Storage& storage, const std::string& index_path,
                        const std::vector<SampleExtent>& extents) {
  const std::string name = storage.Describe(index_path);
  if (!storage.FileSize(index_path))
    ThrowBadFile(kTfrecordIndexKind, name, 0, "the index file is missing");
  const auto bytes = storage::ReadAll(storage, index_path);
  const std::string want = IndexText(extents);
  const auto [got_end, want_end] =
      std::mismatch(bytes.begin(), bytes.end(), want.begin(), want.end());
  if (got_end == bytes.end() && want_end == want.end()) return;
  const auto offset = static_cast<uint64_t>(got_end - bytes.begin());
  const auto line = std::count(want.begin(), want_end, '\n') + 1;
  ThrowBadFile(kTfrecordIndexKind, name, offset,
               fmt::format("line {} is not record {}'s \"offset length\"", line, line - 1));
}

}  // namespace trainbench::formats

#include "storage/storage.h"

namespace trainbench::storage {

void Storage::ListEach(const std::string& prefix,
                       const std::function<void(const ListEntry&)>& each) {
  for (const auto& entry : List(prefix)) each(entry);
}

std::vector<unsigned char> ReadAll(Storage& storage, const std::string& path) {
  auto file = storage.Open(path);
  std::vector<unsigned char> data(file->Size());
  const size_t n = file->ReadAt(0, data.data(), data.size());
  data.resize(n);
  return data;
}

}  // namespace trainbench::storage

#include "storage/object_names.h"

#include <fmt/format.h>

#include <limits>

#include "common/error.h"

namespace trainbench::storage {

ObjectNames::ObjectNames(const std::vector<std::string>& names) {
  size_t chars = 0;
  for (const auto& n : names) chars += n.size();
  Reserve(names.size(), chars);
  for (const auto& n : names) Add(n);
}

void ObjectNames::Reserve(size_t names, size_t chars) {
  ends_.reserve(ends_.size() + names);
  chars_.reserve(chars_.size() + chars);
}

void ObjectNames::Add(std::string_view name) {
  if (chars_.size() + name.size() > std::numeric_limits<uint32_t>::max())
    throw RuntimeError(fmt::format(
        "more than 4 GiB of object names ({} names so far): a run holds names with 32-bit "
        "offsets; read fewer files at a time (dataset.num_files_train)",
        ends_.size()));
  chars_.append(name);
  ends_.push_back(static_cast<uint32_t>(chars_.size()));
}

void ObjectNames::Truncate(size_t count) {
  if (count >= ends_.size()) return;
  ends_.resize(count);
  chars_.resize(count == 0 ? 0 : ends_.back());
}

std::string ObjectNames::Joined(size_t i, std::string_view prefix) const {
  const std::string_view name = (*this)[i];
  if (prefix.empty()) return std::string(name);
  std::string joined;
  joined.reserve(prefix.size() + 1 + name.size());
  joined.append(prefix).append("/").append(name);
  return joined;
}

SharedObjectNames ShareNames(const std::vector<std::string>& names) {
  return std::make_shared<const ObjectNames>(names);
}

}  // namespace trainbench::storage

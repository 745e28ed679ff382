// The names of the objects a read engine reads, object i being names[i]: one buffer of
// characters and an end offset per name. A run over retinanet's 1.17 M files holds each
// name once, here (about 4 bytes a name above its characters, where a std::string took 32
// and a heap block), shared by the dataset's file table and the engine; an engine puts its
// root folder or key prefix in front of a name only when it opens or requests the object.
// Built once, then read-only: reads are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace trainbench::storage {

class ObjectNames {
 public:
  ObjectNames() = default;
  explicit ObjectNames(const std::vector<std::string>& names);

  // Room for `names` more names of `chars` characters in all, so a known count allocates once.
  void Reserve(size_t names, size_t chars);
  // Throws RuntimeError past 4 GiB of characters (100 M names of 40).
  void Add(std::string_view name);
  // Drops the names from `count` on.
  void Truncate(size_t count);

  std::string_view operator[](size_t i) const {
    const uint32_t begin = i == 0 ? 0 : ends_[i - 1];
    return {chars_.data() + begin, ends_[i] - begin};
  }
  // The name behind `prefix` (a root folder, a key prefix) and a '/', or the name alone.
  std::string Joined(size_t i, std::string_view prefix) const;
  size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  // Heap bytes held, for accounting.
  size_t Bytes() const { return chars_.capacity() + ends_.capacity() * sizeof(uint32_t); }

 private:
  std::string chars_;
  std::vector<uint32_t> ends_;  // names[i] is chars_[ends_[i-1], ends_[i])
};

using SharedObjectNames = std::shared_ptr<const ObjectNames>;

// The names of `names`, shared: for callers that hold a few names as strings.
SharedObjectNames ShareNames(const std::vector<std::string>& names);

}  // namespace trainbench::storage

#include "dataset/file_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>

#include "common/error.h"

namespace trainbench::dataset {

FileTable::FileTable() : names_(std::make_shared<storage::ObjectNames>()), shared_names_(names_) {}

void FileTable::Reserve(size_t files, size_t name_chars) {
  names_->Reserve(files, name_chars);
  sizes_.reserve(sizes_.size() + files);
  samples_.reserve(samples_.size() + files);
  flags_.reserve(flags_.size() + files);
}

void FileTable::Add(formats::WrittenFile file) {
  if (file.num_samples > std::numeric_limits<uint32_t>::max())
    throw RuntimeError(
        fmt::format("dataset file '{}' holds {} samples, more than a run takes (4 G)", file.path,
                    file.num_samples));
  uint8_t flags = file.extents_are_bytes ? 0 : kPlacesNotBytes;
  const bool whole = file.samples.size() == file.num_samples && !file.samples.empty() &&
                     std::all_of(file.samples.begin(), file.samples.end(), [&](const auto& e) {
                       return e.offset == 0 && e.length == file.size_bytes;
                     });
  if (whole) {
    flags |= kWholeFile;
    file.samples.clear();
  }
  try {
    extents_.Add(size(), file.samples);
    units_.Add(size(), file.units);
  } catch (const std::length_error&) {
    throw RuntimeError(
        fmt::format("dataset file '{}': the dataset has more read units or sample "
                    "extents than a run takes (4 G)",
                    file.path));
  }
  names_->Add(file.path);
  sizes_.push_back(file.size_bytes);
  samples_.push_back(static_cast<uint32_t>(file.num_samples));
  flags_.push_back(flags);
}

void FileTable::Truncate(size_t count) {
  if (count >= size()) return;
  names_->Truncate(count);
  sizes_.resize(count);
  samples_.resize(count);
  flags_.resize(count);
  extents_.Truncate(count);
  units_.Truncate(count);
}

formats::SampleExtent FileTable::ExtentOf(size_t i, uint64_t sample) const {
  if (flags_[i] & kWholeFile) return {0, sizes_[i]};
  const auto recorded = Extents(i);
  if (sample < recorded.size()) return recorded[sample];
  const uint64_t n = std::max<uint64_t>(1, samples_[i]);
  const uint64_t begin = sizes_[i] * sample / n, end = sizes_[i] * (sample + 1) / n;
  return {begin, end - begin};
}

formats::WrittenFile FileTable::File(size_t i) const {
  formats::WrittenFile f;
  f.path = std::string(Path(i));
  f.size_bytes = sizes_[i];
  f.num_samples = samples_[i];
  if (flags_[i] & kWholeFile) {
    f.samples.assign(f.num_samples, {0, f.size_bytes});
  } else {
    const auto recorded = Extents(i);
    f.samples.assign(recorded.begin(), recorded.end());
  }
  const auto units = Units(i);
  f.units.assign(units.begin(), units.end());
  f.extents_are_bytes = ExtentsAreBytes(i);
  return f;
}

uint64_t FileTable::Bytes(size_t begin, size_t end) const {
  uint64_t total = 0;
  for (size_t i = begin; i < end; ++i) total += sizes_[i];
  return total;
}

size_t FileTable::HeapBytes() const {
  size_t units = 0;
  for (const auto& u : units_.Items())
    units += u.extents.capacity() * sizeof(formats::SampleExtent);
  return names_->Bytes() + sizes_.capacity() * sizeof(uint64_t) +
         samples_.capacity() * sizeof(uint32_t) + flags_.capacity() + extents_.HeapBytes() +
         units_.HeapBytes() + units;
}

FileNameIndex::FileNameIndex(const FileTable& files) : files_(files) {
  size_t capacity = 16;
  while (capacity < 2 * files.size()) capacity *= 2;
  slots_.assign(capacity, 0);
  mask_ = capacity - 1;
  const std::hash<std::string_view> hash;
  for (size_t i = 0; i < files.size(); ++i) {
    size_t s = hash(files.Path(i)) & mask_;
    while (slots_[s] != 0) {
      if (files.Path(slots_[s] - 1) == files.Path(i)) break;  // keep the first
      s = (s + 1) & mask_;
    }
    if (slots_[s] == 0) slots_[s] = static_cast<uint32_t>(i + 1);
  }
}

size_t FileNameIndex::Find(std::string_view name) const {
  for (size_t s = std::hash<std::string_view>{}(name)&mask_; slots_[s] != 0; s = (s + 1) & mask_)
    if (files_.Path(slots_[s] - 1) == name) return slots_[s] - 1;
  return kNone;
}

}  // namespace trainbench::dataset

// The files a run reads, held compactly: a million-file dataset (retinanet's 1.17 M JPEGs)
// is one name buffer shared with the read engine (storage/object_names.h) and a few flat
// arrays, about 60 bytes a file where a std::vector of formats::WrittenFile took over 300.
// A sample extent is stored only where it says something: a file whose samples are all
// the whole file (an image, as DLIO counts it) keeps none. Built once, before the run;
// then read-only, so reads are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "formats/format.h"
#include "storage/object_names.h"

namespace trainbench::dataset {

// Items of many files in one array, with where each file's start: the offsets exist only
// once some file has items (images record no extents, and only Parquet has read units), so
// a dataset without them pays nothing a file.
template <typename Offset, typename Item>
class FileRanges {
 public:
  std::span<const Item> Of(size_t file) const {
    if (begin_.empty()) return {};
    return {items_.data() + begin_[file], begin_[file + 1] - begin_[file]};
  }
  // Appends file `file`'s items (files are added in order).
  template <typename Range>
  void Add(size_t file, Range&& items) {
    if (begin_.empty() && std::empty(items)) return;
    if (begin_.empty()) begin_.assign(file + 1, 0);
    for (auto&& item : items) items_.push_back(std::move(item));
    if (items_.size() > std::numeric_limits<Offset>::max())
      throw std::length_error("too many items for the file table's offsets");
    begin_.push_back(static_cast<Offset>(items_.size()));
  }
  void Truncate(size_t files) {
    if (begin_.empty() || files + 1 >= begin_.size()) return;
    begin_.resize(files + 1);
    items_.resize(begin_.back());
  }
  const std::vector<Item>& Items() const { return items_; }
  size_t HeapBytes() const {
    return begin_.capacity() * sizeof(Offset) + items_.capacity() * sizeof(Item);
  }

 private:
  std::vector<Offset> begin_;  // file i's items are [begin_[i], begin_[i + 1]); empty: none
  std::vector<Item> items_;
};

class FileTable {
 public:
  FileTable();

  // Room for `files` more files whose names take about `name_chars` characters in all.
  void Reserve(size_t files, size_t name_chars);
  // Adds `file` (its companions are not kept: a run reads none). Throws RuntimeError for a
  // file of over 4 G samples.
  void Add(formats::WrittenFile file);
  // Drops the files from `count` on.
  void Truncate(size_t count);

  size_t size() const { return sizes_.size(); }
  bool empty() const { return sizes_.empty(); }
  std::string_view Path(size_t i) const { return (*names_)[i]; }
  uint64_t SizeBytes(size_t i) const { return sizes_[i]; }
  uint64_t NumSamples(size_t i) const { return samples_[i]; }
  // Samples per file of files [begin, end): the sampler's input.
  std::span<const uint32_t> SampleCounts(size_t begin, size_t end) const {
    return {samples_.data() + begin, end - begin};
  }
  // The extents recorded for file i's samples: empty where none are recorded (compressed
  // files) or where every sample is the whole file.
  std::span<const formats::SampleExtent> Extents(size_t i) const { return extents_.Of(i); }
  // Where sample `sample` of file i lies: its recorded extent, the whole file, or, where
  // none is recorded, an equal share of the file so that an epoch reads every byte.
  formats::SampleExtent ExtentOf(size_t i, uint64_t sample) const;
  // File i's read units (formats/format.h's ReadUnit), empty where samples are read alone.
  std::span<const formats::ReadUnit> Units(size_t i) const { return units_.Of(i); }
  // False where file i's extents are places in data only the format's library reads.
  bool ExtentsAreBytes(size_t i) const { return (flags_[i] & kPlacesNotBytes) == 0; }
  // File i as a WrittenFile again (without companions).
  formats::WrittenFile File(size_t i) const;
  // Every file's name, object i being file i: what the read engine opens.
  const storage::SharedObjectNames& Names() const { return shared_names_; }
  // Every file's size, for the I/O characterizer.
  std::span<const uint64_t> Sizes() const { return sizes_; }
  // Bytes of files [begin, end).
  uint64_t Bytes(size_t begin, size_t end) const;
  // Heap bytes held, for accounting.
  size_t HeapBytes() const;

 private:
  static constexpr uint8_t kWholeFile = 1;       // every sample is the whole file
  static constexpr uint8_t kPlacesNotBytes = 2;  // !WrittenFile::extents_are_bytes

  std::shared_ptr<storage::ObjectNames> names_;
  storage::SharedObjectNames shared_names_;  // names_, read-only, for engines
  std::vector<uint64_t> sizes_;
  std::vector<uint32_t> samples_;
  std::vector<uint8_t> flags_;
  FileRanges<uint64_t, formats::SampleExtent> extents_;
  FileRanges<uint32_t, formats::ReadUnit> units_;
};

// The files of a table by name: open addressing over positions, about 8 bytes a file where
// a hash map of strings took a node and a copy of the name each. For matching a listing or
// the planned names to the table. Read-only once built; the table must outlive it.
class FileNameIndex {
 public:
  static constexpr size_t kNone = SIZE_MAX;
  explicit FileNameIndex(const FileTable& files);
  // The position of the file named `name`, or kNone; the first one where two share it.
  size_t Find(std::string_view name) const;

 private:
  const FileTable& files_;
  std::vector<uint32_t> slots_;  // a position + 1; 0: free
  size_t mask_ = 0;
};

}  // namespace trainbench::dataset

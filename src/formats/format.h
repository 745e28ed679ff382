// A dataset file format: how datagen writes a file, and how it is checked. Each format
// is one file (csv.cc), or a folder with the helpers only it uses (tfrecord/, parquet/),
// that defines its FormatDescription (name, extensions, capability flags, help, config
// check, factory), in the manner of fio's ioengine tables, and one line of registry.cc's
// table lists it. What several formats share is in wire/.
// Writers are stateless and thread-safe: datagen calls Write from many threads.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "config/workload.h"
#include "storage/storage.h"

namespace trainbench::formats {

// What to write: one dataset file.
struct FileSpec {
  std::string path;                    // relative to the dataset root
  uint64_t seed = 0;                   // all bytes derive from it
  std::vector<uint64_t> sample_sizes;  // bytes of payload per sample
};

// Where one sample's bytes are in the file: what a framework reader reads for it.
struct SampleExtent {
  uint64_t offset = 0;
  uint64_t length = 0;
};

// Consecutive samples that a framework reader reads together, once, and keeps for all of
// them (a Parquet row group: pyarrow reads the group's column chunks, and DLIO's reader
// serves the group's rows from it). `extents` are the unit's byte ranges, one per field
// (column chunk) in the file's field order; a run keeps only the fields it reads
// (FileFormat::SelectReads).
struct ReadUnit {
  uint64_t first_sample = 0;  // the unit holds samples [first_sample, first_sample + num_samples)
  uint64_t num_samples = 0;
  std::vector<SampleExtent> extents;
  uint64_t Bytes() const {
    uint64_t total = 0;
    for (const auto& e : extents) total += e.length;
    return total;
  }
};

// What was written; recorded in the manifest so a run needs no rescan.
struct WrittenFile {
  std::string path;
  uint64_t size_bytes = 0;
  uint64_t num_samples = 0;
  std::vector<SampleExtent> samples;    // empty where samples have no fixed place (compressed)
  std::vector<std::string> companions;  // extra files (index files of indexed_binary)
  // Where samples are read a unit at a time (Parquet), the units in sample order, covering
  // every sample; `samples` is then empty. Empty: each sample is read on its own.
  std::vector<ReadUnit> units = {};
  // False when `samples` are places in uncompressed data that only the format's library
  // can read (compressed HDF5), not byte ranges of the file. Not saved in the manifest:
  // only a scan sets it.
  bool extents_are_bytes = true;
};

struct FormatDescription;

class FileFormat {
 public:
  virtual ~FileFormat() = default;
  // The description this format was made from: its name, extensions, flags.
  virtual const FormatDescription& description() const = 0;
  // Writes spec.path (and companions) through `storage`, each committed only when whole.
  virtual WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const = 0;
  // Re-reads a file and checks its structure against what was written. Throws
  // RuntimeError naming the file and the first bad offset.
  virtual void Verify(const WrittenFile& expected, storage::Storage& storage) const = 0;
  // Finds the sample extents of an existing file (one written by DLIO has no
  // manifest): reads only what it must (TFRecord headers, zip directory, HDF5 metadata).
  virtual WrittenFile Scan(const std::string& path, storage::Storage& storage) const = 0;
  // Narrows a file's read units to the fields the config reads (Parquet: the columns
  // marked read), before a run. Throws RuntimeError naming the file when its fields are
  // not the config's. Formats without units leave the file as it is.
  virtual void SelectReads(WrittenFile& file) const { (void)file; }
};

struct FormatTraits {
  // Array formats (npz, npy, hdf5) and csv hold equal-sized samples in a file, so the plan
  // draws one size per file rather than one per sample (as DLIO does).
  bool uniform_sample_size = false;
  // Samples are side x side squares, side = floor(sqrt(record_length_bytes)), as DLIO
  // shapes its arrays and images (its "dimension"): 114660 bytes give 338 x 338.
  bool square_samples = false;
  // Bytes a file stores per byte of the plan's samples, for the free-space check (csv:
  // each 1-byte value is written as text).
  double stored_bytes_per_sample_byte = 1.0;
  // Image formats hold one image per file; DLIO counts num_samples_per_file samples in
  // each (decoding the image for every one), so every sample is the whole file.
  bool whole_file_samples = false;
  // Scan gives every sample an extent even where Write recorded none (chunked or
  // compressed HDF5: the sample's place in the uncompressed dataset, which the format's
  // library reads), so a run rescans a manifest entry without extents.
  bool scan_finds_extents = false;
  // Samples are read a ReadUnit at a time (Parquet row groups), so a manifest entry
  // without units (an older trainbench's, which recorded one extent per row) is rescanned.
  bool reads_units = false;
};

// What a format is, in one place; each format file defines one (or more) and registry.cc
// lists them. Descriptions live for the whole program.
struct FormatDescription {
  // dataset.format's value, lower case ("npy").
  std::string_view name = {};
  // File-name extensions without the dot: the first is what datagen writes (the name, as
  // DLIO names its files "x.hdf5"); the rest are spellings older trainbench versions
  // wrote, which a run also reads ("h5", "jpg", "bin").
  std::vector<std::string_view> extensions = {};
  FormatTraits traits = {};
  // One line for `trainbench datagen --help` and `trainbench workloads`.
  std::string_view help = {};
  // Config checks that depend on the format; throws UsageError naming the key. May be null.
  void (*check)(const config::WorkloadConfig& config) = nullptr;
  // A format for the config (after check).
  std::unique_ptr<FileFormat> (*make)(const config::WorkloadConfig& config) = nullptr;
  // What of this format's own settings (or layout) shapes a file's bytes beyond dataset's
  // common keys, added to the manifest's generation key, so that a dataset written under
  // other settings is not mixed with it. May be null (nothing beyond the common keys).
  void (*layout_key)(const config::WorkloadConfig& config, nlohmann::json& key) = nullptr;
  // The files Write makes beside the data file at `path` (its WrittenFile::companions:
  // tfrecord's DALI index under index/, indexed_binary's offset and size indexes), so that
  // datagen plans them with the file and knows the folders they go in. May be null (none).
  std::vector<std::string> (*companions)(const std::string& path) = nullptr;
  // For formats whose samples a library reads (hdf5: libhdf5 hyperslabs), the read engine
  // over `objects` (dataset files, in the run's order) that does it; null where samples are
  // byte extents that the storage's own engine reads.
  std::unique_ptr<storage::ReadEngine> (*open_reader)(
      storage::Storage& storage, const storage::ObjectNames& objects) = nullptr;
};

// The layout_key of the formats whose samples became DLIO's side^2 values (bytes) in their
// second layout (csv, indexed_binary): the first wrote record_length_bytes.
void SquareValuesLayoutKey(const config::WorkloadConfig& config, nlohmann::json& key);

// Every registered format, in the order of registry.cc's table.
const std::vector<const FormatDescription*>& AllFormats();
// The format named `name` (dataset.format); throws UsageError "dataset.format 'xyz' is not
// a known format; known: tfrecord, npz, ..." for any other.
const FormatDescription& FindFormat(std::string_view name);
// FindFormat(config.dataset.format) and its check: what commands run on every loaded
// workload, so a bad format or format-dependent key exits 2 before any work.
const FormatDescription& CheckFormat(const config::WorkloadConfig& config);

// "<file>: bad <kind> at offset N: <what>": the one shape of a Verify or Scan failure
// (a RuntimeError, exit 1).
[[noreturn]] void ThrowBadFile(std::string_view kind, const std::string& file, uint64_t offset,
                               const std::string& what);
// Throws unless `size` is the size the manifest recorded for the file.
void CheckSize(std::string_view kind, const std::string& file, uint64_t size,
               const WrittenFile& expected);
// Throws unless each sample found in `file` lies where the manifest recorded it
// (`expected.samples`; as many as both have): "sample I is N bytes at O, the manifest says
// N' bytes at O'", the one wording of every format's Verify. The error's offset is the
// sample's own, or, with `index_entry_bytes`, sample I's entry in an index file of entries
// that size (`file` is then the index: indexed binary's).
void CheckSampleExtents(std::string_view kind, const std::string& file,
                        const std::vector<SampleExtent>& found, const WrittenFile& expected,
                        uint64_t index_entry_bytes = 0);
// CheckFormat, then the format's factory.
std::unique_ptr<FileFormat> MakeFormat(const config::WorkloadConfig& config);

}  // namespace trainbench::formats

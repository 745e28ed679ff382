#include "formats/hdf5/hdf5.h"

#include <fmt/format.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/interrupt.h"
#include "common/random.h"
#include "formats/format.h"
#include "formats/hdf5/hdf5_handle.h"
#include "formats/hdf5/hdf5_sample_reader.h"
#include "formats/wire/array_samples.h"

namespace trainbench::formats {
namespace {
constexpr size_t kBatchBytes = 8 << 20;  // rows generated and written per H5Dwrite
constexpr const char* kRecords = "records_0";
// What DLIO 2.0.0 (PyPI's release) names records_0: datagen writes it as a second hard link
// to records_0's object, so both DLIO versions read one dataset, stored once.
constexpr const char* kDlioRecords = "records";
constexpr const char* kLabels = "labels";
// records_0's attribute holding the seed its bytes derive from, so that Verify can
// compare every byte with the generator's (DLIO's readers ignore attributes).
constexpr const char* kSeedAttribute = "trainbench_seed";

constexpr std::string_view kHdf5Kind = "HDF5 file";

[[noreturn]] void Fail(const std::string& file, const std::string& what) {
  throw RuntimeError(fmt::format("{}: HDF5 {} failed: {}", file, what, Hdf5LastError()));
}

Hdf5Handle Check(hid_t id, Hdf5Handle::Closer closer, const std::string& file,
                 const std::string& what) {
  if (id < 0) Fail(file, what);
  return {id, closer};
}

void Check(herr_t status, const std::string& file, const std::string& what) {
  if (status < 0) Fail(file, what);
}

// Whether `a` and `b` name one object of `file` by hard links (libhdf5 1.12 compares
// tokens where 1.10 compared addresses).
bool SameObject(hid_t file, const char* a, const char* b) {
  if (H5Lexists(file, a, H5P_DEFAULT) <= 0 || H5Lexists(file, b, H5P_DEFAULT) <= 0) return false;
#if H5_VERSION_GE(1, 12, 0)
  H5L_info2_t info_a, info_b;
  int cmp = 1;
  return H5Lget_info2(file, a, &info_a, H5P_DEFAULT) >= 0 &&
         H5Lget_info2(file, b, &info_b, H5P_DEFAULT) >= 0 && info_a.type == H5L_TYPE_HARD &&
         info_b.type == H5L_TYPE_HARD &&
         H5Otoken_cmp(file, &info_a.u.token, &info_b.u.token, &cmp) >= 0 && cmp == 0;
#else
  H5L_info_t info_a, info_b;
  return H5Lget_info(file, a, &info_a, H5P_DEFAULT) >= 0 &&
         H5Lget_info(file, b, &info_b, H5P_DEFAULT) >= 0 && info_a.type == H5L_TYPE_HARD &&
         info_b.type == H5L_TYPE_HARD && info_a.u.address == info_b.u.address;
#endif
}

// Chunk dimensions for (rows, side, side) samples: whole samples when a chunk holds at
// least one, else lines of one sample (at least one line).
std::vector<hsize_t> ChunkDims(const Hdf5Layout& layout, uint64_t rows, uint64_t side) {
  const uint64_t row_bytes = side * side;
  const uint64_t bytes = layout.chunk_bytes == 0 ? row_bytes : layout.chunk_bytes;
  if (bytes >= row_bytes)
    return {std::clamp<hsize_t>(bytes / row_bytes, 1, std::max<uint64_t>(rows, 1)), side, side};
  return {1, std::clamp<hsize_t>(bytes / side, 1, side), side};
}

// Where each sample (first-axis slice) of a records dataset lies, when it lies in one
// range: contiguous storage, or uncompressed chunks that hold whole samples.
std::optional<std::vector<SampleExtent>> RecordExtents(hid_t dataset, const std::string& file) {
  const Hdf5Handle space = Check(H5Dget_space(dataset), H5Sclose, file, "H5Dget_space");
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1) return std::nullopt;
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  const Hdf5Handle type = Check(H5Dget_type(dataset), H5Tclose, file, "H5Dget_type");
  uint64_t sample_bytes = H5Tget_size(type.get());
  for (int i = 1; i < rank; ++i) sample_bytes *= dims[static_cast<size_t>(i)];
  const uint64_t samples = dims[0];

  const Hdf5Handle dcpl = Check(H5Dget_create_plist(dataset), H5Pclose, file, "create plist");
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  if (layout == H5D_CONTIGUOUS) {
    const haddr_t offset = H5Dget_offset(dataset);
    if (offset == HADDR_UNDEF)
      return samples == 0 ? std::optional(std::vector<SampleExtent>{}) : std::nullopt;
    return RowExtents(offset, samples, sample_bytes);
  }
  if (layout != H5D_CHUNKED || H5Pget_nfilters(dcpl.get()) != 0) return std::nullopt;
  std::vector<hsize_t> chunk(static_cast<size_t>(rank));
  if (H5Pget_chunk(dcpl.get(), rank, chunk.data()) != rank) return std::nullopt;
  for (int i = 1; i < rank; ++i)
    if (chunk[static_cast<size_t>(i)] != dims[static_cast<size_t>(i)]) return std::nullopt;
  std::vector<SampleExtent> extents(samples);
  std::vector<hsize_t> coord(static_cast<size_t>(rank), 0);
  for (uint64_t first = 0; first < samples; first += chunk[0]) {
    coord[0] = first;
    unsigned filter_mask = 0;
    haddr_t address = HADDR_UNDEF;
    hsize_t size = 0;
    if (H5Dget_chunk_info_by_coord(dataset, coord.data(), &filter_mask, &address, &size) < 0 ||
        address == HADDR_UNDEF)
      return std::nullopt;
    for (uint64_t i = first; i < std::min<uint64_t>(samples, first + chunk[0]); ++i)
      extents[i] = {address + (i - first) * sample_bytes, sample_bytes};
  }
  return extents;
}

// An open file: through its local path when there is one (only what is read is
// read), else from its whole image in memory.
struct OpenFile {
  std::vector<unsigned char> image;
  Hdf5Handle file;
};

void Open(const std::string& path, storage::Storage& storage, const std::string& name,
          OpenFile* out) {
  hid_t id = H5I_INVALID_HID;
  if (const auto local = storage.LocalPath(path)) {
    id = H5Fopen(local->c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  } else {
    out->image = storage::ReadAll(storage, path);
    id = H5LTopen_file_image(out->image.data(), out->image.size(),
                             H5LT_FILE_IMAGE_DONT_COPY | H5LT_FILE_IMAGE_DONT_RELEASE);
  }
  // The superblock (at 0) is what HDF5 reads first and all else hangs from.
  if (id < 0)
    ThrowBadFile(kHdf5Kind, name, 0, fmt::format("HDF5 cannot open it: {}", Hdf5LastError()));
  out->file = Hdf5Handle(id, H5Fclose);
}

std::vector<hsize_t> Dims(hid_t dataset, const std::string& name) {
  const Hdf5Handle space = Check(H5Dget_space(dataset), H5Sclose, name, "H5Dget_space");
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) Fail(name, "H5Sget_simple_extent_ndims");
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

bool IsInteger(hid_t dataset, size_t bytes, H5T_sign_t sign) {
  const Hdf5Handle type(H5Dget_type(dataset), H5Tclose);
  return type.valid() && H5Tget_class(type.get()) == H5T_INTEGER &&
         H5Tget_size(type.get()) == bytes && H5Tget_sign(type.get()) == sign;
}

// Visits records_0, (rows, side, side), in pieces of at most kBatchBytes: runs of whole
// samples, or runs of lines of one sample when a sample is larger, so the buffer stays
// small and cache-warm whatever the size.
struct Piece {
  hsize_t start[3];
  hsize_t count[3];
  uint64_t Bytes() const { return count[0] * count[1] * count[2]; }
  // Where the piece starts in the row-major array.
  uint64_t Offset(uint64_t side) const { return (start[0] * side + start[1]) * side; }
};
template <typename Visit>
void ForEachPiece(uint64_t rows, uint64_t side, Visit visit) {
  const uint64_t row_bytes = side * side;
  if (row_bytes == 0) return;
  if (row_bytes <= kBatchBytes) {
    const uint64_t batch_rows = kBatchBytes / row_bytes;
    for (uint64_t first = 0; first < rows; first += batch_rows)
      visit(Piece{{first, 0, 0}, {std::min(batch_rows, rows - first), side, side}});
    return;
  }
  const uint64_t batch_lines = std::max<uint64_t>(1, kBatchBytes / side);
  for (uint64_t row = 0; row < rows; ++row)
    for (uint64_t line = 0; line < side; line += batch_lines)
      visit(Piece{{row, line, 0}, {1, std::min(batch_lines, side - line), side}});
}

// Selects `piece` of `dataset` and transfers it to or from `buffer`.
herr_t Transfer(hid_t dataset, const Piece& piece, unsigned char* buffer, bool write) {
  const Hdf5Handle fspace(H5Dget_space(dataset), H5Sclose);
  const Hdf5Handle mspace(H5Screate_simple(3, piece.count, nullptr), H5Sclose);
  if (!fspace.valid() || !mspace.valid() ||
      H5Sselect_hyperslab(fspace.get(), H5S_SELECT_SET, piece.start, nullptr, piece.count,
                          nullptr) < 0)
    return -1;
  return write
             ? H5Dwrite(dataset, H5T_NATIVE_UINT8, mspace.get(), fspace.get(), H5P_DEFAULT, buffer)
             : H5Dread(dataset, H5T_NATIVE_UINT8, mspace.get(), fspace.get(), H5P_DEFAULT, buffer);
}

// Where row `r` of records_0 starts in the file: chunked, the chunk that holds its first
// bytes; contiguous, its own bytes.
uint64_t RowOffset(hid_t records, uint64_t r, uint64_t side, uint64_t contiguous_offset) {
  const Hdf5Handle dcpl(H5Dget_create_plist(records), H5Pclose);
  hsize_t chunk_dims[3] = {0, 0, 0};
  if (H5Pget_layout(dcpl.get()) == H5D_CHUNKED && H5Pget_chunk(dcpl.get(), 3, chunk_dims) == 3) {
    const hsize_t coord[3] = {r - r % chunk_dims[0], 0, 0};
    unsigned filter_mask = 0;
    haddr_t chunk = HADDR_UNDEF;
    hsize_t size = 0;
    if (H5Dget_chunk_info_by_coord(records, coord, &filter_mask, &chunk, &size) >= 0 &&
        chunk != HADDR_UNDEF)
      return chunk;
  }
  return contiguous_offset + r * side * side;
}

// Which row of a failed batch read fails, and where it starts (RowOffset).
std::pair<uint64_t, uint64_t> FirstBadRow(hid_t records, uint64_t first, uint64_t count,
                                          uint64_t side, uint64_t contiguous_offset) {
  std::vector<unsigned char> row(side * side);
  const hsize_t extent[3] = {1, side, side};
  const Hdf5Handle mspace(H5Screate_simple(3, extent, nullptr), H5Sclose);
  for (uint64_t r = first; r < first + count; ++r) {
    const hsize_t start[3] = {r, 0, 0};
    const Hdf5Handle fspace(H5Dget_space(records), H5Sclose);
    H5Sselect_hyperslab(fspace.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr);
    if (H5Dread(records, H5T_NATIVE_UINT8, mspace.get(), fspace.get(), H5P_DEFAULT, row.data()) < 0)
      return {r, RowOffset(records, r, side, contiguous_offset)};
  }
  return {first, RowOffset(records, first, side, contiguous_offset)};
}

}  // namespace

WrittenFile Hdf5Format::Write(const FileSpec& spec, storage::Storage& storage) const {
  const uint64_t rows = spec.sample_sizes.size();
  const uint64_t side = DlioArrayShape(spec)[0];
  const uint64_t row_bytes = side * side;
  const std::string& name = spec.path;
  const bool chunked = layout_.chunked || layout_.gzip_level >= 0;
  WrittenFile written{spec.path, 0, rows, {}, {}};
  // Not a vector: its zero-fill would touch every page once more before HDF5 copies in.
  std::unique_ptr<unsigned char[]> image;
  size_t image_bytes = 0;
  std::vector<unsigned char> batch(std::min<uint64_t>(rows * row_bytes, kBatchBytes));

  Hdf5Handle file, records;
  {
    Hdf5Lock lock;
    const Hdf5Handle fapl = Check(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, name, "H5Pcreate");
    // Grow the in-memory image in one step when the size is known (uncompressed).
    const size_t increment = static_cast<size_t>(
        std::clamp<uint64_t>(rows * row_bytes + (1 << 20), 1 << 20, uint64_t{1} << 32));
    Check(H5Pset_fapl_core(fapl.get(), increment, 0), name, "H5Pset_fapl_core");
    // The name only identifies the open file to HDF5 (nothing is written under it).
    // No modification times in object headers: same seed, same bytes.
    const Hdf5Handle fcpl = Check(H5Pcreate(H5P_FILE_CREATE), H5Pclose, name, "H5Pcreate");
    Check(H5Pset_obj_track_times(fcpl.get(), 0), name, "H5Pset_obj_track_times");
    file = Check(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()), H5Fclose, name,
                 "creating the in-memory file");
    // DLIO's shape: samples on the first axis, each a side x side image (h5py reads
    // records_0[i]).
    const hsize_t dims[3] = {rows, side, side};
    const Hdf5Handle space = Check(H5Screate_simple(3, dims, nullptr), H5Sclose, name, "dataspace");
    const Hdf5Handle dcpl = Check(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, name, "H5Pcreate");
    Check(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), name, "H5Pset_fill_time");
    Check(H5Pset_obj_track_times(dcpl.get(), 0), name, "H5Pset_obj_track_times");
    if (chunked && rows > 0 && row_bytes > 0) {
      const auto chunk = ChunkDims(layout_, rows, side);
      Check(H5Pset_chunk(dcpl.get(), 3, chunk.data()), name, "H5Pset_chunk");
      if (layout_.gzip_level >= 0)
        Check(H5Pset_deflate(dcpl.get(), static_cast<unsigned>(std::min(layout_.gzip_level, 9))),
              name, "H5Pset_deflate");
    }
    records = Check(H5Dcreate2(file.get(), kRecords, H5T_NATIVE_UINT8, space.get(), H5P_DEFAULT,
                               dcpl.get(), H5P_DEFAULT),
                    H5Dclose, name, "creating records_0");
    // DLIO 2.0.0 reads h5['records'], upstream h5['records_0']: a hard link costs one entry
    // in the root group (no bytes of data), and h5py opens the same dataset by either name.
    Check(H5Lcreate_hard(file.get(), kRecords, file.get(), kDlioRecords, H5P_DEFAULT, H5P_DEFAULT),
          name, "linking records to records_0");
    const unsigned long seed = spec.seed;  // NOLINT(runtime/int): H5LT's type
    Check(H5LTset_attribute_ulong(records.get(), ".", kSeedAttribute, &seed, 1), name,
          "writing records_0's seed");
  }
  ForEachPiece(rows, side, [&](const Piece& piece) {
    if (InterruptRequested()) throw Interrupted();
    FillRandom(spec.seed, piece.Offset(side), batch.data(), piece.Bytes());
    Hdf5Lock lock;
    if (Transfer(records.get(), piece, batch.data(), true) < 0) Fail(name, "writing records_0");
  });
  batch = {};
  {
    Hdf5Lock lock;
    const std::vector<int64_t> labels(rows, 0);
    const hsize_t label_dims[1] = {rows};
    const Hdf5Handle space =
        Check(H5Screate_simple(1, label_dims, nullptr), H5Sclose, name, "dataspace");
    const Hdf5Handle dcpl = Check(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, name, "H5Pcreate");
    Check(H5Pset_obj_track_times(dcpl.get(), 0), name, "H5Pset_obj_track_times");
    const Hdf5Handle dataset = Check(H5Dcreate2(file.get(), kLabels, H5T_STD_I64LE, space.get(),
                                                H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                                     H5Dclose, name, "creating labels");
    if (rows > 0)
      Check(H5Dwrite(dataset.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, labels.data()),
            name, "writing labels");
    Check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), name, "H5Fflush");
    if (const auto extents = RecordExtents(records.get(), name)) written.samples = *extents;
    const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
    if (size < 0) Fail(name, "H5Fget_file_image");
    image_bytes = static_cast<size_t>(size);
    image.reset(new unsigned char[image_bytes]);
    if (H5Fget_file_image(file.get(), image.get(), image_bytes) != size)
      Fail(name, "H5Fget_file_image");
    records.Reset();
    file.Reset();
  }
  auto out = storage.Create(spec.path);
  out->Append(image.get(), image_bytes);
  written.size_bytes = image_bytes;
  out->Commit();
  return written;
}

void Hdf5Format::Verify(const WrittenFile& expected, storage::Storage& storage) const {
  const std::string name = storage.Describe(expected.path);
  const auto size = storage.FileSize(expected.path).value_or(0);
  CheckSize(kHdf5Kind, name, size, expected);
  Hdf5Lock lock;
  OpenFile open;
  Open(expected.path, storage, name, &open);
  const Hdf5Handle records =
      Check(H5Dopen2(open.file.get(), kRecords, H5P_DEFAULT), H5Dclose, name, "opening records_0");
  if (!SameObject(open.file.get(), kRecords, kDlioRecords))
    ThrowBadFile(kHdf5Kind, name, 0,
                 "records is not a hard link to records_0 (DLIO 2.0.0 reads 'records')");
  const auto dims = Dims(records.get(), name);
  const uint64_t offset =
      H5Dget_offset(records.get()) == HADDR_UNDEF ? 0 : H5Dget_offset(records.get());
  if (dims.size() != 3 || dims[0] != expected.num_samples || dims[1] != dims[2] ||
      !IsInteger(records.get(), 1, H5T_SGN_NONE))
    ThrowBadFile(kHdf5Kind, name, offset,
                 fmt::format("records_0 is not uint8 ({}, side, side) as DLIO writes it",
                             expected.num_samples));
  const Hdf5Handle labels =
      Check(H5Dopen2(open.file.get(), kLabels, H5P_DEFAULT), H5Dclose, name, "opening labels");
  if (Dims(labels.get(), name) != std::vector<hsize_t>{expected.num_samples} ||
      !IsInteger(labels.get(), 8, H5T_SGN_2))
    ThrowBadFile(kHdf5Kind, name, 0,
                 fmt::format("labels is not int64 ({},)", expected.num_samples));

  const Hdf5Handle dcpl = Check(H5Dget_create_plist(records.get()), H5Pclose, name, "plist");
  const bool chunked = H5Pget_layout(dcpl.get()) == H5D_CHUNKED;
  const bool want_chunked =
      (layout_.chunked || layout_.gzip_level >= 0) && dims[0] > 0 && dims[1] > 0;
  if (chunked != want_chunked)
    ThrowBadFile(
        kHdf5Kind, name, offset,
        fmt::format("records_0 is {}, the config asks for {}", chunked ? "chunked" : "contiguous",
                    want_chunked ? "chunks" : "contiguous storage"));
  const bool deflated = chunked && H5Pget_nfilters(dcpl.get()) > 0;
  if (deflated != (want_chunked && layout_.gzip_level >= 0))
    ThrowBadFile(kHdf5Kind, name, offset,
                 deflated ? "records_0 is compressed, the config says not"
                          : "records_0 is not compressed, the config says gzip");

  const auto extents = RecordExtents(records.get(), name);
  if (extents.has_value() != !expected.samples.empty() && expected.num_samples > 0)
    ThrowBadFile(kHdf5Kind, name, offset, "sample extents are not what the manifest records");
  if (extents) CheckSampleExtents(kHdf5Kind, name, *extents, expected);

  unsigned long seed = 0;  // NOLINT(runtime/int): H5LT's type
  if (H5Aexists(records.get(), kSeedAttribute) <= 0 ||
      H5LTget_attribute_ulong(records.get(), ".", kSeedAttribute, &seed) < 0)
    ThrowBadFile(kHdf5Kind, name, offset,
                 "records_0 has no trainbench_seed attribute: not a file this trainbench wrote "
                 "(run `trainbench datagen ... --replace` to rewrite the dataset)");

  // Reading every row decodes every chunk: a damaged compressed chunk fails here; then
  // every byte is compared with the generator's.
  const uint64_t side = dims[1];
  const uint64_t row_bytes = side * side;
  std::vector<unsigned char> batch(std::min<uint64_t>(dims[0] * row_bytes, kBatchBytes));
  std::vector<unsigned char> want(batch.size());
  ForEachPiece(dims[0], side, [&](const Piece& piece) {
    if (Transfer(records.get(), piece, batch.data(), false) < 0) {
      const std::string error = Hdf5LastError();
      const auto [row, at] =
          FirstBadRow(records.get(), piece.start[0], piece.count[0], side, offset);
      ThrowBadFile(kHdf5Kind, name, at,
                   fmt::format("row {} of records_0 does not read: {}", row, error));
    }
    const uint64_t first = piece.Offset(side);
    FillRandom(seed, first, want.data(), piece.Bytes());
    const auto end = batch.begin() + static_cast<std::ptrdiff_t>(piece.Bytes());
    const auto [a, b] = std::mismatch(batch.begin(), end, want.begin());
    if (a == end) return;
    const uint64_t at = first + static_cast<uint64_t>(a - batch.begin());
    const uint64_t row = at / row_bytes;
    // Where a sample has its own byte range, the byte's own offset; else its chunk's.
    const uint64_t where = extents && row < extents->size()
                               ? (*extents)[row].offset + at % row_bytes
                               : RowOffset(records.get(), row, side, offset);
    ThrowBadFile(
        kHdf5Kind, name, where,
        fmt::format("row {} of records_0 differs from the generator's (seed {})", row, seed));
  });
}

WrittenFile Hdf5Format::Scan(const std::string& path, storage::Storage& storage) const {
  const std::string name = storage.Describe(path);
  WrittenFile scanned{path, storage.FileSize(path).value_or(0), 0, {}, {}};
  Hdf5Lock lock;
  OpenFile open;
  Open(path, storage, name, &open);
  // records_0 first: in datagen's files `records` is the same dataset by a second name,
  // so one file is one set of samples whichever names it has.
  const char* dataset_name = H5Lexists(open.file.get(), kRecords, H5P_DEFAULT) > 0 ? kRecords
                             : H5Lexists(open.file.get(), kDlioRecords, H5P_DEFAULT) > 0
                                 ? kDlioRecords
                                 : nullptr;
  if (!dataset_name) ThrowBadFile(kHdf5Kind, name, 0, "no records_0 or records dataset");
  const Hdf5Handle records = Check(H5Dopen2(open.file.get(), dataset_name, H5P_DEFAULT), H5Dclose,
                                   name, fmt::format("opening {}", dataset_name));
  const auto dims = Dims(records.get(), name);
  scanned.num_samples = dims.empty() ? 1 : dims[0];
  if (auto extents = RecordExtents(records.get(), name)) {
    scanned.samples = std::move(*extents);
  } else if (!dims.empty()) {
    // No single byte range per sample (compressed, or chunks that split samples): libhdf5
    // reads the sample, so its extent is its place in the uncompressed dataset, which has
    // the sample's length: an epoch accounts the bytes it reads.
    const Hdf5Handle type = Check(H5Dget_type(records.get()), H5Tclose, name, "H5Dget_type");
    uint64_t sample_bytes = H5Tget_size(type.get());
    for (size_t i = 1; i < dims.size(); ++i) sample_bytes *= dims[i];
    scanned.samples = RowExtents(0, dims[0], sample_bytes);
    scanned.extents_are_bytes = false;
  }
  return scanned;
}

namespace {
// The `records` link is part of the layout: datasets written before it lack the key, which
// run does not compare (it reads them), while datagen does not add linked files to them
// (DLIO 2.0.0 would read some files of the dataset and fail on the others).
void Hdf5LayoutKey(const config::WorkloadConfig&, nlohmann::json& key) {
  key["hdf5_records"] = "records_0+records";
}
}  // namespace

const FormatDescription& Hdf5Description() {
  static const FormatDescription description{
      .name = "hdf5",
      .extensions = {"hdf5", "h5"},
      .traits = {.uniform_sample_size = true, .square_samples = true, .scan_finds_extents = true},
      .help =
          "HDF5: records_0 (also linked as records), uint8 (samples, side, side), and labels; "
          "dataset.enable_chunking, gzip compression",
      .check =
          [](const config::WorkloadConfig& config) {
            const auto& d = config.dataset;
            if (d.enable_chunking && d.chunk_size == 0)
              throw UsageError(
                  "dataset.enable_chunking is true but dataset.chunk_size is 0; set "
                  "dataset.chunk_size=BYTES");
            if (d.compression != config::Compression::kNone &&
                d.compression != config::Compression::kGzip)
              throw UsageError(fmt::format(
                  "dataset.compression {} is not available for hdf5 (HDF5's C library has gzip "
                  "built in, not h5py's other filters); use gzip or none",
                  config::ToString(d.compression)));
          },
      .make = [](const config::WorkloadConfig& config) -> std::unique_ptr<FileFormat> {
        const auto& d = config.dataset;
        const bool gzip = d.compression == config::Compression::kGzip;
        return std::make_unique<Hdf5Format>(Hdf5Layout{
            d.enable_chunking, d.chunk_size, gzip ? static_cast<int>(d.compression_level) : -1});
      },
      .layout_key = Hdf5LayoutKey,
      .open_reader = OpenHdf5SampleReader,
  };
  return description;
}

const FormatDescription& Hdf5Format::description() const { return Hdf5Description(); }

}  // namespace trainbench::formats

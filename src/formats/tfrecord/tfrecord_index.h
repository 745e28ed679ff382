// The index DLIO writes beside a TFRecord dataset for DALI's TFRecord reader:
// "<data_folder>/index/<split>/<file name>.idx", one text line "<offset> <length>" per
// record (length with the framing), split being "train" or "valid" whatever subfolder the
// file is in. trainbench writes it as a companion of each TFRecord file so that DLIO with
// DALI reads trainbench's datasets. Pure functions over Storage; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "formats/format.h"
#include "storage/storage.h"

namespace trainbench::formats {

// "train/3/img_1_of_8.tfrecord" -> "index/train/img_1_of_8.tfrecord.idx".
std::string TfrecordIndexPath(const std::string& data_path);

// Writes (commits whole) the index of the records at `extents`.
void WriteTfrecordIndex(storage::Storage& storage, const std::string& index_path,
                        const std::vector<SampleExtent>& extents);

// Throws RuntimeError naming the index file and the first line that differs from `extents`.
void CheckTfrecordIndex(storage::Storage& storage, const std::string& index_path,
                        const std::vector<SampleExtent>& extents);

}  // namespace trainbench::formats

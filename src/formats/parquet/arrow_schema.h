// The Arrow schema pyarrow keeps in a Parquet file's key_value_metadata ("ARROW:schema":
// base64 of an Arrow IPC Schema message, a flatbuffer), written for trainbench's columns
// as pyarrow writes it for DLIO's table: a fixed-size list is Parquet's LIST plus this
// note, without which pyarrow reads the column back as a variable-size list<element>.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "formats/parquet/parquet_columns.h"

namespace trainbench::formats::parquet {

constexpr char kArrowSchemaKey[] = "ARROW:schema";

// The base64 text: each column a nullable field of the dtype's Arrow type, or for size > 1
// a nullable fixed_size_list<item: type>[size].
std::string ArrowSchema(const std::vector<ColumnLayout>& columns);

}  // namespace trainbench::formats::parquet

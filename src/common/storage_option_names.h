// The names DLIO's storage.storage_options map may hold (the S3 settings trainbench reads):
// checked where the config is read and where S3 options are resolved (stage's --s3-option),
// so a typo (endpont_url) is an error, not a request sent to AWS instead.
#pragma once

#include <string>
#include <vector>

namespace trainbench {

const std::vector<std::string>& StorageOptionNames();

// "" for a known name; else what is wrong, with the nearest known name.
std::string UnknownStorageOption(const std::string& name);

}  // namespace trainbench

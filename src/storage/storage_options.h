// The names DLIO's storage.storage_options map and the jobs' --s3-option may hold: the S3
// backend's options, whose table (each name with how its value is read) is
// s3/s3_options.cc's, as fio's engines own theirs. The jobs above storage/ check names here
// where a workload loads (app/workload_load.cc) and where a job takes --s3-option, so a typo
// (endpont_url) is an error before any work, not a request sent to AWS instead.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace trainbench::storage {

// Every name, in the table's order ("endpoint" is DLIO's older spelling of endpoint_url).
const std::vector<std::string>& StorageOptionNames();

// "" for a known name; else what is wrong, with the nearest known name and the list.
std::string UnknownStorageOption(const std::string& name);

// Throws UsageError("SOURCE unknown option ...") for the first unknown name of `options`;
// `source` names where they came from ("--s3-option").
void CheckStorageOptionNames(const std::map<std::string, std::string>& options,
                             const std::string& source);

}  // namespace trainbench::storage

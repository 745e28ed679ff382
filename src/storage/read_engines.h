// The read engines trainbench knows, by name, for --io-engine and its help, in the
// manner of fio's engine list. Which one a storage can serve is the storage's call
// (Storage::OpenReadEngine); this is the one list of names and what each does.
#pragma once

#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::storage {

struct ReadEngineDescription {
  const char* name;
  const char* help;
};

const std::vector<ReadEngineDescription>& KnownReadEngines();

// Opens the engine `options.engine` names (the storage's default when empty); a
// UsageError names the engine and what the storage offers when it cannot.
// Refuses (UsageError naming the engines that work there) an --io-engine `engine` that
// `storage` cannot open; "" (its default) passes. Checked before a job's work.
void CheckReadEngine(const Storage& storage, const std::string& engine);

std::unique_ptr<ReadEngine> OpenReadEngine(Storage& storage, SharedObjectNames objects,
                                           const ReadEngineOptions& options);

}  // namespace trainbench::storage

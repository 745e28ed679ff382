// A stage's checks of what it fetched against what each object must hash to
// (expected_checksum.h): an object's bytes hashed as the range fetcher hands them over in
// order, and whole files hashed where no bytes are handed over (an object already in DEST, an
// empty one, a repaired part file). All of it counted as the time account's verify share.
// Not thread-safe: the stage's loop thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "stage/checksum.h"
#include "stage/expected_checksum.h"
#include "stage/range_fetcher.h"
#include "stage/stage_account.h"

namespace trainbench::stage {

// The digest of `kind` of the file at `path`, `size` bytes. Throws IoError naming it.
std::string HashPath(PhaseClock& clock, const std::string& path, uint64_t size, HashKind kind);
// The digest of `kind` of item's part file (open), the object's `size` bytes.
std::string HashPartFile(PhaseClock& clock, const FetchItem& item, HashKind kind);
// An object's next bytes, at `offset`, handed over in order: fed to e's hasher, whose digest
// is taken at the object's last byte (`object_size`).
void HashInOrder(PhaseClock& clock, Expected& e, uint64_t object_size, uint64_t offset,
                 const unsigned char* data, size_t size);
// Whether item's bytes hash to e's checksum (true when none is known); an object none of
// whose bytes were handed over (an empty one) is hashed from its part file.
bool MatchesExpected(PhaseClock& clock, Expected& e, const FetchItem& item);

}  // namespace trainbench::stage

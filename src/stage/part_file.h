// An object's part file, DEST/NAME.part: opened only when its turn comes (a stage of a
// million objects holds descriptors only for those in flight), and put into place under its
// final name, DEST/NAME, only once whole and verified, so a final name never holds bytes that
// were not checked. Not thread-safe.
#pragma once

#include <vector>

#include "stage/range_fetcher.h"
#include "stage/range_journal.h"
#include "stage/stage_account.h"

namespace trainbench::stage {

// Opens item's part file (`truncate`: a fresh one sized to the object, an old one's bytes
// dropped). Throws IoError naming it.
void OpenPart(FetchItem& item, bool truncate);
void ClosePart(FetchItem& item);

// Closes every item's part file as it leaves scope, a throw included.
class PartFilesCloser {
 public:
  explicit PartFilesCloser(std::vector<FetchItem>& items) : items_(items) {}
  ~PartFilesCloser();
  PartFilesCloser(const PartFilesCloser&) = delete;
  PartFilesCloser& operator=(const PartFilesCloser&) = delete;

 private:
  std::vector<FetchItem>& items_;
};

// The object is whole and verified: its part file flushed to disk and put into place under
// its final name (its folder flushed too, so the name stays after a crash), closed, its
// journal removed, and the object counted as staged. Throws IoError naming the files.
void PublishStaged(FetchItem& item, RangeJournal& journal, ObjectResult& r);

}  // namespace trainbench::stage

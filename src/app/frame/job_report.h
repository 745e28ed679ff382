// How every job ends, the same for each: what it shows (cli/ prints it one way) and where its
// results went. Plain data.
#pragma once

#include <string>

namespace trainbench::app {

struct WrittenResults {
  std::string folder;  // where they went ("" when they could not be written)
  std::string error;   // why not ("" when written)
};

// How every job ends on the terminal, the same for each (cli/ prints it one way): its text
// (tables and lines), where its results went, the final JSON line, and its exit status.
// Jobs with more to say derive from it.
struct JobReport {
  bool reports = false;  // this rank shows the end (rank 0 of a job of many ranks)
  std::string text;      // printed first, after the job's own progress
  WrittenResults results;
  std::string line;   // the final JSON line ("" when nothing was measured)
  int exit_code = 0;  // 0, 1 (failed), 2 (usage), 130 (interrupted)
  std::string error;  // why exit_code is not 0, when the text does not say it
};

}  // namespace trainbench::app

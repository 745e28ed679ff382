// A job's work on a thread of its own while the job's thread shows its status: the status
// line is redrawn every 0.1 s until the work ends or Ctrl-C is asked (the work sees the
// interrupt and stops itself), then the worker is joined and what it threw is rethrown on
// the job's thread (an exception left in a worker thread would end the process).
// Used by the jobs whose workers run for a duration or a log's length (replay, sai3-bench).
#pragma once

#include <functional>
#include <string>

#include "common/live_display.h"

namespace trainbench::app {

void RunShowingStatus(const std::function<void()>& work, const std::function<std::string()>& status,
                      LiveDisplay& display);

}  // namespace trainbench::app

// A job's work on the job's thread while a StatusTicker redraws its status line every 0.1 s
// (common/status_ticker.h) until the work ends, returns or throws; the work sees Ctrl-C and
// stops itself. The line is erased at the end, for the job's summary. Used by the jobs whose
// workers run for a duration or a log's length (replay, sai3-bench).
#pragma once

#include <functional>
#include <string>

#include "common/live_display.h"

namespace trainbench::app {

void RunShowingStatus(const std::function<void()>& work, const std::function<std::string()>& status,
                      LiveDisplay& display);

}  // namespace trainbench::app

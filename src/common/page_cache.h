// Empties this host's page cache (dirty pages written first), as fio's invalidate and
// MLPerf Storage's runs between phases do, so a run reads from storage, not memory.
// Needs root. Thread-safe (the kernel serialises it).
#pragma once

namespace trainbench {

// Throws RuntimeError naming /proc/sys/vm/drop_caches and what to do when it cannot.
void DropPageCache();

}  // namespace trainbench

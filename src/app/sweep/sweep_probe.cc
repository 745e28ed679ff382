#include "app/sweep/sweep_probe.h"

#include "common/error.h"

namespace trainbench::app {

ProbeRun RunProbe(RunJobOptions run, JobEnv& env, std::unique_ptr<ResultsSink> sink) {
  run.progress = false;
  JobEnv probe_env{env.ranks, env.open_storage, sink.get(), env.check_local_folders};
  RunOutcome run_out = RunJob(run, probe_env);
  ProbeRun out;
  out.summary = std::move(run_out.summary);
  out.folder = run_out.results.folder;
  out.code = run_out.exit_code;
  return out;
}

int StoppedSweepExitCode(int run_code) {
  const auto interrupted = static_cast<int>(ExitCode::kInterrupted);
  return run_code == interrupted ? interrupted : static_cast<int>(ExitCode::kRuntime);
}

}  // namespace trainbench::app

// The ranks of a job: one process alone, or the processes that mpirun (or Slurm's srun)
// started, talking through Open MPI. The emulation and datagen see only this interface.
//
// Two channels, so that a rank that stops early never leaves the others in a mismatched
// collective: the step channel carries the per-step all-reduce and the phase barriers,
// always non-blocking and polled by the event loop; the control channel carries the
// start-up exchange, failure notices (point-to-point, probed while anything waits) and
// the gathering of results. Once a rank has reported a failure the step channel is given
// up, and only the control channel's point-to-point messages are used.
// Thread safety: each communicator is called by one thread (the event loop); Duplicate()
// gives another thread its own.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace trainbench::dist {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int Rank() const = 0;
  virtual int Size() const = 0;
  // This rank's host name, as the host reports it.
  virtual const std::string& Host() const = 0;

  // Every rank's `mine`, in rank order, at every rank (blocking: start-up exchanges).
  virtual std::vector<std::string> AllGather(const std::string& mine) = 0;
  // Every rank's `mine`, in rank order, at rank 0; empty elsewhere (blocking).
  virtual std::vector<std::string> Gather(const std::string& mine) = 0;

  // Begins an all-reduce (maximum) of `value` over the ranks; StepDone polls it and, once
  // every rank joined, returns true and sets `max`. One at a time.
  virtual void StartStep(double value) = 0;
  virtual bool StepDone(double& max) = 0;
  // A blocking barrier that keeps looking for failures and Ctrl-C while it waits: false
  // when a peer failed or this process was interrupted (the job is then ending).
  virtual bool Barrier() = 0;

  // Tells every other rank that this one stopped (its reason); non-blocking.
  virtual void ReportFailure(const std::string& reason) = 0;
  // The first failure another rank reported ("rank 2 (hostb): reason"), once seen.
  virtual std::optional<std::string> PeerFailure() = 0;

  // A communicator of the same ranks whose messages never meet this one's, for a job that
  // runs on a thread of its own beside others (a mix's). Collective: every rank calls it, in
  // the same order, before the threads start. Throws RuntimeError where MPI cannot serve
  // several threads (no MPI_THREAD_MULTIPLE).
  virtual std::unique_ptr<Communicator> Duplicate() = 0;
};

// The job's communicator: Open MPI's when the process was started by mpirun or srun
// (and trainbench was built with MPI), else a single rank. Created on first use and shut
// down at exit.
Communicator& World();
// Before World() is first called: its ranks will serve several threads, each with its own
// Duplicate() (a mix's jobs), so MPI is started with MPI_THREAD_MULTIPLE. Other jobs keep
// MPI_THREAD_FUNNELED, which costs no locking.
void WorldServesThreads();
// Whether this process was started as one of several ranks (MPI launch environment).
bool LaunchedByMpi();
// Ends every rank of the job at once with `code`, after this rank printed its error.
// Returns normally when there is one rank or World() was never called.
void AbortJob(int code);

}  // namespace trainbench::dist

// The archive's bytes handed from the thread that has them (the feeder: Feed, Finish) to
// libarchive, which pulls them on a worker thread of its own (Take). Each chunk is taken in
// place (no copy), and Feed returns once the reader asks for the next bytes (it is done with
// these) or has ended, so the feeder and the reader never run at once.
// Thread-safe: one feeder thread, one reader thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>

namespace trainbench::stage {

class TarHandOff {
 public:
  // Feeder: the next `size` bytes, held by the reader until it asks for more. Rethrows the
  // reader's error once it has ended with one; after its end, bytes are dropped (tar's
  // record padding).
  void Feed(const char* data, size_t size);
  // Feeder: the input ended; waits for the reader to end, and rethrows its error.
  void Finish();
  // The reader is to stop: its Take returns false from now on.
  void Abort();

  // Reader: gives back the chunk it held and waits for the next, put in `*data` and `*size`
  // (0 at the end of the input). False: stop (Abort).
  bool Take(const char** data, size_t* size);
  // Reader: it has ended (with `error`, if it failed); the feeder's wait ends.
  void End(std::exception_ptr error);

 private:
  void ThrowIfFailed();  // under mutex_

  std::mutex mutex_;
  std::condition_variable changed_;
  const char* chunk_ = nullptr;
  size_t chunk_size_ = 0;
  bool chunk_waiting_ = false;  // Feed put a chunk up; Take has not taken it
  bool chunk_held_ = false;     // libarchive may still read the chunk Take gave it
  bool end_of_input_ = false;
  bool abort_ = false;
  bool done_ = false;  // the reader has ended
  std::exception_ptr error_;
};

}  // namespace trainbench::stage

#include "stage/tar/tar_hand_off.h"

namespace trainbench::stage {

void TarHandOff::Feed(const char* data, size_t size) {
  std::unique_lock lock(mutex_);
  // Nothing to hand over (libarchive reads a read of 0 bytes as the end), or the archive
  // ended: what follows is tar's record padding.
  if (size == 0 || done_) return ThrowIfFailed();
  chunk_ = data;
  chunk_size_ = size;
  chunk_waiting_ = true;
  changed_.notify_all();
  // Back when libarchive asks for the next bytes (it is done with these) or ends.
  changed_.wait(lock, [&] { return (!chunk_waiting_ && !chunk_held_) || done_; });
  ThrowIfFailed();
}

void TarHandOff::Finish() {
  std::unique_lock lock(mutex_);
  end_of_input_ = true;
  changed_.notify_all();
  changed_.wait(lock, [&] { return done_; });
  ThrowIfFailed();
}

void TarHandOff::Abort() {
  {
    std::lock_guard lock(mutex_);
    abort_ = true;
  }
  changed_.notify_all();
}

bool TarHandOff::Take(const char** data, size_t* size) {
  std::unique_lock lock(mutex_);
  chunk_held_ = false;
  changed_.notify_all();
  changed_.wait(lock, [&] { return chunk_waiting_ || end_of_input_ || abort_; });
  if (abort_) return false;
  if (!chunk_waiting_) {  // end of input
    *size = 0;
    return true;
  }
  chunk_waiting_ = false;
  chunk_held_ = true;
  *data = chunk_;
  *size = chunk_size_;
  return true;
}

void TarHandOff::End(std::exception_ptr error) {
  std::lock_guard lock(mutex_);
  error_ = error;
  done_ = true;
  chunk_held_ = false;
  changed_.notify_all();
}

void TarHandOff::ThrowIfFailed() {
  if (error_) std::rethrow_exception(error_);
}

}  // namespace trainbench::stage

// Owning handles for HDF5 identifiers (closed with the right H5?close, under the lock, on
// scope exit), and the lock every HDF5 call in trainbench takes. Debian's serial HDF5 is built
// thread-safe, but it serializes callers on one global lock anyway; taking our own keeps
// the formats correct with a non-thread-safe build and lets callers generate data
// outside it. Handles are not thread-safe; the lock is.
#pragma once

#include <hdf5.h>

#include <mutex>
#include <string>
#include <utility>

namespace trainbench::formats {

class Hdf5Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Hdf5Handle() = default;
  Hdf5Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Hdf5Handle(Hdf5Handle&& other) noexcept
      : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}
  Hdf5Handle& operator=(Hdf5Handle&& other) noexcept {
    Reset();
    id_ = std::exchange(other.id_, H5I_INVALID_HID);
    closer_ = other.closer_;
    return *this;
  }
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  ~Hdf5Handle() { Reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void Reset();

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

// Holds the HDF5 lock and silences HDF5's own error printing (errors become exceptions
// with trainbench's message instead of a stack dump on stderr). Recursive, so that a
// handle can close under it however it goes out of scope.
class Hdf5Lock {
 public:
  Hdf5Lock();

 private:
  std::unique_lock<std::recursive_mutex> lock_;
};

// HDF5's innermost error message for the calling thread, for RuntimeError text.
std::string Hdf5LastError();

}  // namespace trainbench::formats

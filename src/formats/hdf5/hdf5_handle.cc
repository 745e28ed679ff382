#include "formats/hdf5/hdf5_handle.h"

namespace trainbench::formats {
namespace {
std::recursive_mutex hdf5_mutex;

herr_t KeepInnermost(unsigned, const H5E_error2_t* error, void* data) {
  if (error->desc) *static_cast<std::string*>(data) = error->desc;
  return 0;
}
}  // namespace

void Hdf5Handle::Reset() {
  if (id_ >= 0 && closer_) {
    Hdf5Lock lock;
    closer_(id_);
  }
  id_ = H5I_INVALID_HID;
}

Hdf5Lock::Hdf5Lock() : lock_(hdf5_mutex) { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

std::string Hdf5LastError() {
  std::string message = "unknown HDF5 error";
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, KeepInnermost, &message);
  return message;
}

}  // namespace trainbench::formats

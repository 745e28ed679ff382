// Which file system holds a path, as the kernel mounted it for this process
// (/proc/self/mountinfo): its type (ext4, nfs4, lustre, fuse.ceph-fuse, tmpfs, ...), its
// source (a device, server:/export, ceph-fuse) and where it is mounted. A run's results name
// it per host, so a dataset on each host's local disk at the same path is seen for what it
// is. Thread-safe.
#pragma once

#include <optional>
#include <string>

namespace trainbench::storage {

struct MountInfo {
  std::string fs_type;
  std::string source;
  std::string mount_point;
};

// The mount that holds `path` (or its nearest existing parent); nothing where /proc cannot
// be read.
std::optional<MountInfo> MountOf(const std::string& path);

// A file system whose files other hosts can see (NFS, Lustre, GPFS, CephFS, WEKA, BeeGFS,
// SMB, GlusterFS, any FUSE client of those): false for a local disk, tmpfs or overlay.
bool IsNetworkFileSystem(const std::string& fs_type);

}  // namespace trainbench::storage

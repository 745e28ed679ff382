#include "storage/mount_info.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace trainbench::storage {
namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string Unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      const std::string digits = text.substr(i + 1, 3);
      if (digits.size() == 3 && digits.find_first_not_of("01234567") == std::string::npos) {
        out.push_back(static_cast<char>(std::stoi(digits, nullptr, 8)));
        i += 3;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

// `inner` is `outer` or below it, by whole path components.
bool Within(const std::string& inner, const std::string& outer) {
  if (outer == "/") return true;
  return inner == outer ||
         (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
          inner[outer.size()] == '/');
}

}  // namespace

std::optional<MountInfo> MountOf(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path existing = fs::absolute(path, ec);
  while (!existing.empty() && !fs::exists(existing, ec) && existing != existing.root_path())
    existing = existing.parent_path();
  const std::string resolved = fs::canonical(existing, ec).string();
  if (ec || resolved.empty()) return std::nullopt;
  std::ifstream in("/proc/self/mountinfo");
  if (!in) return std::nullopt;
  std::optional<MountInfo> best;
  std::string line;
  // The last mount of the longest mount point that holds the path is the one it is on.
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::array<std::string, 5> head;
    for (auto& f : head) fields >> f;
    const std::string mount_point = Unescape(head[4]);
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos || !Within(resolved, mount_point)) continue;
    std::istringstream tail(line.substr(dash + 3));
    MountInfo m;
    tail >> m.fs_type >> m.source;
    m.source = Unescape(m.source);
    m.mount_point = mount_point;
    if (!best || mount_point.size() >= best->mount_point.size()) best = m;
  }
  return best;
}

bool IsNetworkFileSystem(const std::string& fs_type) {
  static constexpr std::array<std::string_view, 16> kNetwork = {
      "nfs",    "nfs4",   "lustre", "ceph", "gpfs",  "cifs",     "smb3",  "glusterfs",
      "beegfs", "wekafs", "9p",     "afs",  "pvfs2", "orangefs", "panfs", "virtiofs"};
  for (const auto name : kNetwork)
    if (fs_type == name) return true;
  // FUSE clients name themselves: fuse.ceph-fuse, fuse.glusterfs, fuse.s3fs, fuse.sshfs...
  return fs_type.rfind("fuse.", 0) == 0 && fs_type != "fuse.lxcfs";
}

}  // namespace trainbench::storage

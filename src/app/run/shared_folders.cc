#include "app/run/shared_folders.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <optional>
#include <random>
#include <set>

#include "common/error.h"
#include "common/json_fields.h"
#include "common/log.h"
#include "dist/typed_gather.h"
#include "storage/mount_info.h"

namespace trainbench::app {
namespace {

// Rank 0's probe in `folder`: its name, or "" where the folder cannot be written (a read-only
// dataset), where the probe cannot tell.
std::string WriteProbe(const std::string& folder, const std::string& host) {
  std::random_device random;
  const std::string name =
      fmt::format(".trainbench.probe.{}.{}.{:08x}", host, ::getpid(), random());
  const int fd =
      ::open((folder + "/" + name).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return "";
  ::close(fd);
  return name;
}

// What a host sees at the folder's path: its file system (where the mount is known), and
// whether rank 0's probe is there (null: there was none to look for). A row of the summary's
// `filesystems`.
struct FolderView {
  std::string host;
  std::optional<std::string> fs_type, source, mount_point;
  std::optional<bool> network;
  Nullable<bool> sees_probe;
};
TB_JSON_FIELDS(FolderView, host, fs_type, source, mount_point, network, sees_probe)

std::string Seen(const FolderView& view) {
  return fmt::format("{} sees {} ({}) mounted at {}", view.host, view.fs_type.value_or("?"),
                     view.source.value_or("?"), view.mount_point.value_or("?"));
}

}  // namespace

nlohmann::json CheckSharedFolder(dist::Communicator& ranks, storage::Storage& folder,
                                 const std::string& key) {
  const auto local = folder.LocalPath("");
  if (!local) return nullptr;  // S3: every host reads the one bucket
  const auto hosts_text = ranks.AllGather(ranks.Host());
  const std::set<std::string> hosts(hosts_text.begin(), hosts_text.end());
  const bool many_hosts = hosts.size() > 1;
  struct stat st {};
  const bool exists = ::stat(local->c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  std::string probe;
  if (many_hosts && exists && ranks.Rank() == 0) probe = WriteProbe(*local, ranks.Host());
  if (many_hosts) probe = ranks.AllGather(probe).front();
  FolderView mine;
  mine.host = ranks.Host();
  if (const auto mount = storage::MountOf(*local)) {
    mine.fs_type = mount->fs_type;
    mine.source = mount->source;
    mine.mount_point = mount->mount_point;
    mine.network = storage::IsNetworkFileSystem(mount->fs_type);
  }
  if (!probe.empty()) mine.sees_probe.emplace(::access((*local + "/" + probe).c_str(), F_OK) == 0);
  std::vector<FolderView> views;
  if (many_hosts) {
    views = dist::AllGatherAs(ranks, mine);
    if (ranks.Rank() == 0 && !probe.empty()) ::unlink((*local + "/" + probe).c_str());
  } else {
    views.push_back(mine);
  }
  // A row per host, in the order of their first rank.
  nlohmann::json rows = nlohmann::json::array();
  std::set<std::string> listed;
  std::vector<std::string> blind, local_hosts;
  for (const auto& v : views) {
    if (v.sees_probe && !*v.sees_probe) blind.push_back(Seen(v));
    if (!listed.insert(v.host).second) continue;
    if (!v.network.value_or(false)) local_hosts.push_back(v.host);
    rows.push_back(v);
  }
  if (!blind.empty())
    throw UsageError(fmt::format(
        "{} {}: the ranks' hosts do not share it: a file rank 0 wrote there on {} was not found "
        "by ranks on other hosts ({}; {}): each host has a folder of its own at that path (a "
        "copy on its local disk?), so the run would measure each host's disk, not one storage; "
        "put the data on a file system every host mounts at the same path (NFS, Lustre, CephFS, "
        "...)",
        key, *local, views.front().host, fmt::format("{}", fmt::join(blind, "; ")),
        Seen(views.front())));
  if (many_hosts && !local_hosts.empty() && ranks.Rank() == 0)
    LogWarning(fmt::format(
        "{} {}: ranks on {} hosts, on a local file system ({}){}: check that every host reads "
        "one storage",
        key, *local, hosts.size(), views.front().fs_type.value_or("?"),
        probe.empty() ? " and no probe could be written there to see whether they share it"
                      : ", though every rank found rank 0's probe there"));
  return rows;
}

}  // namespace trainbench::app

#include "report/page/gnuplot.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "common/error.h"

extern char** environ;

namespace trainbench::report {
namespace {

constexpr int kNotFound = 127;  // what a shell reports for a missing program

// gnuplot's exit status, its stdin from /dev/null and stderr to `log_path`.
int Gnuplot(const std::vector<std::string>& args, const std::string& log_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv_text = {"gnuplot"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return kNotFound;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void ThrowMissing() {
  throw RuntimeError(
      "gnuplot not found: --png draws the charts with gnuplot; install Debian's gnuplot-nox "
      "(`apt-get install gnuplot-nox`), or leave out --png (the HTML report needs no gnuplot)");
}

}  // namespace

std::string GnuplotPngTerminal() {
  char log[] = "/tmp/trainbench-gnuplot-XXXXXX";
  const int fd = mkstemp(log);
  if (fd >= 0) ::close(fd);
  const int rc = Gnuplot({"-e", "set terminal pngcairo"}, log);
  ::unlink(log);
  if (rc == kNotFound) ThrowMissing();
  return rc == 0 ? "pngcairo" : "png";
}

void RunGnuplot(const std::string& script_path, const std::string& log_path) {
  const int rc = Gnuplot({script_path}, log_path);
  if (rc == kNotFound) ThrowMissing();
  if (rc != 0)
    throw RuntimeError(
        fmt::format("gnuplot failed (exit {}) on {}: {}", rc, script_path, Slurp(log_path)));
}

}  // namespace trainbench::report

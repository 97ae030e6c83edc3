// RunChild and TempDir (see spawn.h).
#include "spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>

extern char **environ;

namespace cairn_ptest {
namespace {

std::string SelfPath() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot read /proc/self/exe: " + ec.message());
  return p.string();
}

// Reads both pipes until both reach end of file or the deadline passes; false on timeout.
bool Drain(int out_fd, int err_fd, std::string *out, std::string *err,
           std::chrono::steady_clock::time_point deadline) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string *sinks[2] = {out, err};
  int open = 2;
  char buf[65536];
  while (open > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    int n = poll(fds, 2, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) return false;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        sinks[i]->append(buf, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        fds[i].fd = -1;
        open--;
      }
    }
  }
  return true;
}

std::string Tail(const std::string &s, size_t max) {
  return s.size() <= max ? s : "..." + s.substr(s.size() - max);
}

}  // namespace

ChildResult RunChild(const std::string &name, const std::string &store_dir,
                     const std::vector<std::string> &args, const std::vector<std::string> &env,
                     double timeout_s) {
  ChildResult r;
  r.name = name;
  std::vector<std::string> argv = {SelfPath(), "--child=" + name, store_dir};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char *> cargv;
  for (auto &a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> envs;
  for (char **e = environ; *e; e++) envs.emplace_back(*e);
  envs.insert(envs.end(), env.begin(), env.end());
  std::vector<char *> cenv;
  for (auto &e : envs) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe2 failed");
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  int rc = posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(out[0]);
    close(err[0]);
    throw std::runtime_error("posix_spawn failed for " + argv[0]);
  }
  auto deadline = start + std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
  if (!Drain(out[0], err[0], &r.out, &r.err, deadline)) {
    r.timed_out = true;
    kill(pid, SIGKILL);
  }
  close(out[0]);
  close(err[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

std::string ChildResult::Describe() const {
  std::ostringstream os;
  os << "child " << name;
  if (timed_out) os << " timed out and was killed";
  if (signal)
    os << " was killed by signal " << signal << " (" << strsignal(signal) << ")";
  else
    os << " exited with status " << exit_code;
  os << " after " << seconds << " s\n--- stdout ---\n"
     << Tail(out, 4000) << "\n--- stderr ---\n"
     << Tail(err, 6000);
  return os.str();
}

std::string ChildResult::Value(const std::string &key) const {
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      if (w.compare(0, key.size() + 1, key + "=") == 0) return w.substr(key.size() + 1);
    }
  }
  return "";
}

TempDir::TempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string templ =
      std::string(base != nullptr && base[0] ? base : "/tmp") + "/cairn-persist-test-XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = templ;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace cairn_ptest

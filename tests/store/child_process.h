// Starting a helper program as a separate process (posix_spawn, never fork without exec in a
// process with RocksDB's threads), with pipes to its standard input and output.
#ifndef CAIRN_TESTS_STORE_CHILD_PROCESS_H
#define CAIRN_TESTS_STORE_CHILD_PROCESS_H

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

extern char **environ;

namespace cairn::test {

class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string> &argv) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
      throw std::runtime_error("pipe failed");
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    std::vector<char *> args;
    for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    int rc = posix_spawn(&pid_, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    if (rc != 0) throw std::runtime_error("posix_spawn failed for " + argv[0]);
  }
  ~ChildProcess() {
    if (to_child_ >= 0) close(to_child_);
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      Wait();
    }
    close(from_child_);
  }
  ChildProcess(const ChildProcess &) = delete;
  ChildProcess &operator=(const ChildProcess &) = delete;

  pid_t pid() const { return pid_; }

  // Reads what the child has written, waiting at most `timeout` for more; "" at end of file.
  std::string ReadSome(std::chrono::milliseconds timeout) {
    pollfd p{from_child_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return "";
    char buf[4096];
    ssize_t n = read(from_child_, buf, sizeof buf);
    return n > 0 ? std::string(buf, n) : std::string();
  }
  // Reads until a newline (or end of file, or `timeout` with nothing new).
  std::string ReadLine(std::chrono::milliseconds timeout) {
    std::string line;
    while (line.empty() || line.back() != '\n') {
      std::string more = ReadSome(timeout);
      if (more.empty()) break;
      line += more;
    }
    return line;
  }
  // Reads everything until end of file (the child has exited or closed its output).
  std::string ReadAll() {
    std::string all;
    char buf[4096];
    ssize_t n;
    while ((n = read(from_child_, buf, sizeof buf)) > 0) all.append(buf, n);
    return all;
  }
  void CloseInput() {
    close(to_child_);
    to_child_ = -1;
  }
  void Kill() { kill(pid_, SIGKILL); }
  // The exit status (or 128 + signal).
  int Wait() {
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  bool reaped_ = false;
};

}  // namespace cairn::test

#endif  // CAIRN_TESTS_STORE_CHILD_PROCESS_H

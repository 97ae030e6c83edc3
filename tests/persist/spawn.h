// Running a scenario of the persistence tests in a fresh process: the test binary starts itself
// again (posix_spawn of its own executable, never fork without exec in a process that may hold
// RocksDB's threads) as `--child=NAME STORE_DIR ARGS...`, and collects its exit status, its
// standard output and its standard error. A store belongs to one process at a time, so every
// persistence test runs its scenario in such children; the parent (a GoogleTest test) only
// orchestrates and checks.
#pragma once

#include <string>
#include <vector>

namespace cairn_ptest {

struct ChildResult {
  std::string name;    // the child scenario
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
  bool timed_out = false;
  std::string out;     // its standard output
  std::string err;     // its standard error
  double seconds = 0;  // wall time
  bool ok() const { return exit_code == 0 && signal == 0 && !timed_out; }
  // "child NAME exited with status 1 after 0.2 s; stdout: ...; stderr: ..."
  std::string Describe() const;
  // The value of the first line "KEY=VALUE" (whole line, or a space-separated token) on
  // standard output, or "" if none.
  std::string Value(const std::string &key) const;
};

// Runs this executable as child scenario `name` on `store_dir` with `args`, with the
// environment of this process plus `env` ("NAME=VALUE" entries), and waits for it (killing it
// after `timeout_s` seconds).
ChildResult RunChild(const std::string &name, const std::string &store_dir,
                     const std::vector<std::string> &args = {},
                     const std::vector<std::string> &env = {}, double timeout_s = 300);

// A temporary directory under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }
  // A path inside the directory (not created).
  std::string Sub(const std::string &name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace cairn_ptest

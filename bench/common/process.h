// What the compiler and language benchmarks share: running a program with its output in files,
// timing it by the wall clock, and finding the tools they drive.
#ifndef CAIRN_BENCH_COMMON_PROCESS_H
#define CAIRN_BENCH_COMMON_PROCESS_H

#include <string>
#include <vector>

namespace cairn::bench {

// The monotonic clock, in seconds.
double NowSeconds();

// How a program run ended.
struct RunResult {
  int status = -1;     // exit status; 128 + signal when killed; -1 when it could not start
  double seconds = 0;  // wall clock from fork to the end of waitpid
  std::string out;     // its standard output
  std::string err;     // its standard error
  bool ok() const { return status == 0; }
};

// Runs argv[0] (looked up in PATH when it has no '/') with standard output and standard error
// captured through files in scratch_dir, standard input from /dev/null.
RunResult Run(const std::vector<std::string> &argv, const std::string &scratch_dir);

// The folder holding this executable (build/bin/ for the benchmarks).
std::string SelfDir();

// A new empty folder under $TMPDIR (else /tmp) named prefix-XXXXXX; "" if it cannot be made.
std::string MakeTempDir(const std::string &prefix);

// Removes a folder and everything under it (errors ignored).
void RemoveTree(const std::string &dir);

// Writes text to a file; false on an error.
bool WriteFile(const std::string &path, const std::string &text);

// The system's load average over the last minute (0 if unknown), printed with the figures so a
// reader can tell a busy machine's run.
double LoadAverage();

}  // namespace cairn::bench

#endif  // CAIRN_BENCH_COMMON_PROCESS_H

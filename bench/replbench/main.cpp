// cairn-replbench: how long the REPL takes to answer.
//
//   - median_ms: from writing a simple expression (`i * 3 + 1`, a new one each time) to a session
//     of `cairn repl` until its value has been read back from the session's output, over
//     --inputs inputs after a few to warm up; each is parsed, checked, compiled at -O2, loaded by
//     the JIT, run in the process and printed.
//   - open_ms: in a fresh session on a store holding OO7's small database, from writing
//     `:open NAME` to reading the root printed by the `:root` written with it (the types are
//     defined from the database's type table: the session has no source). The database is
//     OO7's (`cairn-oo7` beside this program, when it is there) or small_db.cairn's, a program of
//     the same shape and size. Median of --opens fresh sessions.
//
// Both are wall-clock times through pipes, as a user or a script sees them. The `cairn` driven
// is the one beside this program (build/bin/). The last line is
//   RESULT replbench median_ms=<n> open_ms=<n>
// The goal for both is 50 ms.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "process.h"

#ifndef CAIRN_REPLBENCH_SOURCE_DIR
#define CAIRN_REPLBENCH_SOURCE_DIR "."
#endif

namespace {

constexpr double kGoalMs = 50;

// A session of `cairn repl` with pipes to its standard input and from its standard output.
class Repl {
 public:
  bool Start(const std::string &cairn, const std::string &store) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return false;
    pid_ = fork();
    if (pid_ < 0) return false;
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      dup2(out[1], 2);
      close(in[0]);
      close(in[1]);
      close(out[0]);
      close(out[1]);
      execl(cairn.c_str(), cairn.c_str(), "repl", "--store", store.c_str(), (char *)nullptr);
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
    return true;
  }
  ~Repl() { Stop(); }
  void Stop() {
    if (pid_ <= 0) return;
    close(to_);
    int status = 0;
    waitpid(pid_, &status, 0);
    close(from_);
    pid_ = -1;
  }
  bool Send(const std::string &line) {
    std::string s = line + "\n";
    return write(to_, s.data(), s.size()) == static_cast<ssize_t>(s.size());
  }
  // Reads until a whole line equal to (or, if prefix, starting with) `want` has been read;
  // false after 60 s or at the end of the output (what was read is in *seen).
  bool ReadLine(const std::string &want, bool prefix, std::string *seen) {
    double deadline = cairn::bench::NowSeconds() + 60;
    while (true) {
      size_t nl;
      while ((nl = buffer_.find('\n')) != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        *seen += line + "\n";
        if (line == want || (prefix && line.rfind(want, 0) == 0)) return true;
      }
      double left = deadline - cairn::bench::NowSeconds();
      if (left <= 0) return false;
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left * 1000)) <= 0) return false;
      char chunk[4096];
      ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) return false;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  std::string buffer_;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int Usage() {
  std::fprintf(stderr,
               "usage: cairn-replbench [--inputs N] [--opens N] [--keep]\n"
               "  --inputs N  timed expressions (default 100; a few more warm up)\n"
               "  --opens N   fresh sessions that open the database (default 5)\n"
               "  --keep      keep the temporary folder (its path is printed)\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  int inputs = 100, opens = 5;
  bool keep = false;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--inputs" && i + 1 < argc)
      inputs = std::atoi(argv[++i]);
    else if (a == "--opens" && i + 1 < argc)
      opens = std::atoi(argv[++i]);
    else if (a == "--keep")
      keep = true;
    else
      return Usage();
  }
  if (inputs < 1 || opens < 1) return Usage();
  signal(SIGPIPE, SIG_IGN);
  const std::string bin = cairn::bench::SelfDir();
  const std::string cairn = bin + "/cairn";
  const std::string dir = cairn::bench::MakeTempDir("cairn-replbench");
  if (dir.empty()) {
    std::fprintf(stderr, "cairn-replbench: no temporary folder\n");
    return 1;
  }
  const std::string store = dir + "/store";
  int status = 0;
  std::string seen;

  // 1. Simple expressions.
  std::vector<double> times;
  {
    Repl repl;
    if (!repl.Start(cairn, store)) {
      std::fprintf(stderr, "cairn-replbench: cannot start %s\n", cairn.c_str());
      return 1;
    }
    const int warm = 5;
    for (int i = 0; i < warm + inputs && status == 0; i++) {
      const double t0 = cairn::bench::NowSeconds();
      repl.Send(std::to_string(i) + " * 3 + 1");
      if (!repl.ReadLine(std::to_string(i * 3 + 1), false, &seen)) {
        std::fprintf(stderr, "cairn-replbench: the session did not answer input %d:\n%s", i,
                     seen.c_str());
        status = 1;
      }
      if (i >= warm) times.push_back((cairn::bench::NowSeconds() - t0) * 1000);
    }
  }

  // 2. The database, then fresh sessions that open it.
  std::string db = "small";
  std::vector<double> open_times;
  if (status == 0) {
    const std::string oo7 = bin + "/cairn-oo7";
    cairn::bench::RunResult made;
    if (access(oo7.c_str(), X_OK) == 0) {
      db = "oo7";
      // cairn-oo7 finds its store in $CAIRN_STORE.
      setenv("CAIRN_STORE", store.c_str(), 1);
      made = cairn::bench::Run({oo7, "gen", "--config", "small", "--db", db}, dir);
    } else {
      made = cairn::bench::Run({cairn, "run", "--store", store,
                                std::string(CAIRN_REPLBENCH_SOURCE_DIR) + "/small_db.cairn"},
                               dir);
    }
    if (!made.ok()) {
      std::fprintf(stderr, "cairn-replbench: the database %s could not be made:\n%s%s", db.c_str(),
                   made.out.c_str(), made.err.c_str());
      status = 1;
    }
  }
  for (int i = 0; i < opens && status == 0; i++) {
    Repl repl;
    if (!repl.Start(cairn, store)) {
      status = 1;
      break;
    }
    // The session is up once it answers.
    repl.Send("0");
    if (!repl.ReadLine("0", false, &seen)) {
      status = 1;
      break;
    }
    const double t0 = cairn::bench::NowSeconds();
    repl.Send(":open " + db);
    repl.Send(":root");
    // :root prints the root object: "Module#N {...}" (or whatever its type is) after the lines
    // :open prints, the last of which is "opened database ...".
    if (!repl.ReadLine("opened database", true, &seen) || !repl.ReadLine("", true, &seen)) {
      std::fprintf(stderr, "cairn-replbench: :open %s did not answer:\n%s", db.c_str(),
                   seen.c_str());
      status = 1;
      break;
    }
    open_times.push_back((cairn::bench::NowSeconds() - t0) * 1000);
  }

  if (keep)
    std::printf("kept %s\n", dir.c_str());
  else
    cairn::bench::RemoveTree(dir);
  if (status != 0) return status;
  const double median = Median(times), open = Median(open_times);
  std::printf(
      "expression to value: median %.1f ms over %d inputs (min %.1f, max %.1f); goal %.0f\n",
      median, inputs, *std::min_element(times.begin(), times.end()),
      *std::max_element(times.begin(), times.end()), kGoalMs);
  std::printf(":open %s to its root printed: median %.1f ms over %d sessions; goal %.0f\n",
              db.c_str(), open, opens, kGoalMs);
  std::printf("load average %.2f\n", cairn::bench::LoadAverage());
  std::printf("RESULT replbench median_ms=%.1f open_ms=%.1f\n", median, open);
  return 0;
}

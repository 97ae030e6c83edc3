// cairn-gcbench: GCBench on Cairn's collector and on the Boehm collector, in one invocation.
//
// Each run happens in a fresh child process (this program re-executed with --run BACKEND) so the
// two collectors never share a heap and each one's peak RSS is its own. Runs alternate between
// the collectors; the report gives medians. The last line is
//   RESULT gcbench time_ratio=<cairn/boehm> pause_ratio=<cairn/boehm> rss_ratio=<cairn/boehm>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "backends.h"

namespace {

double NowSeconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Figures {
  double seconds = 0, max_pause_ms = 0, total_pause_ms = 0, collections = 0, rss_mb = 0;
  int markers = 1;
  bool ok = false;
};

int RunChild(const char *backend) {
  gcbench::Result r;
  if (std::strcmp(backend, "cairn") == 0)
    r = gcbench::RunCairn(NowSeconds);
  else if (std::strcmp(backend, "boehm") == 0)
    r = gcbench::RunBoehm(NowSeconds);
  else {
    std::fprintf(stderr, "cairn-gcbench: unknown backend '%s' (cairn or boehm)\n", backend);
    return 2;
  }
  rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  int markers = std::strcmp(backend, "boehm") == 0 ? gcbench::BoehmMarkers() : 1;
  std::printf("%d %.6f %.6f %.6f %llu %.3f %d\n", r.ok ? 1 : 0, r.seconds,
              double(r.stats.max_pause_ns) / 1e6, double(r.stats.total_pause_ns) / 1e6,
              static_cast<unsigned long long>(r.stats.collections), double(ru.ru_maxrss) / 1024,
              markers);
  return r.ok ? 0 : 1;
}

bool RunOnce(const char *self, const char *backend, Figures *f) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    execl(self, self, "--run", backend, static_cast<char *>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  int ok = 0;
  unsigned long long collections = 0;
  if (std::sscanf(out.c_str(), "%d %lf %lf %lf %llu %lf %d", &ok, &f->seconds, &f->max_pause_ms,
                  &f->total_pause_ms, &collections, &f->rss_mb, &f->markers) != 7)
    return false;
  f->collections = double(collections);
  f->ok = ok == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return f->ok;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "--run") == 0) return RunChild(argv[2]);
  int runs = 3;
  if (argc == 3 && std::strcmp(argv[1], "--runs") == 0)
    runs = std::max(1, std::atoi(argv[2]));
  else if (argc != 1) {
    std::fprintf(stderr, "usage: cairn-gcbench [--runs N]\n");
    return 2;
  }
  const char *self = "/proc/self/exe";
  const char *names[2] = {"cairn", "boehm"};
  std::vector<Figures> results[2];
  for (int i = 0; i < runs; i++)
    for (int b = 0; b < 2; b++) {
      Figures f;
      if (!RunOnce(self, names[b], &f)) {
        std::fprintf(stderr, "cairn-gcbench: the %s run failed (wrong result or crash)\n",
                     names[b]);
        return 1;
      }
      results[b].push_back(f);
    }
  std::printf(
      "GCBench: stretch tree depth %d, long-lived tree depth %d, %zu doubles, trees of "
      "depth %d..%d; median of %d runs each, every run in a fresh process\n",
      gcbench::kStretchTreeDepth, gcbench::kLongLivedTreeDepth, gcbench::kArraySize,
      gcbench::kMinTreeDepth, gcbench::kMaxTreeDepth, runs);
  std::printf(
      "baseline: Boehm-Demers-Weiser (Debian libgc 8.2), default settings, %d marker "
      "thread(s) (it starts parallel markers only once a program has threads)\n",
      results[1][0].markers);
  std::printf("%-8s %10s %14s %14s %12s %12s\n", "", "time (s)", "max pause (ms)", "gc total (ms)",
              "collections", "peak RSS (MB)");
  double med[2][5];
  for (int b = 0; b < 2; b++) {
    std::vector<double> t, p, g, c, r;
    for (const Figures &f : results[b]) {
      t.push_back(f.seconds);
      p.push_back(f.max_pause_ms);
      g.push_back(f.total_pause_ms);
      c.push_back(f.collections);
      r.push_back(f.rss_mb);
    }
    med[b][0] = Median(t);
    med[b][1] = Median(p);
    med[b][2] = Median(g);
    med[b][3] = Median(c);
    med[b][4] = Median(r);
    std::printf("%-8s %10.3f %14.2f %14.1f %12.0f %12.1f\n", names[b], med[b][0], med[b][1],
                med[b][2], med[b][3], med[b][4]);
  }
  std::printf("goal: time_ratio <= 0.8, pause_ratio <= 1.0\n");
  std::printf("RESULT gcbench time_ratio=%.3f pause_ratio=%.3f rss_ratio=%.3f\n",
              med[0][0] / med[1][0], med[0][1] / med[1][1], med[0][4] / med[1][4]);
  return 0;
}

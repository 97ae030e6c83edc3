// cairn-compilebench: how fast `cairn` compiles a realistic 5,000-line program.
//
// Generates the program (generator.h) into a temporary folder, times `cairn check` (parse and
// check), `cairn build -O0` (best of 3; again with -j 1, code generation in one thread, the
// baseline of the parallel default) and `cairn build -O2` (best of 2) by the wall clock, and a
// 3-line program's -O0 build (what every build pays: starting the compiler and linking the
// runtime). Then it runs both executables and compares their output with what the generator
// computed. The compiler is the `cairn` beside this program (build/bin/). The last line is
//   RESULT compilebench lines_per_s=<lines / -O0 seconds> o2_seconds=<-O2 seconds>
//          one_thread_ratio=<-O0 -j 1 seconds / -O0 seconds>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "generator.h"
#include "process.h"

namespace {

using cairn::bench::RunResult;

constexpr double kGoalLinesPerSecond = 20000;
constexpr double kGoalO2Seconds = 10;
constexpr uint64_t kSeed = 20261123;

struct Options {
  int lines = 5000;
  int o0_runs = 3;
  int o2_runs = 2;
  bool keep = false;
};

// Runs argv `runs` times; the best wall-clock time, or a negative number after a failure (its
// standard error printed).
double BestOf(int runs, const std::vector<std::string> &argv, const std::string &dir,
              const char *what) {
  double best = -1;
  for (int i = 0; i < runs; i++) {
    RunResult r = cairn::bench::Run(argv, dir);
    if (!r.ok()) {
      std::fprintf(stderr, "cairn-compilebench: %s failed (status %d):\n%s%s", what, r.status,
                   r.out.c_str(), r.err.c_str());
      return -1;
    }
    best = best < 0 ? r.seconds : std::min(best, r.seconds);
  }
  return best;
}

// The line of text that holds byte `at`, without its newline ("(end)" past the end).
std::string LineAt(const std::string &text, size_t at) {
  if (at >= text.size()) return "(end)";
  size_t start = at;
  while (start > 0 && text[start - 1] != '\n') start--;
  size_t end = text.find('\n', at);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Runs a built program and compares its output with the expected one.
bool CheckOutput(const std::string &exe, const std::string &expected, const std::string &dir) {
  RunResult r = cairn::bench::Run({exe}, dir);
  if (r.ok() && r.out == expected) return true;
  std::fprintf(stderr, "cairn-compilebench: %s: exit status %d\n%s", exe.c_str(), r.status,
               r.err.c_str());
  if (r.out != expected) {
    size_t at = 0;
    while (at < r.out.size() && at < expected.size() && r.out[at] == expected[at]) at++;
    std::fprintf(stderr, "  its output differs: expected '%s', got '%s'\n",
                 LineAt(expected, at).c_str(), LineAt(r.out, at).c_str());
  }
  return false;
}

int Usage() {
  std::fprintf(stderr,
               "usage: cairn-compilebench [--lines N] [--runs N] [--keep]\n"
               "  --lines N  size of the generated program (default 5000; small for a smoke test)\n"
               "  --runs N   -O0 builds and checks to take the best of (default 3; -O2: 2)\n"
               "  --keep     keep the temporary folder (its path is printed)\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--lines") == 0 && i + 1 < argc) {
      o.lines = std::max(10, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      o.o0_runs = std::max(1, std::atoi(argv[++i]));
      o.o2_runs = std::min(o.o2_runs, o.o0_runs);
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      o.keep = true;
    } else {
      return Usage();
    }
  }
  const std::string cairn = cairn::bench::SelfDir() + "/cairn";
  const std::string dir = cairn::bench::MakeTempDir("cairn-compilebench");
  if (dir.empty()) {
    std::fprintf(stderr, "cairn-compilebench: cannot make a temporary folder\n");
    return 1;
  }
  const cairn::bench::GeneratedProgram program = cairn::bench::GenerateProgram(o.lines, kSeed);
  const std::string source = dir + "/generated.cairn";
  const std::string tiny = dir + "/tiny.cairn";
  if (!cairn::bench::WriteFile(source, program.source) ||
      !cairn::bench::WriteFile(tiny, "fn main() {\n    println(\"hello\")\n}\n")) {
    std::fprintf(stderr, "cairn-compilebench: cannot write into %s\n", dir.c_str());
    return 1;
  }
  std::printf(
      "compilebench: a generated program of %d lines (%d units: classes with overrides, "
      "generic classes and functions, loops, text, arrays), %zu bytes\n",
      program.lines, program.units, program.source.size());
  std::printf("compiler: %s; load average %.2f at the start\n", cairn.c_str(),
              cairn::bench::LoadAverage());

  const std::string o0_exe = dir + "/generated-O0", o2_exe = dir + "/generated-O2";
  double check_s = BestOf(o.o0_runs, {cairn, "check", source}, dir, "cairn check");
  double tiny_s = check_s < 0
                      ? -1
                      : BestOf(o.o0_runs, {cairn, "build", "-O0", tiny, "-o", dir + "/tiny"}, dir,
                               "cairn build -O0 of a 3-line program");
  double o0_s = tiny_s < 0 ? -1
                           : BestOf(o.o0_runs, {cairn, "build", "-O0", source, "-o", o0_exe}, dir,
                                    "cairn build -O0");
  // The same build in one thread: what code generation in parallel (-j, one thread per core by
  // default) gains on this machine.
  double o0_j1_s = o0_s < 0
                       ? -1
                       : BestOf(o.o0_runs, {cairn, "build", "-O0", "-j", "1", source, "-o", o0_exe},
                                dir, "cairn build -O0 -j 1");
  double o2_s = o0_j1_s < 0 ? -1
                            : BestOf(o.o2_runs, {cairn, "build", "-O2", source, "-o", o2_exe}, dir,
                                     "cairn build -O2");
  bool ok = o2_s >= 0 && CheckOutput(o0_exe, program.expected, dir) &&
            CheckOutput(o2_exe, program.expected, dir);
  if (!ok) {
    std::fprintf(stderr, "cairn-compilebench: failed; the program is kept in %s\n", dir.c_str());
    return 1;
  }
  double lines_per_s = program.lines / o0_s;
  std::printf("%-36s %10s %12s\n", "", "seconds", "lines/s");
  std::printf("%-36s %10.3f %12.0f\n", "cairn check (parse, check)", check_s,
              program.lines / check_s);
  std::printf("%-36s %10.3f %12s\n", "cairn build -O0 of a 3-line program", tiny_s, "");
  std::printf("%-36s %10.3f %12.0f\n", "cairn build -O0", o0_s, lines_per_s);
  std::printf("%-36s %10.3f %12.0f   (-j 1 / default: %.2f)\n", "cairn build -O0 -j 1", o0_j1_s,
              program.lines / o0_j1_s, o0_j1_s / o0_s);
  std::printf("%-36s %10.3f %12.0f\n", "cairn build -O2", o2_s, program.lines / o2_s);
  std::printf(
      "best of %d (-O2: best of %d) by the wall clock; both executables print the "
      "expected %d lines; load average %.2f at the end\n",
      o.o0_runs, o.o2_runs, program.units, cairn::bench::LoadAverage());
  std::printf("goal: >= %.0f lines/s at -O0: %s (%.0f)\n", kGoalLinesPerSecond,
              lines_per_s >= kGoalLinesPerSecond ? "met" : "NOT MET", lines_per_s);
  std::printf("goal: -O2 build under %.0f s: %s (%.2f s)\n", kGoalO2Seconds,
              o2_s < kGoalO2Seconds ? "met" : "NOT MET", o2_s);
  if (o.keep)
    std::printf("kept: %s\n", dir.c_str());
  else
    cairn::bench::RemoveTree(dir);
  std::printf("RESULT compilebench lines_per_s=%.0f o2_seconds=%.3f one_thread_ratio=%.3f\n",
              lines_per_s, o2_s, o0_j1_s / o0_s);
  return 0;
}

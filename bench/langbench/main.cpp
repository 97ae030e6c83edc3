// cairn-langbench: the same small programs in Cairn and in C, run side by side.
//
// Each program of programs/ exists twice, NAME.cairn and NAME.c, and prints the same lines
// (a checksum). At benchmark time the C twin is compiled with clang-19 -O2 and the Cairn twin
// with `cairn build -O2` (the `cairn` beside this program, build/bin/). Both are run alternately,
// each run a fresh process timed by the wall clock; the best of 3 counts. Every run's output
// must equal the C twin's. The last line is
//   RESULT langbench geomean_ratio=<geometric mean of cairn/C> <program>=<cairn/C> ...
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "process.h"

#ifndef CAIRN_LANGBENCH_PROGRAMS
#define CAIRN_LANGBENCH_PROGRAMS "programs"
#endif

namespace {

using cairn::bench::RunResult;

constexpr double kGoalRatio = 1.5;

// A program and its arguments: the real sizes (about 0.5 to 2 s in C) and the smoke test's.
struct Program {
  const char *name;
  const char *what;
  std::vector<std::string> args;
  std::vector<std::string> quick_args;
};

const Program kPrograms[] = {
    {"binary_trees", "trees of depth 4..MAX made and checked; C: malloc/free", {"17"}, {"8"}},
    {"nbody",
     "STEPS steps of 5 bodies: float fields of objects in an array",
     {"10000000"},
     {"10000"}},
    {"text_builder",
     "ROUNDS documents of LINES lines, 4 small texts a line",
     {"1000000", "8"},
     {"10000", "2"}},
    {"sort", "quicksort of ROUNDS arrays of COUNT ints", {"1000000", "10"}, {"10000", "2"}},
    {"walk",
     "ROUNDS walks of a list of ITEMS objects, a virtual call each",
     {"1000000", "80"},
     {"10000", "3"}},
};

struct Options {
  int runs = 3;
  bool quick = false;
  bool keep = false;
  std::string programs = CAIRN_LANGBENCH_PROGRAMS;
  std::string cc = "clang-19";
};

struct Measured {
  double c_seconds = -1, cairn_seconds = -1;
  std::string checksum;
};

// Builds both twins into dir; false (with the compiler's messages printed) on a failure.
bool Build(const Options &o, const std::string &cairn, const Program &p, const std::string &dir) {
  const std::string base = o.programs + "/" + p.name;
  RunResult c = cairn::bench::Run(
      {o.cc, "-O2", "-w", base + ".c", "-o", dir + "/" + p.name + "-c", "-lm"}, dir);
  if (!c.ok()) {
    std::fprintf(stderr, "cairn-langbench: %s.c does not compile:\n%s", p.name, c.err.c_str());
    return false;
  }
  RunResult k = cairn::bench::Run(
      {cairn, "build", "-O2", base + ".cairn", "-o", dir + "/" + p.name + "-cairn"}, dir);
  if (!k.ok()) {
    std::fprintf(stderr, "cairn-langbench: %s.cairn does not compile:\n%s%s", p.name, k.out.c_str(),
                 k.err.c_str());
    return false;
  }
  return true;
}

// One timed run; false if it failed or printed something else than expected (when expected is
// not empty; it is set from the first run otherwise).
bool TimeOnce(const std::string &exe, const std::vector<std::string> &args, const char *label,
              const std::string &dir, std::string *expected, double *best) {
  std::vector<std::string> argv = {exe};
  argv.insert(argv.end(), args.begin(), args.end());
  RunResult r = cairn::bench::Run(argv, dir);
  if (!r.ok() || r.out.empty()) {
    std::fprintf(stderr, "cairn-langbench: %s failed (status %d):\n%s%s", label, r.status,
                 r.out.c_str(), r.err.c_str());
    return false;
  }
  if (expected->empty()) {
    *expected = r.out;
  } else if (r.out != *expected) {
    std::fprintf(stderr, "cairn-langbench: %s printed\n%sinstead of\n%s", label, r.out.c_str(),
                 expected->c_str());
    return false;
  }
  *best = *best < 0 ? r.seconds : std::min(*best, r.seconds);
  return true;
}

bool Measure(const Options &o, const Program &p, const std::string &dir, Measured *m) {
  const std::vector<std::string> &args = o.quick ? p.quick_args : p.args;
  const std::string c_exe = dir + "/" + p.name + "-c", cairn_exe = dir + "/" + p.name + "-cairn";
  const std::string c_label = std::string(p.name) + " (C)";
  const std::string cairn_label = std::string(p.name) + " (Cairn)";
  for (int i = 0; i < o.runs; i++) {
    if (!TimeOnce(c_exe, args, c_label.c_str(), dir, &m->checksum, &m->c_seconds) ||
        !TimeOnce(cairn_exe, args, cairn_label.c_str(), dir, &m->checksum, &m->cairn_seconds))
      return false;
  }
  return true;
}

// The last line of a program's output (its checksum line), for the table.
std::string LastLine(const std::string &out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

int Usage() {
  std::fprintf(stderr,
               "usage: cairn-langbench [--quick] [--runs N] [--programs DIR] [--cc COMPILER] "
               "[--keep]\n"
               "  --quick          tiny sizes, a smoke test (the ratios mean nothing)\n"
               "  --runs N         runs of each twin, the best counts (default 3)\n"
               "  --programs DIR   where NAME.cairn and NAME.c are (default: the source tree's)\n"
               "  --cc COMPILER    the C compiler (default clang-19)\n"
               "  --keep           keep the temporary folder with the executables\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      o.quick = true;
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      o.keep = true;
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      o.runs = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--programs") == 0 && i + 1 < argc) {
      o.programs = argv[++i];
    } else if (std::strcmp(argv[i], "--cc") == 0 && i + 1 < argc) {
      o.cc = argv[++i];
    } else {
      return Usage();
    }
  }
  const std::string cairn = cairn::bench::SelfDir() + "/cairn";
  const std::string dir = cairn::bench::MakeTempDir("cairn-langbench");
  if (dir.empty()) {
    std::fprintf(stderr, "cairn-langbench: cannot make a temporary folder\n");
    return 1;
  }
  std::printf(
      "langbench: the same programs in Cairn (cairn build -O2) and in C (%s -O2), "
      "best of %d runs each by the wall clock%s\n",
      o.cc.c_str(), o.runs, o.quick ? " (--quick: smoke-test sizes)" : "");
  std::printf("load average %.2f at the start\n", cairn::bench::LoadAverage());

  std::vector<Measured> results;
  bool ok = true;
  for (const Program &p : kPrograms) {
    Measured m;
    if (!Build(o, cairn, p, dir) || !Measure(o, p, dir, &m)) {
      ok = false;
      break;
    }
    results.push_back(m);
  }
  if (!ok) {
    std::fprintf(stderr, "cairn-langbench: failed; the executables are in %s\n", dir.c_str());
    return 1;
  }

  std::printf("%-13s %-62s %-11s %8s %10s %7s  %s\n", "program", "what", "arguments", "C (s)",
              "Cairn (s)", "ratio", "checksum (both)");
  double log_sum = 0;
  std::string extra;
  for (size_t i = 0; i < results.size(); i++) {
    const Program &p = kPrograms[i];
    const Measured &m = results[i];
    double ratio = m.cairn_seconds / m.c_seconds;
    log_sum += std::log(ratio);
    std::string args;
    for (const std::string &a : o.quick ? p.quick_args : p.args)
      args += (args.empty() ? "" : " ") + a;
    std::printf("%-13s %-62s %-11s %8.3f %10.3f %7.2f  %s\n", p.name, p.what, args.c_str(),
                m.c_seconds, m.cairn_seconds, ratio, LastLine(m.checksum).c_str());
    char pair[64];
    std::snprintf(pair, sizeof pair, " %s=%.3f", p.name, ratio);
    extra += pair;
  }
  double geomean = std::exp(log_sum / double(results.size()));
  std::printf("load average %.2f at the end\n", cairn::bench::LoadAverage());
  std::printf("goal: geometric mean of cairn/C <= %.1f: %s (%.3f)%s\n", kGoalRatio,
              geomean <= kGoalRatio ? "met" : "NOT MET", geomean,
              o.quick ? " (quick sizes: not a measurement)" : "");
  if (o.keep)
    std::printf("kept: %s\n", dir.c_str());
  else
    cairn::bench::RemoveTree(dir);
  std::printf("RESULT langbench geomean_ratio=%.3f%s\n", geomean, extra.c_str());
  return 0;
}

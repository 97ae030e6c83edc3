// cairn-persistbench: what persistence costs a program that reads a persistent graph.
//
// One child process builds a graph of a million small objects with three references each
// (graph.h) and commits it to a fresh store. Then, in fresh processes, alternately:
//   traverse: a cold traversal (every page faulted in from the store and swizzled), hot
//             traversals of the same graph (now plain memory), and the same traversal of an
//             identical transient graph built in the same process and laid out by a collection;
//   raw:      the raw cost of one protection trap plus one 8 KiB page read from the same store
//             (raw_fault.cpp), the floor under a cold page fault.
// Each is run --runs times (default 3); the table gives medians across runs.
//
//   cairn-persistbench [--nodes N] [--runs R] [--hot H] [--dir DIR]
//
// Last line: RESULT persistbench hot_ratio=<hot persistent / transient traversal>
//            cold_us_per_page=<cold traversal time / pages faulted>
//            ambiguous_pages=<pages made persistent in place (ambiguously) at the commit>
// Goals: hot_ratio <= 1.05; cold_us_per_page within 3x of the raw cost (printed beside it).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cairn/persist.h"
#include "graph.h"
#include "raw_fault.h"

extern char **environ;

namespace {

using persistbench::Node;
using Clock = std::chrono::steady_clock;
using Figures = std::map<std::string, double>;

const char kDb[] = "bench";

[[noreturn]] void Die(const std::string &what) {
  std::fprintf(stderr, "cairn-persistbench: %s\n", what.c_str());
  std::exit(1);
}

void Check(cairn_status s, const char *what) {
  if (s != CAIRN_OK) Die(std::string(what) + ": " + cairn_last_error());
}

double Ms(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void OpenStore(const std::string &store) {
  Check(cairn_init(nullptr), "cairn_init");
  Check(cairn_register_type(&persistbench::kNodeType), "cairn_register_type");
  cairn_persist_options opts{};
  opts.store_dir = store.c_str();
  Check(cairn_store_open(&opts), "cairn_store_open");
}

// --- Phases (each in its own process) ----------------------------------------------------------

int PhaseBuild(const std::string &store, int64_t n) {
  OpenStore(store);
  cairn_db *db = nullptr;
  Check(cairn_db_create(kDb, &db), "cairn_db_create");
  auto t0 = Clock::now();
  Check(cairn_txn_begin(), "begin");
  Node *root = persistbench::BuildGraph(n);
  double build_ms = Ms(t0);
  Check(cairn_db_set_root(db, root), "set_root");
  auto t1 = Clock::now();
  Check(cairn_txn_commit(), "commit");
  double commit_ms = Ms(t1);
  cairn_persist_stats s{};
  cairn_persist_last_commit_stats(&s);
  std::printf(
      "build_ms=%.1f commit_ms=%.1f pages_written=%lu pages_accurate=%lu "
      "ambiguous_pages=%lu pages_large=%lu objects=%lu stabilize_ms=%.1f write_ms=%.1f\n",
      build_ms, commit_ms, s.pages_written, s.pages_accurate, s.pages_ambiguous, s.pages_large,
      s.objects_made_persistent, s.stabilize_ns / 1e6, s.write_ns / 1e6);
  return 0;
}

// Times `reps` walks from root into `out` (milliseconds); checks each sum.
void TimeWalks(const Node *root, int64_t n, int reps, std::vector<double> *out) {
  for (int i = 0; i < reps; i++) {
    auto t0 = Clock::now();
    int64_t sum = persistbench::Walk(root);
    out->push_back(Ms(t0));
    if (sum != persistbench::ExpectedWalk(n)) Die("the walk's sum is wrong");
  }
}

uint64_t Faulted() {
  cairn_persist_stats s{};
  cairn_persist_get_stats(&s);
  return s.pages_faulted;
}

int PhaseTraverse(const std::string &store, int64_t n, int hot) {
  OpenStore(store);
  cairn_db *db = nullptr;
  Check(cairn_db_open(kDb, &db), "cairn_db_open");
  Check(cairn_txn_begin(), "begin");
  void *r = nullptr;
  Check(cairn_db_get_root(db, &r), "get_root");
  const Node *root = static_cast<const Node *>(r);

  uint64_t f0 = Faulted();
  cairn_persist_stats s0{};
  cairn_persist_get_stats(&s0);
  std::vector<double> cold;
  TimeWalks(root, n, 1, &cold);
  cairn_persist_stats s1{};
  cairn_persist_get_stats(&s1);
  uint64_t cold_pages = s1.pages_faulted - s0.pages_faulted;

  std::vector<double> hot1, transient, hot2;
  TimeWalks(root, n, hot, &hot1);
  uint64_t f1 = Faulted();

  Node *twin = persistbench::BuildGraph(n);
  cairn_collect();  // lay the twin out by a collection, as the stabilizer laid out the original
  TimeWalks(twin, n, 1, &transient);  // warm-up, not counted
  transient.clear();
  uint64_t f2 = Faulted();
  for (int i = 0; i < hot; i++) {  // alternate, so drift affects both alike
    TimeWalks(twin, n, 1, &transient);
    TimeWalks(root, n, 1, &hot2);
  }
  uint64_t f3 = Faulted();
  std::vector<double> hots = hot1;
  if (f3 == f2) hots.insert(hots.end(), hot2.begin(), hot2.end());
  std::printf(
      "cold_ms=%.2f cold_pages=%lu cold_fault_ms=%.2f hot_ms=%.3f hot_min_ms=%.3f "
      "transient_ms=%.3f transient_min_ms=%.3f hot_faults=%lu hot2_faults=%lu "
      "gc_faults=%lu first_faults=%lu\n",
      cold[0], cold_pages, (s1.fault_ns - s0.fault_ns) / 1e6, Median(hots),
      *std::min_element(hots.begin(), hots.end()), Median(transient),
      *std::min_element(transient.begin(), transient.end()), f1 - (f0 + cold_pages), f3 - f2,
      f2 - f1, f0);
  Check(cairn_txn_abort(), "abort");
  return 0;
}

int PhaseRaw(const std::string &store) {
  persistbench::RawFigures r = persistbench::MeasureRawFaults(store, kDb);
  std::printf("raw_pages=%lu raw_us_per_page=%.3f raw_checksum=%lu\n", r.pages, r.us_per_page,
              r.checksum);
  return 0;
}

// --- The driver ---------------------------------------------------------------------------------

Figures RunPhase(const std::vector<std::string> &args) {
  std::vector<std::string> argv = {std::filesystem::read_symlink("/proc/self/exe").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char *> cargv;
  for (auto &a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) Die("pipe2 failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  pid_t pid;
  if (posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), environ) != 0) Die("spawn failed");
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  std::string text;
  char buf[4096];
  ssize_t got;
  while ((got = read(out[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(got));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    Die("phase " + args[1] + " failed (status " + std::to_string(status) + "): " + text);
  }
  Figures f;
  std::istringstream words(text);
  std::string w;
  while (words >> w) {
    size_t eq = w.find('=');
    if (eq != std::string::npos) f[w.substr(0, eq)] = std::strtod(w.c_str() + eq + 1, nullptr);
  }
  return f;
}

std::vector<double> Column(const std::vector<Figures> &runs, const std::string &key) {
  std::vector<double> v;
  for (const Figures &f : runs) v.push_back(f.count(key) ? f.at(key) : 0);
  return v;
}

void Row(const char *what, const std::vector<double> &v, const char *note = "") {
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  std::printf("  %-34s %12.3f %12.3f %12.3f  %s\n", what, Median(v), *lo, *hi, note);
}

int Drive(int64_t n, int runs, int hot, std::string dir) {
  bool temporary = dir.empty();
  if (temporary) {
    const char *base = std::getenv("TMPDIR");
    std::string templ = std::string(base && base[0] ? base : "/tmp") + "/cairn-persistbench-XXXXXX";
    if (!mkdtemp(templ.data())) Die("mkdtemp failed");
    dir = templ;
  }
  std::string store = dir + "/store";
  std::string ns = std::to_string(n), hs = std::to_string(hot);
  Figures build = RunPhase({"--phase", "build", store, ns});
  std::vector<Figures> trav, raw;
  for (int i = 0; i < runs; i++) {
    trav.push_back(RunPhase({"--phase", "traverse", store, ns, hs}));
    raw.push_back(RunPhase({"--phase", "raw", store}));
  }
  if (temporary) std::filesystem::remove_all(dir);

  std::vector<double> cold_us;
  for (const Figures &f : trav) cold_us.push_back(f.at("cold_ms") * 1e3 / f.at("cold_pages"));
  std::vector<double> ratio;
  for (const Figures &f : trav) ratio.push_back(f.at("hot_ms") / f.at("transient_ms"));
  double cold = Median(cold_us), raw_us = Median(Column(raw, "raw_us_per_page"));
  double hot_ratio = Median(ratio);

  std::printf(
      "cairn-persistbench: %ld nodes (3 references each), %d fresh processes, %d hot "
      "walks each\n",
      n, runs, hot);
  std::printf(
      "  build: %.0f ms, commit %.0f ms (stabilize %.0f, write %.0f); %.0f pages "
      "written (%.0f accurate, %.0f ambiguous, %.0f large), %.0f objects\n",
      build["build_ms"], build["commit_ms"], build["stabilize_ms"], build["write_ms"],
      build["pages_written"], build["pages_accurate"], build["ambiguous_pages"],
      build["pages_large"], build["objects"]);
  std::printf("  %-34s %12s %12s %12s\n", "", "median", "min", "max");
  Row("cold traversal (ms)", Column(trav, "cold_ms"));
  Row("pages faulted in it", Column(trav, "cold_pages"));
  Row("  of it in the fault handler (ms)", Column(trav, "cold_fault_ms"));
  Row("cold us per page faulted", cold_us);
  Row("raw trap + ReadPage, us per page", Column(raw, "raw_us_per_page"));
  std::vector<double> cr;
  for (double c : cold_us) cr.push_back(c / raw_us);
  Row("cold / raw", cr, "(goal <= 3)");
  Row("hot persistent traversal (ms)", Column(trav, "hot_ms"));
  Row("transient traversal (ms)", Column(trav, "transient_ms"));
  Row("hot / transient", ratio, "(goal <= 1.05)");
  Row("faults in hot walks", Column(trav, "hot_faults"));
  Row("faults while the twin was built", Column(trav, "gc_faults"));
  std::printf("RESULT persistbench hot_ratio=%.3f cold_us_per_page=%.2f ambiguous_pages=%.0f\n",
              hot_ratio, cold, build["ambiguous_pages"]);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc >= 4 && std::strcmp(argv[1], "--phase") == 0) {
    std::string phase = argv[2], store = argv[3];
    if (phase == "build" && argc >= 5) return PhaseBuild(store, std::atoll(argv[4]));
    if (phase == "traverse" && argc >= 6) {
      return PhaseTraverse(store, std::atoll(argv[4]), std::atoi(argv[5]));
    }
    if (phase == "raw") return PhaseRaw(store);
    Die("unknown phase " + phase);
  }
  int64_t n = 1000000;
  int runs = 3, hot = 5;
  std::string dir;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--nodes" && i + 1 < argc)
      n = std::atoll(argv[++i]);
    else if (a == "--runs" && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (a == "--hot" && i + 1 < argc)
      hot = std::atoi(argv[++i]);
    else if (a == "--dir" && i + 1 < argc)
      dir = argv[++i];
    else
      Die("usage: cairn-persistbench [--nodes N] [--runs R] [--hot H] [--dir DIR]");
  }
  if (n < 1 || runs < 1 || hot < 1) Die("--nodes, --runs and --hot must be at least 1");
  return Drive(n, runs, hot, dir);
}

// cairn-oo7-peer: the OO7 peers of Cairn (transient C++, and C++ over RocksDB with an object per
// key), driven by `cairn-oo7 compare` and the tests. Output lines (one per event, key=value):
//   GEN impl=... config=... conns=... seed=... ms=... <summary fields>
//   ITER impl=... op=... iter=... ms=... commit_ms=... count=... faulted=... written=...
//        bytes=... gc_ms=0 cpu_ms=...
//   SUMMARY impl=... <summary fields>
// ms is the work (wall clock), commit_ms the commit, cpu_ms the CPU time of the work (this
// thread's: what other processes on a busy machine do not inflate).
// For the kv peer, faulted counts RocksDB blocks read from its files (block cache misses),
// written the records written and bytes the bytes of its write-ahead log.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "generator.h"
#include "kv_db.h"
#include "operations.h"
#include "summary.h"
#include "transient_db.h"

namespace oo7 {
namespace {

constexpr char kUsage[] =
    "usage: cairn-oo7-peer gen --impl transient|kv [--dir DIR] [options]\n"
    "       cairn-oo7-peer run --impl transient|kv [--dir DIR] [options] OP...\n"
    "options: --config tiny|small|medium|large (small), --conns 3|6|9 (3), --seed N (1),\n"
    "         --iterations N (1), --mode one|many (many)\n"
    "OP: T1 T2a T2b T2c T3a T3b T3c T4 T5do T5undo T6 T7 T8 T9 Q1..Q8 Insert Delete, or Summary\n"
    "(prints the instance's summary). The transient peer generates its instance first; the kv\n"
    "peer reads the one 'gen' wrote into DIR.\n";

struct Options {
  std::string command;
  std::string impl;
  std::string dir;
  std::string config = "small";
  bool config_given = false;
  int64_t conns = 3;
  int64_t seed = 1;
  int64_t iterations = 1;
  bool many = true;
  std::vector<std::string> ops;
};

[[noreturn]] void Usage(const std::string &error) {
  std::fprintf(stderr, "cairn-oo7-peer: %s\n%s", error.c_str(), kUsage);
  std::exit(2);
}

int64_t ParseInt(const std::string &flag, const std::string &v) {
  char *end = nullptr;
  long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0') Usage(flag + " needs a number, found '" + v + "'");
  return n;
}

Options Parse(int argc, char **argv) {
  Options o;
  if (argc < 2) Usage("no command given");
  o.command = argv[1];
  if (o.command != "gen" && o.command != "run") Usage("unknown command '" + o.command + "'");
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--impl")
      o.impl = value();
    else if (a == "--dir")
      o.dir = value();
    else if (a == "--config")
      o.config = value(), o.config_given = true;
    else if (a == "--conns")
      o.conns = ParseInt(a, value());
    else if (a == "--seed")
      o.seed = ParseInt(a, value());
    else if (a == "--iterations")
      o.iterations = ParseInt(a, value());
    else if (a == "--mode") {
      std::string m = value();
      if (m != "one" && m != "many") Usage("--mode is one or many, found '" + m + "'");
      o.many = m == "many";
    } else if (!a.empty() && a[0] == '-')
      Usage("unknown option '" + a + "'");
    else
      o.ops.push_back(a);
  }
  if (o.impl != "transient" && o.impl != "kv") Usage("--impl is transient or kv");
  if (o.impl == "kv" && o.dir.empty()) Usage("the kv peer needs --dir DIR");
  if (o.iterations < 1) Usage("--iterations must be at least 1");
  if (o.command == "gen" && !o.ops.empty()) Usage("gen takes no operations");
  for (const std::string &op : o.ops) {
    bool known = op == "Summary";
    for (const std::string &n : OperationNames()) known |= n == op;
    if (!known) Usage("unknown operation '" + op + "'");
  }
  return o;
}

double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double NowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

std::string SummaryFields(const Summary &s) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "modules=%" PRId64 " complex=%" PRId64 " base=%" PRId64 " composites=%" PRId64
                " parts=%" PRId64 " connections=%" PRId64 " idx_part_id=%" PRId64
                " idx_part_date=%" PRId64 " idx_comp_id=%" PRId64 " idx_doc_title=%" PRId64
                " idx_doc_id=%" PRId64 " idx_base_id=%" PRId64 " checksum=%" PRId64,
                s.modules, s.complex_assemblies, s.base_assemblies, s.composites, s.atomic_parts,
                s.connections, s.index.part_by_id, s.index.part_by_date, s.index.comp_by_id,
                s.index.doc_by_title, s.index.doc_by_id, s.index.base_by_id,
                static_cast<int64_t>(s.checksum));
  return buf;
}

// Per-iteration figures a store can give.
struct Counters {
  uint64_t faulted = 0, written = 0, bytes = 0;
};
Counters CountersOf(TransientDb &) { return {}; }
Counters CountersOf(KvDb &kv) {
  KvCounters c = kv.Counters();
  return {c.blocks_read, 0, c.wal_bytes};  // written: counted at commit
}
uint64_t PendingRecords(TransientDb &) { return 0; }
uint64_t PendingRecords(KvDb &kv) { return kv.PendingRecords(); }

template <class S>
void Generate(S &s, const Config &c, const Options &o, bool commit_batches) {
  double t0 = NowMs();
  const int64_t step = c.Composites() >= 1000 ? c.Composites() / 10 : 0;
  Generate(s, c, o.seed, [&](int64_t done, int64_t total) {
    if (commit_batches && done % 50 == 0) s.Commit();
    if (step && done % step == 0)
      std::fprintf(stderr, "gen: %" PRId64 " of %" PRId64 " composite parts\n", done, total);
  });
  s.Commit();
  double ms = NowMs() - t0;
  Summarizer<S> sum(s);
  std::printf("GEN impl=%s config=%s conns=%" PRId64 " seed=%" PRId64 " ms=%.3f %s\n",
              o.impl.c_str(), c.name.c_str(), c.conn_per_atomic, o.seed, ms,
              SummaryFields(sum.Run()).c_str());
  std::fflush(stdout);
}

template <class S>
void RunOps(S &s, const Config &c, const Options &o) {
  Operations<S> ops(s, c);
  for (const std::string &op : o.ops) {
    if (op == "Summary") {
      Summarizer<S> sum(s);
      std::printf("SUMMARY impl=%s %s\n", o.impl.c_str(), SummaryFields(sum.Run()).c_str());
      std::fflush(stdout);
      continue;
    }
    for (int64_t i = 1; i <= o.iterations; i++) {
      Counters before = CountersOf(s);
      double cpu0 = ThreadCpuMs();
      double t0 = NowMs();
      int64_t count = 0;
      ops.Run(op, &count);
      double ms = NowMs() - t0;
      double cpu_ms = ThreadCpuMs() - cpu0;
      double commit_ms = 0;
      uint64_t written = 0;
      if (o.many || i == o.iterations) {
        written = PendingRecords(s);
        double t1 = NowMs();
        s.Commit();
        commit_ms = NowMs() - t1;
      }
      Counters after = CountersOf(s);
      std::printf("ITER impl=%s op=%s iter=%" PRId64 " ms=%.3f commit_ms=%.3f count=%" PRId64
                  " faulted=%" PRIu64 " written=%" PRIu64 " bytes=%" PRIu64
                  " gc_ms=0 cpu_ms=%.3f\n",
                  o.impl.c_str(), op.c_str(), i, ms, commit_ms, count,
                  after.faulted - before.faulted, written, after.bytes - before.bytes, cpu_ms);
      std::fflush(stdout);
    }
  }
}

int Main(int argc, char **argv) {
  Options o = Parse(argc, argv);
  if (o.impl == "transient") {
    std::optional<Config> c = ConfigNamed(o.config, o.conns);
    if (!c)
      Usage("no configuration '" + o.config + "' with " + std::to_string(o.conns) + " connections");
    TransientDb db;
    Generate(db, *c, o, false);
    RunOps(db, *c, o);
    return 0;
  }
  std::string error;
  std::unique_ptr<KvDb> kv = KvDb::Open(o.dir, o.command == "gen", &error);
  if (!kv) {
    std::fprintf(stderr, "cairn-oo7-peer: %s\n", error.c_str());
    return 1;
  }
  if (o.command == "gen") {
    std::optional<Config> c = ConfigNamed(o.config, o.conns);
    if (!c)
      Usage("no configuration '" + o.config + "' with " + std::to_string(o.conns) + " connections");
    kv->meta().config = c->name;
    kv->meta().conns = c->conn_per_atomic;
    kv->meta().seed = o.seed;
    Generate(*kv, *c, o, true);
    return 0;
  }
  std::optional<Config> c = ConfigNamed(kv->meta().config, kv->meta().conns);
  if (!c) {
    std::fprintf(stderr, "cairn-oo7-peer: %s holds an unknown configuration '%s'\n", o.dir.c_str(),
                 kv->meta().config.c_str());
    return 1;
  }
  if (o.config_given && (o.config != c->name)) {
    std::fprintf(stderr, "cairn-oo7-peer: %s holds the %s configuration, not %s\n", o.dir.c_str(),
                 c->name.c_str(), o.config.c_str());
    return 1;
  }
  o.impl = "kv";
  RunOps(*kv, *c, o);
  return 0;
}

}  // namespace
}  // namespace oo7

int main(int argc, char **argv) { return oo7::Main(argc, argv); }

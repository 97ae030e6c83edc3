// cairn-stdbench: std.btree and std.map beside C++'s std::map and std::unordered_map.
//
// A million int keys (SplitMix64 from seed 1, as std.random makes them) are inserted, with their
// positions as values, then each is looked up, in a BTree[int, int] and a HashMap[int, int]
// (stdbench.cairn, built with `cairn build -O2` by the `cairn` beside this program) and, in this
// process, in a std::map<int64_t, int64_t> and a std::unordered_map<int64_t, int64_t>. The Cairn
// program times itself with std.time's monotonic clock, so compilation and process start are not
// measured; each side's best of --runs counts. Then the BTree is committed to a database, and a
// fresh process opens it, looks every key up once (faulting the pages in), then in 5 rounds
// looks them up in it and in a transient tree built alike in that process: the fastest pass of
// each counts. The last line is
//   RESULT stdbench btree_ratio=<cairn/std::map> hashmap_ratio=<cairn/unordered_map>
//          btree_persistent_ratio=<resident persistent lookups / transient lookups>
// (goals: <= 1.5, <= 1.5 and <= 1.1). Insert and lookup times are summed for the first two.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "process.h"

#ifndef CAIRN_STDBENCH_PROGRAM
#define CAIRN_STDBENCH_PROGRAM "stdbench.cairn"
#endif

namespace {

using cairn::bench::RunResult;

constexpr double kGoalRatio = 1.5;
constexpr double kPersistentGoal = 1.1;

struct Options {
  int64_t keys = 1000000;
  int runs = 3;
  bool keep = false;
};

// SplitMix64, as std.random's next() (docs/stdlib.md).
std::vector<int64_t> Keys(int64_t n) {
  std::vector<int64_t> keys(static_cast<size_t>(n));
  uint64_t state = 1;
  for (int64_t &k : keys) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    k = static_cast<int64_t>(z ^ (z >> 31));
  }
  return keys;
}

struct Times {
  double insert = -1, lookup = -1;  // seconds, best of the runs
  int64_t sum = 0;                  // of the looked-up values (a checksum)
  double total() const { return insert + lookup; }
};

void Best(Times *t, double insert, double lookup) {
  t->insert = t->insert < 0 ? insert : std::min(t->insert, insert);
  t->lookup = t->lookup < 0 ? lookup : std::min(t->lookup, lookup);
}

template <class Map>
void TimeCpp(const std::vector<int64_t> &keys, Times *t) {
  Map m;
  const double t0 = cairn::bench::NowSeconds();
  for (size_t i = 0; i < keys.size(); i++) m[keys[i]] = static_cast<int64_t>(i);
  const double t1 = cairn::bench::NowSeconds();
  int64_t sum = 0;
  for (int64_t k : keys) sum += m.find(k)->second;
  const double t2 = cairn::bench::NowSeconds();
  Best(t, t1 - t0, t2 - t1);
  t->sum = sum;
}

// The value of `key=` in a line of the Cairn program's output (-1 if absent).
int64_t Field(const std::string &out, const std::string &key) {
  const std::string k = key + "=";
  size_t at = 0;
  while ((at = out.find(k, at)) != std::string::npos) {
    if (at == 0 || out[at - 1] == ' ' || out[at - 1] == '\n')
      return std::strtoll(out.c_str() + at + k.size(), nullptr, 10);
    at += k.size();
  }
  return -1;
}

bool RunCairn(const std::vector<std::string> &argv, const std::string &dir, std::string *out) {
  RunResult r = cairn::bench::Run(argv, dir);
  if (!r.ok()) {
    std::fprintf(stderr, "cairn-stdbench: %s %s failed (status %d):\n%s%s", argv[0].c_str(),
                 argv[1].c_str(), r.status, r.out.c_str(), r.err.c_str());
    return false;
  }
  *out = r.out;
  return true;
}

int Usage() {
  std::fprintf(stderr,
               "usage: cairn-stdbench [--keys N] [--runs N] [--keep]\n"
               "  --keys N   keys inserted and looked up (default 1000000; 10000 is a smoke test)\n"
               "  --runs N   runs of each side, the best counts (default 3)\n"
               "  --keep     keep the temporary folder (the program and its store)\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--keys") == 0 && i + 1 < argc) {
      o.keys = std::max<int64_t>(1, std::atoll(argv[++i]));
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      o.runs = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      o.keep = true;
    } else {
      return Usage();
    }
  }
  const std::string cairn = cairn::bench::SelfDir() + "/cairn";
  const std::string dir = cairn::bench::MakeTempDir("cairn-stdbench");
  if (dir.empty()) {
    std::fprintf(stderr, "cairn-stdbench: cannot make a temporary folder\n");
    return 1;
  }
  const std::string exe = dir + "/stdbench";
  RunResult b = cairn::bench::Run({cairn, "build", "-O2", CAIRN_STDBENCH_PROGRAM, "-o", exe}, dir);
  if (!b.ok()) {
    std::fprintf(stderr, "cairn-stdbench: stdbench.cairn does not build:\n%s%s", b.out.c_str(),
                 b.err.c_str());
    return 1;
  }
  std::printf(
      "stdbench: %lld int keys inserted then looked up; Cairn (cairn build -O2) against "
      "C++ (this program), best of %d runs\n",
      static_cast<long long>(o.keys), o.runs);
  std::printf("load average %.2f at the start\n", cairn::bench::LoadAverage());

  const std::vector<int64_t> keys = Keys(o.keys);
  const std::string n = std::to_string(o.keys);
  const int64_t expected_sum = o.keys * (o.keys - 1) / 2;
  Times btree, hashmap, map, umap;
  for (int run = 0; run < o.runs; run++) {
    std::string out;
    if (!RunCairn({exe, "transient", n}, dir, &out)) return 1;
    Best(&btree, Field(out, "btree_insert_ns") * 1e-9, Field(out, "btree_lookup_ns") * 1e-9);
    Best(&hashmap, Field(out, "hashmap_insert_ns") * 1e-9, Field(out, "hashmap_lookup_ns") * 1e-9);
    btree.sum = hashmap.sum = Field(out, "sum");
    TimeCpp<std::map<int64_t, int64_t>>(keys, &map);
    TimeCpp<std::unordered_map<int64_t, int64_t>>(keys, &umap);
  }
  if (btree.sum != expected_sum || map.sum != expected_sum || umap.sum != expected_sum) {
    std::fprintf(stderr, "cairn-stdbench: checksums differ: %lld %lld %lld, expected %lld\n",
                 (long long)btree.sum, (long long)map.sum, (long long)umap.sum,
                 (long long)expected_sum);
    return 1;
  }

  // Persistence: commit once, then the best of the runs of a fresh process's lookups.
  std::string out;
  const std::string store = "CAIRN_STORE=" + dir + "/store";
  if (!RunCairn({"env", store, exe, "persist-create", n}, dir, &out)) return 1;
  double transient = -1, persistent = -1, cold = -1;
  for (int run = 0; run < o.runs; run++) {
    if (!RunCairn({"env", store, exe, "persist-lookup", n}, dir, &out)) return 1;
    if (Field(out, "sum") != expected_sum || Field(out, "sum2") != expected_sum) {
      std::fprintf(stderr, "cairn-stdbench: persistent lookups gave a wrong checksum:\n%s",
                   out.c_str());
      return 1;
    }
    auto best = [](double *b, double v) { *b = *b < 0 ? v : std::min(*b, v); };
    best(&transient, Field(out, "transient_lookup_ns") * 1e-9);
    best(&persistent, Field(out, "persistent_lookup_ns") * 1e-9);
    best(&cold, Field(out, "persistent_cold_ns") * 1e-9);
  }

  std::printf("%-34s %10s %10s %10s\n", "", "insert (s)", "lookup (s)", "total (s)");
  auto row = [](const char *what, const Times &t) {
    std::printf("%-34s %10.3f %10.3f %10.3f\n", what, t.insert, t.lookup, t.total());
  };
  row("Cairn std.btree BTree[int, int]", btree);
  row("C++ std::map<int64_t, int64_t>", map);
  row("Cairn std.map HashMap[int, int]", hashmap);
  row("C++ std::unordered_map", umap);
  std::printf(
      "persistent BTree lookups: %.3f s with the pages resident (%.3f s the first pass, "
      "faulting them in); a transient one's: %.3f s\n",
      persistent, cold, transient);
  const double btree_ratio = btree.total() / map.total();
  const double hashmap_ratio = hashmap.total() / umap.total();
  const double persistent_ratio = persistent / transient;
  std::printf("load average %.2f at the end\n", cairn::bench::LoadAverage());
  auto goal = [](const char *what, double v, double g) {
    std::printf("goal: %s <= %.1f: %s (%.3f)\n", what, g, v <= g ? "met" : "NOT MET", v);
  };
  goal("BTree / std::map", btree_ratio, kGoalRatio);
  goal("HashMap / std::unordered_map", hashmap_ratio, kGoalRatio);
  goal("persistent / transient BTree lookups", persistent_ratio, kPersistentGoal);
  if (o.keep)
    std::printf("kept: %s\n", dir.c_str());
  else
    cairn::bench::RemoveTree(dir);
  std::printf("RESULT stdbench btree_ratio=%.3f hashmap_ratio=%.3f btree_persistent_ratio=%.3f\n",
              btree_ratio, hashmap_ratio, persistent_ratio);
  return 0;
}

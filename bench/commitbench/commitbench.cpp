// cairn-commitbench: a commit costs what changed, a collection what is transient (issue 11).
//
//   commit: the median time of a one-word commit (begin; change an integer field of a persistent
//           object; commit) with 16 MiB of live transient data, then with 256 MiB. Such a
//           commit reaches nothing new, so it runs no stabilization and its cost should not
//           grow with the transient heap.
//   gc:     the median time of an ordinary collection (cairn_collect, 16 MiB of live transient
//           data) with no clean persistent page resident, then with 20,000 (a database of
//           40,000 leaves just committed: its pages are resident and clean). Ordinary
//           collections do not read clean persistent pages, so the second should cost about
//           what the first does.
//   runs:   the median time of a commit that writes 10 random slots of a persistent reference
//           array of 1,000,000 (a large object: a run of 977 pages), against one that writes a
//           word in each of 10 random small persistent objects (the leaves above). A run's
//           pages are tracked one by one (D16 of persist/persistence.h), so the first should
//           cost about what the second does, not in proportion to the array.
// Options: --quick (smaller sizes, a smoke test: its ratios mean little), --keep (keep the
// store, whose path is printed). The store is made in a temporary folder and removed after.
// Last line: RESULT commitbench commit_heap_ratio=<256 MiB / 16 MiB> gc_resident_ratio=<20,000 /
// 0> run_small_ratio=<run / small objects>; goals: at most 1.5 for all three.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cairn/gc.h"
#include "cairn/persist.h"
#include "cairn/type_builder.hpp"

namespace {

using cairn::Field;

// A transient list node of 64 bytes with its header: one reference and six integers.
struct Cell {
  Cell *next;
  int64_t pad[6];
};
constexpr cairn_field kCellFields[] = {
    Field("next", offsetof(Cell, next), CAIRN_KIND_REF),
    Field("pad", offsetof(Cell, pad), CAIRN_KIND_I64, 6),
};
constexpr cairn_type kCellType = cairn::PlainType<kCellFields>("commitbench.Cell", sizeof(Cell));

// The persistent root: a counter changed by each one-word commit, and the leaves' index.
struct Root {
  void *leaves;
  int64_t counter;
  void *big;  // the reference array of the runs' measurement
};
constexpr cairn_field kRootFields[] = {
    Field("leaves", offsetof(Root, leaves), CAIRN_KIND_REF),
    Field("counter", offsetof(Root, counter), CAIRN_KIND_I64),
    Field("big", offsetof(Root, big), CAIRN_KIND_REF),
};
constexpr cairn_type kRootType = cairn::PlainType<kRootFields>("commitbench.Root", sizeof(Root));

constexpr int64_t kLeafLength = 499;  // two leaves fill a page

void Check(cairn_status s, const char *what) {
  if (s == CAIRN_OK) return;
  std::fprintf(stderr, "commitbench: %s: %s: %s\n", what, cairn_status_name(s), cairn_last_error());
  std::exit(1);
}

double NowS() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Live transient data: a list of cells held by an exact root.
void *transient_list = nullptr;

__attribute__((noinline)) void GrowTransient(uint64_t bytes) {
  uint64_t cells = bytes / (sizeof(Cell) + 8);
  for (uint64_t i = 0; i < cells; i++) {
    auto *c = static_cast<Cell *>(cairn_malloc_typed(&kCellType));
    c->pad[0] = int64_t(i);
    c->next = static_cast<Cell *>(transient_list);
    transient_list = c;
  }
}

// Median seconds of `runs` one-word commits.
double OneWordCommits(cairn_db *db, int runs, uint64_t *stabilizations) {
  std::vector<double> t;
  cairn_persist_stats before{}, after{};
  cairn_persist_get_stats(&before);
  for (int i = 0; i < runs; i++) {
    double t0 = NowS();
    Check(cairn_txn_begin(), "begin");
    void *r = nullptr;
    Check(cairn_db_get_root(db, &r), "get root");
    static_cast<Root *>(r)->counter++;
    Check(cairn_txn_commit(), "commit");
    t.push_back(NowS() - t0);
  }
  cairn_persist_get_stats(&after);
  *stabilizations = after.stabilizations - before.stabilizations;
  return Median(t);
}

double Collections(int runs) {
  std::vector<double> t;
  for (int i = 0; i < runs; i++) {
    double t0 = NowS();
    cairn_collect();
    t.push_back(NowS() - t0);
  }
  return Median(t);
}

__attribute__((noinline)) void AddLeaves(void *index, int64_t from, int64_t to) {
  for (int64_t k = from; k < to; k++) {
    void *leaf = cairn_malloc_array(&cairn_i64_array_type, kLeafLength);
    auto *e = reinterpret_cast<int64_t *>(static_cast<char *>(leaf) + CAIRN_ARRAY_DATA_OFFSET);
    for (int64_t j = 0; j < kLeafLength; j++) e[j] = k + j;
    reinterpret_cast<void **>(static_cast<char *>(index) + CAIRN_ARRAY_DATA_OFFSET)[k] = leaf;
  }
}

void **Slots(void *array) {
  return reinterpret_cast<void **>(static_cast<char *>(array) + CAIRN_ARRAY_DATA_OFFSET);
}

// Median seconds of `runs` commits of 10 random writes each: into the big array's slots (each
// made to refer to a random leaf), or into the first word of 10 random leaves.
double TenWriteCommits(cairn_db *db, int runs, bool into_run, int64_t leaves, uint64_t *seed) {
  auto next = [seed] {
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return *seed >> 33;
  };
  std::vector<double> t;
  for (int i = 0; i < runs; i++) {
    double t0 = NowS();
    Check(cairn_txn_begin(), "begin");
    void *r = nullptr;
    Check(cairn_db_get_root(db, &r), "get root");
    auto *root = static_cast<Root *>(r);
    for (int j = 0; j < 10; j++) {
      void *leaf = Slots(root->leaves)[next() % uint64_t(leaves)];
      if (into_run)
        Slots(root->big)[next() % cairn_array_length(root->big)] = leaf;
      else
        reinterpret_cast<int64_t *>(static_cast<char *>(leaf) + CAIRN_ARRAY_DATA_OFFSET)[0]++;
    }
    Check(cairn_txn_commit(), "commit");
    t.push_back(NowS() - t0);
  }
  return Median(t);
}

}  // namespace

int main(int argc, char **argv) {
  bool quick = false, keep = false;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      keep = true;
    } else {
      std::fprintf(stderr, "usage: cairn-commitbench [--quick] [--keep]\n");
      return 2;
    }
  }
  const uint64_t small = uint64_t(quick ? 2 : 16) << 20, large = uint64_t(quick ? 32 : 256) << 20;
  const int64_t pages = quick ? 2000 : 20000;
  const int runs = quick ? 9 : 41;

  char tmpl[] = "/tmp/cairn-commitbench-XXXXXX";
  if (!mkdtemp(tmpl)) {
    std::perror("commitbench: mkdtemp");
    return 1;
  }
  std::string store = std::string(tmpl) + "/store";
  Check(cairn_init(nullptr), "cairn_init");
  const cairn_type *types[] = {&kCellType, &kRootType};
  Check(cairn_register_types(types, 2), "register types");
  cairn_add_exact_root(&transient_list);
  cairn_persist_options opts{};
  opts.store_dir = store.c_str();
  opts.durability = 1;  // async: the runtime's work, not the disk's sync, is measured
  Check(cairn_store_open(&opts), "cairn_store_open");
  cairn_db *db = nullptr;
  Check(cairn_db_create("bench", &db), "create");
  Check(cairn_txn_begin(), "begin");
  Check(cairn_db_set_root(db, cairn_malloc_typed(&kRootType)), "set root");
  Check(cairn_txn_commit(), "commit");

  // Commits.
  GrowTransient(small);
  cairn_collect();
  uint64_t stab_small = 0, stab_large = 0;
  OneWordCommits(db, 3, &stab_small);  // warm up
  double commit_small = OneWordCommits(db, runs, &stab_small);
  GrowTransient(large - small);
  cairn_collect();
  double commit_large = OneWordCommits(db, runs, &stab_large);
  std::printf(
      "one-word commit: %.1f us with %llu MiB live transient, %.1f us with %llu MiB "
      "(stabilizations: %llu, %llu)\n",
      commit_small * 1e6, static_cast<unsigned long long>(small >> 20), commit_large * 1e6,
      static_cast<unsigned long long>(large >> 20), static_cast<unsigned long long>(stab_small),
      static_cast<unsigned long long>(stab_large));

  // Collections.
  transient_list = nullptr;
  cairn_collect();
  GrowTransient(small);
  cairn_collect();
  double gc_none = Collections(runs);
  Check(cairn_txn_begin(), "begin");
  void *r = nullptr;
  Check(cairn_db_get_root(db, &r), "get root");
  static_cast<Root *>(r)->leaves = cairn_malloc_array(&cairn_ref_array_type, 2 * pages);
  for (int64_t from = 0; from < 2 * pages; from += 2000) {
    Check(cairn_db_get_root(db, &r), "get root");
    AddLeaves(static_cast<Root *>(r)->leaves, from, std::min(2 * pages, from + 2000));
    Check(cairn_txn_chain(), "chain");
  }
  Check(cairn_txn_commit(), "commit");
  r = nullptr;
  cairn_collect();  // may also release frames (Figure 4), once
  cairn_persist_stats ps{};
  cairn_persist_get_stats(&ps);
  double gc_resident = Collections(runs);
  std::printf("collection: %.1f us with no clean persistent page resident, %.1f us with %llu\n",
              gc_none * 1e6, gc_resident * 1e6, static_cast<unsigned long long>(ps.resident_pages));

  // Runs: the big array refers to leaves; ten-write commits into it and into leaves, in turn.
  const int64_t big = quick ? 100000 : 1000000;
  Check(cairn_txn_begin(), "begin");
  Check(cairn_db_get_root(db, &r), "get root");
  static_cast<Root *>(r)->big = cairn_malloc_array(&cairn_ref_array_type, big);
  for (int64_t k = 0; k < big; k++)
    Slots(static_cast<Root *>(r)->big)[k] = Slots(static_cast<Root *>(r)->leaves)[k % (2 * pages)];
  Check(cairn_txn_commit(), "commit");
  r = nullptr;
  uint64_t seed = 42;
  TenWriteCommits(db, 3, true, 2 * pages, &seed);  // warm up: the run and leaves resident
  TenWriteCommits(db, 3, false, 2 * pages, &seed);
  std::vector<double> in_run, in_small;
  for (int round = 0; round < 3; round++) {
    in_run.push_back(TenWriteCommits(db, runs, true, 2 * pages, &seed));
    in_small.push_back(TenWriteCommits(db, runs, false, 2 * pages, &seed));
  }
  const double run_commit = Median(in_run), small_commit = Median(in_small);
  std::printf(
      "ten-write commit: %.1f us into a reference array of %lld (a run of %lld pages), %.1f us "
      "into 10 small objects\n",
      run_commit * 1e6, static_cast<long long>(big),
      static_cast<long long>((16 + big * 8 + 8191) / 8192), small_commit * 1e6);

  if (keep)
    std::printf("store kept: %s\n", store.c_str());
  else
    std::filesystem::remove_all(tmpl);
  std::printf(
      "RESULT commitbench commit_heap_ratio=%.2f gc_resident_ratio=%.2f run_small_ratio=%.2f\n",
      commit_large / commit_small, gc_resident / gc_none, run_commit / small_commit);
  return 0;
}

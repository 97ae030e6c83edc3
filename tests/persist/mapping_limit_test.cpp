// The mapping limit: every change of protection on a page can split a kernel mapping, and Linux
// allows 65,530 per process (vm.max_map_count). A database of more pages than that, touched in
// scattered order (reads, then writes to every seventh leaf, then a commit), still works, with
// /proc/self/maps below the limit and within the runtime's budget
// (cairn_persist_options.max_protection_runs) - or, if some limit remains, the program stops
// with a clear error before anything is damaged. A smaller database with a small budget shows
// the budget is kept.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "child.h"
#include "leaf_db.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr uint64_t kMaxMapCount = 65530;  // Linux's default vm.max_map_count
constexpr uint64_t kDefaultRuns = 30000;  // cairn_persist_options.max_protection_runs default
constexpr uint64_t kMapSlack = 64;        // mappings the process may add meanwhile (threads...)

double Since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// args: N SEED MAX_PROTECTION_RUNS EXPECTED WRITES. Reads every leaf in a random order
// (checking it against the modifications EXPECTED), then writes to every leaf of WRITES in a
// random order, then commits; samples the number of mappings all along.
PERSIST_CHILD(Mapping_Scatter) {
  int64_t n = args.Int(0);
  Mods expected(args.args.at(3)), writes(args.args.at(4));
  cairn_persist_options opts{};
  opts.max_protection_runs = static_cast<uint64_t>(args.Int(2));
  OpenStore(args, opts);
  cairn_db *db = OpenDb("leaves");
  CK_OK(cairn_txn_begin());
  void *index = Root(db);
  CK_EQ(cairn_array_length(index), static_cast<size_t>(n));
  size_t base = MapCount(), most = base;
  Say("maps_base=%zu\n", base);
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(args.Int(1)));

  auto t0 = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < n; i++) {
    int64_t k = order[i];
    std::string bad = CheckLeaf(ArrayData<void *>(index)[k], k, expected);
    CK(bad.empty()) << bad;
    if (i % 1000 == 999) most = std::max(most, MapCount());
  }
  most = std::max(most, MapCount());
  Say("read_seconds=%.2f maps_after_read=%zu\n", Since(t0), MapCount());
  SayStats("read_", Stats());

  t0 = std::chrono::steady_clock::now();
  int64_t written = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t k = order[i];
    if (!writes.Has(k)) continue;
    ModifyLeaf(ArrayData<void *>(index)[k], k);
    if (++written % 1000 == 0) most = std::max(most, MapCount());
  }
  most = std::max(most, MapCount());
  Say("writes=%ld write_seconds=%.2f maps_after_writes=%zu\n", written, Since(t0), MapCount());
  t0 = std::chrono::steady_clock::now();
  CK_OK(cairn_txn_commit());
  Say("COMMITTED commit_seconds=%.2f\n", Since(t0));
  most = std::max(most, MapCount());
  SayStats("commit_", LastCommitStats());
  Say("maps_max=%zu maps_final=%zu\n", most, MapCount());
  return 0;
}

class PersistMappingLimit : public PersistTest {
 protected:
  // Scatters over the leaf database of n leaves (expecting the modifications `before`, writing
  // `writes`) with `runs` as the budget (0: the default). Returns the modifications the
  // database holds afterwards. `must_work`: a clear error is not an acceptable outcome.
  std::string Scatter(int64_t n, uint64_t runs, const std::string &before,
                      const std::string &writes, bool must_work) {
    ChildResult r =
        Run("Mapping_Scatter", {std::to_string(n), "12345", std::to_string(runs), before, writes});
    uint64_t base = ValueOf(r, "maps_base"), most = ValueOf(r, "maps_max");
    uint64_t budget = runs ? runs : kDefaultRuns;
    std::printf(
        "scatter over %ld pages, writing %s: %.1f s; maps: base %lu, max %lu (budget "
        "%lu, limit %lu); pages faulted %s, evicted %s, written %s\n",
        n / kLeavesPerPage, writes.c_str(), r.seconds, base, most, budget, kMaxMapCount,
        r.Value("read_pages_faulted").c_str(), r.Value("read_pages_evicted").c_str(),
        r.Value("commit_pages_written").c_str());
    bool committed = r.out.find("COMMITTED") != std::string::npos;
    std::string after = committed ? before + "," + writes : before;
    if (r.ok() || must_work) {
      EXPECT_CHILD_OK(r);
      EXPECT_LT(most, kMaxMapCount);
      EXPECT_LE(most, base + budget + kMapSlack) << "the protection budget was exceeded";
    } else {
      // A limit remains: it must be a clear error, and nothing damaged. (The runtime's fatal
      // errors end with abort(); a fault-time type mismatch exits with status 1.)
      std::string all = r.out + r.err;
      EXPECT_TRUE(r.signal == 0 || r.signal == SIGABRT) << "a crash\n" << r.Describe();
      EXPECT_EQ(r.err.find("CHECK FAILED"), std::string::npos) << r.Describe();
      EXPECT_TRUE(all.find("max_protection_runs") != std::string::npos ||
                  all.find("max_map_count") != std::string::npos)
          << "the error does not say which limit\n"
          << r.Describe();
      if (most) {
        EXPECT_LT(most, kMaxMapCount);
      }
      std::printf("outcome: stopped with a clear error: %s\n", r.err.c_str());
      EXPECT_CHILD_OK(Run("LeafDb_StoreCheck"));
    }
    EXPECT_CHILD_OK(Run("LeafDb_Verify", {std::to_string(n), after, "0"}));
    return after;
  }

  void Build(int64_t n) {
    ChildResult w =
        Run("LeafDb_Write", {std::to_string(n), std::to_string(Scaled(10000, 100)), "0"});
    ASSERT_CHILD_OK(w);
    std::printf("built %ld leaves (%ld pages) in %.1f s\n", n, n / kLeavesPerPage, w.seconds);
  }
};

TEST_F(PersistMappingLimit, MorePagesThanMaxMapCountTouchedInScatteredOrder) {
  // 140,000 leaves: 70,000 pages (547 MiB) in the normal build.
  int64_t n = Scaled(140000, 1100);  // (an index of two pages or more)
  ASSERT_NO_FATAL_FAILURE(Build(n));
  // Reads everywhere and writes to every 20th leaf (3,500 pages): must work.
  std::string mods = Scatter(n, 0, "-", "20:3", true);
  // Writes to every third leaf (23,000 pages, scattered): works, or stops with a clear error.
  Scatter(n, 0, mods, "3:1", false);
}

TEST_F(PersistMappingLimit, ProtectionRunBudgetIsKept) {
  int64_t n = Scaled(6000, 1200);
  ASSERT_NO_FATAL_FAILURE(Build(n));
  // 3,000 pages (or 600) read with a budget of 300 (or 60) runs, writing to 60 (or 12) leaves.
  Scatter(n, static_cast<uint64_t>(Scaled(300, 60)), "-", "100:7", true);
}

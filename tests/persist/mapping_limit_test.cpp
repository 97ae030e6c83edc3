// The mapping limit: every change of protection on a page can split a kernel mapping, and Linux
// allows 65,530 per process (vm.max_map_count). A database of more pages than that, touched in
// scattered order (reads, then writes to every seventh leaf, then a commit), still works, with
// /proc/self/maps below the limit and within the runtime's budget
// (cairn_persist_options.max_protection_runs) - or, if some limit remains, the program stops
// with a clear error before anything is damaged. A smaller database with a small budget shows
// the budget is kept.
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

// args: N SEED MAX_PROTECTION_RUNS MOD REM. Reads every leaf in a random order, then writes
// to each leaf k with k % MOD == REM in a random order, then commits; samples the number of
// mappings all along.
PERSIST_CHILD(Mapping_Scatter) {
  int64_t n = args.Int(0), mod = args.Int(3), rem = args.Int(4);
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
    std::string bad = CheckLeaf(ArrayData<void *>(index)[k], k, 0, 0);
    CK(bad.empty()) << bad;
    if (i % 1000 == 999) most = std::max(most, MapCount());
  }
  most = std::max(most, MapCount());
  Say("read_seconds=%.2f maps_after_read=%zu\n", Since(t0), MapCount());
  SayStats("read_", Stats());

  t0 = std::chrono::steady_clock::now();
  int64_t writes = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t k = order[i];
    if (!LeafModified(k, mod, rem)) continue;
    ModifyLeaf(ArrayData<void *>(index)[k], k);
    if (++writes % 1000 == 0) most = std::max(most, MapCount());
  }
  most = std::max(most, MapCount());
  Say("writes=%ld write_seconds=%.2f maps_after_writes=%zu\n", writes, Since(t0), MapCount());
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
  // Builds the leaf database, scatters over it with `runs` as the budget (0: the default), and
  // checks it afterwards. `must_work`: a clear error is not an acceptable outcome either.
  void Scatter(int64_t n, uint64_t runs, bool must_work) {
    int64_t chunk = Scaled(10000, 100);
    auto t0 = std::chrono::steady_clock::now();
    ChildResult w = Run("LeafDb_Write", {std::to_string(n), std::to_string(chunk), "0"});
    ASSERT_CHILD_OK(w);
    ChildResult r = Run("Mapping_Scatter", {std::to_string(n), "12345", std::to_string(runs),
                                            "7", "3"});
    uint64_t base = ValueOf(r, "maps_base"), most = ValueOf(r, "maps_max");
    uint64_t budget = runs ? runs : kDefaultRuns;
    std::printf("leaves=%ld pages=%ld write %.1f s, scatter %.1f s; maps: base %lu, max %lu "
                "(budget %lu, limit %lu); %s %s\n",
                n, n / kLeavesPerPage, w.seconds, r.seconds, base, most, budget, kMaxMapCount,
                r.Value("read_pages_faulted").c_str(), r.Value("commit_pages_written").c_str());
    RecordProperty("maps_max", std::to_string(most));
    if (r.ok() || must_work) {
      ASSERT_CHILD_OK(r);
      EXPECT_LT(most, kMaxMapCount);
      EXPECT_LE(most, base + budget + kMapSlack) << "the protection budget was exceeded";
      ASSERT_CHILD_OK(Run("LeafDb_Verify", {std::to_string(n), "7", "3", "0"}));
    } else {
      // A limit remains: it must be a clear error (not a crash), and nothing damaged.
      std::string all = r.out + r.err;
      EXPECT_EQ(r.signal, 0) << r.Describe();
      EXPECT_EQ(r.err.find("CHECK FAILED"), std::string::npos) << r.Describe();
      EXPECT_TRUE(all.find("max_protection_runs") != std::string::npos ||
                  all.find("max_map_count") != std::string::npos)
          << "the error does not say which limit\n" << r.Describe();
      bool committed = r.out.find("COMMITTED") != std::string::npos;
      ASSERT_CHILD_OK(Run("LeafDb_StoreCheck"));
      ASSERT_CHILD_OK(Run("LeafDb_Verify",
                          {std::to_string(n), committed ? "7" : "0", "3", "0"}));
      std::printf("outcome: stopped with a clear error: %s\n", r.err.c_str());
    }
    std::printf("total %.1f s\n", std::chrono::duration<double>(
                                      std::chrono::steady_clock::now() - t0).count());
  }
};

TEST_F(PersistMappingLimit, MorePagesThanMaxMapCountTouchedInScatteredOrder) {
  // 140,000 leaves: 70,000 pages (547 MiB) in the normal build.
  Scatter(Scaled(140000, 1000), 0, false);
}

TEST_F(PersistMappingLimit, ProtectionRunBudgetIsKept) {
  Scatter(Scaled(6000, 600), Scaled(300, 60), true);
}

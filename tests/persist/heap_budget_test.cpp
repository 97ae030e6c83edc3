// A database larger than the heap budget: with max_resident_pages small, clean persistent pages
// are dropped and faulted in again, the number loaded never exceeds the budget, memory stays
// bounded, and reads and writes are still right.
#include <algorithm>
#include <random>
#include <string>

#include "child.h"
#include "leaf_db.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

int64_t Leaves() { return Scaled(24000, 1200); }  // 12,000 pages (94 MiB), or 600
uint64_t Budget() { return static_cast<uint64_t>(Scaled(64, 16)); }
constexpr int64_t kModMod = 97, kModRem = 5;  // leaves modified by Budget_Read
const char kMods[] = "97:5";

}  // namespace

// Reads every leaf in order, then in a random order, then modifies a few and commits, under
// max_resident_pages = Budget().
PERSIST_CHILD(Budget_Read) {
  int64_t n = Leaves();
  cairn_persist_options opts{};
  opts.max_resident_pages = Budget();
  OpenStore(args, opts);
  cairn_db *db = OpenDb("leaves");
  CK_OK(cairn_txn_begin());
  void *index = Root(db);
  size_t rss_base = RssKiB(), rss_max = rss_base;
  uint64_t most_resident = 0;
  auto sample = [&] {
    cairn_persist_stats s = Stats();
    most_resident = std::max(most_resident, s.resident_pages);
    rss_max = std::max(rss_max, RssKiB());
  };
  for (int pass = 0; pass < 2; pass++) {
    std::vector<int64_t> order(n);
    for (int64_t k = 0; k < n; k++) order[k] = k;
    if (pass == 1) std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
    for (int64_t i = 0; i < n; i++) {
      int64_t k = order[i];
      std::string bad = CheckLeaf(ArrayData<void *>(index)[k], k, Mods("-"));
      CK(bad.empty()) << bad << " (pass " << pass << ")";
      if (i % 50 == 0) sample();
    }
    sample();
  }
  cairn_persist_stats s = Stats();
  Say("rss_base_kib=%zu rss_max_kib=%zu most_resident=%lu\n", rss_base, rss_max, most_resident);
  SayStats("read_", s);
  CK(most_resident <= Budget()) << most_resident << " pages loaded, budget " << Budget();
  CK(s.pages_evicted > 0) << "nothing was evicted";
  // Two passes over n / 2 pages with room for Budget() of them: each page faulted twice.
  uint64_t pages = n / kLeavesPerPage;
  CK(s.pages_faulted >= 2 * pages - Budget()) << s.pages_faulted << " faults for " << pages;
  // Loaded, cold, warmed and evicted pages: every frame's state, protection, counter and set
  // agree with the page table (D1, D7 of persist/persistence.h).
  CK_EQ(cairn_verify_heap(10), 0u);

  // Modified pages stay until the commit.
  for (int64_t k = 0; k < n; k++) {
    if (k % kModMod == kModRem) ModifyLeaf(ArrayData<void *>(index)[k], k);
  }
  CK_OK(cairn_txn_commit());
  SayStats("commit_", LastCommitStats());
  CK_EQ(cairn_verify_heap(10), 0u);
  CK(LastCommitStats().pages_written >= static_cast<uint64_t>(n / kModMod));
  if (!Stress() && !kAddressSanitizer) {
    // The database is ~n * 4 KB; what stays resident is a fraction of it.
    size_t db_kib = static_cast<size_t>(n) * 4;
    CK(rss_max - rss_base < db_kib / 2)
        << "memory grew by " << (rss_max - rss_base) << " KiB reading " << db_kib << " KiB";
  }
  return 0;
}

// Writes to every leaf page in one transaction under a budget a tenth of their number: modified
// pages do not count against the budget and are not evicted, so every page is read once, and
// the index (clean, used at every step) stays loaded.
int64_t WriteLeaves() { return Scaled(10000, 1000); }  // 5,000 pages, or 500
uint64_t WriteBudget() { return static_cast<uint64_t>(Scaled(500, 50)); }

PERSIST_CHILD(Budget_WriteAll) {
  int64_t n = WriteLeaves();
  cairn_persist_options opts{};
  opts.max_resident_pages = WriteBudget();
  OpenStore(args, opts);
  cairn_db *db = OpenDb("leaves");
  CK_OK(cairn_txn_begin());
  void *index = Root(db);
  for (int64_t k = 0; k < n; k++) ModifyLeaf(ArrayData<void *>(index)[k], k);
  cairn_persist_stats s = Stats();
  SayStats("", s);
  uint64_t pages = static_cast<uint64_t>(n / kLeavesPerPage);
  uint64_t index_pages = (static_cast<uint64_t>(n) * 8 + 16) / CAIRN_PAGE_SIZE + 1;
  CK(s.pages_faulted <= pages + index_pages + 10)
      << s.pages_faulted << " pages read for " << pages << " leaf pages and " << index_pages
      << " index pages";
  CK(s.write_faults >= pages);
  CK_EQ(s.pages_evicted, 0u);  // nothing clean beyond the index: nothing to evict
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_commit());
  CK_EQ(cairn_verify_heap(10), 0u);
  CK(LastCommitStats().pages_written >= pages);
  // Written back, the pages are clean again and the budget holds once more.
  CK(Stats().resident_pages <= WriteBudget()) << Stats().resident_pages;
  return 0;
}

// Eviction goes by recent use (CLOCK): reading every leaf once while reading leaf 0 (and the
// index) all along, under a budget of 64 pages, keeps the hot pages loaded: each page is read
// from the store once. (Evicting in the order pages were loaded would read leaf 0's page again
// every 64 pages.)
int64_t HotLeaves() { return Scaled(4000, 400); }  // 2,000 pages, or 200

PERSIST_CHILD(Budget_HotPage) {
  int64_t n = HotLeaves();
  cairn_persist_options opts{};
  opts.max_resident_pages = 64;
  OpenStore(args, opts);
  cairn_db *db = OpenDb("leaves");
  CK_OK(cairn_txn_begin());
  void *index = Root(db);
  for (int64_t k = 0; k < n; k++) {
    std::string bad = CheckLeaf(ArrayData<void *>(index)[k], k, Mods("-"));
    CK(bad.empty()) << bad;
    bad = CheckLeaf(ArrayData<void *>(index)[0], 0, Mods("-"));
    CK(bad.empty()) << bad;
  }
  cairn_persist_stats s = Stats();
  SayStats("", s);
  uint64_t pages = static_cast<uint64_t>(n / kLeavesPerPage);
  uint64_t index_pages = (static_cast<uint64_t>(n) * 8 + 16) / CAIRN_PAGE_SIZE + 1;
  CK(s.pages_evicted > 0) << "nothing was evicted";
  CK(s.pages_rereferenced > 0) << "no cold page was touched again";
  // In load order, leaf 0's page and the index (a run of 4 pages) would be read again about every
  // 64 pages: 5 x 2,000 / 64 = 156 more reads. A few are allowed for the hand's turns.
  CK(s.pages_faulted <= pages + index_pages + 16)
      << s.pages_faulted << " pages read for " << pages << " leaf pages and " << index_pages
      << " index pages";
  CK(s.resident_pages <= 64);
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

class PersistHeapBudget : public PersistTest {};

TEST_F(PersistHeapBudget, RecentlyUsedPagesStayLoaded) {
  std::string n = std::to_string(HotLeaves());
  ASSERT_CHILD_OK(Run("LeafDb_Write", {n, std::to_string(Scaled(2000, 100)), "64"}));
  ChildResult r = Run("Budget_HotPage");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
}

TEST_F(PersistHeapBudget, WritesToTenTimesTheBudgetReadEachPageOnce) {
  std::string n = std::to_string(WriteLeaves()), budget = std::to_string(WriteBudget());
  ASSERT_CHILD_OK(Run("LeafDb_Write", {n, std::to_string(Scaled(2000, 100)), budget}));
  ChildResult r = Run("Budget_WriteAll");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
  ASSERT_CHILD_OK(Run("LeafDb_Verify", {n, "1:0", budget}));
}

TEST_F(PersistHeapBudget, DatabaseLargerThanTheBudgetIsEvictedAndFaultedAgain) {
  std::string n = std::to_string(Leaves()), budget = std::to_string(Budget());
  ASSERT_CHILD_OK(Run("LeafDb_Write", {n, std::to_string(Scaled(2000, 100)), budget}));
  ChildResult r = Run("Budget_Read");
  ASSERT_CHILD_OK(r);
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(Run("LeafDb_Verify", {n, kMods, budget}));
}

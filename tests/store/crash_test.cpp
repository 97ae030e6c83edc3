// Crash test: a child process commits transactions of random page sets, each stamping its
// commit number into all its pages and into the root, and reports each acknowledged commit on a
// pipe; we kill it with SIGKILL at random moments, reopen, and check that every acknowledged
// commit is fully there, that no commit is partly there, and that every checksum holds.
//
// SIGKILL is a crash of the process, which both durability modes promise to survive (cairn/
// store.h), so the kills alternate between children in `sync` and in `async` mode and every
// acknowledged commit must survive in both. (Power loss, which only `sync` survives, cannot be
// simulated here.) $CAIRN_CRASH_KILLS sets the number of kills (default 200);
// $CAIRN_CRASH_VERBOSE=1 prints how long each start-up and reopen took.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>
#include <thread>

#include "cairn/store.h"
#include "child_process.h"
#include "crash_model.h"
#include "temp_dir.h"

namespace cairn::store {
namespace {

using cairn::test::ChildProcess;
using cairn::test::TempDir;
using namespace std::chrono_literals;

// The state the committed prefix 1..last must have produced.
struct Model {
  uint64_t last = 0;
  uint64_t page_count = 0;
  std::vector<uint64_t> stamp = std::vector<uint64_t>(cairn::test::kCrashMaxPages + 1, 0);
  void Apply(uint64_t c) {
    cairn::test::CommitPlan plan = cairn::test::PlanCommit(c, page_count);
    if (plan.grow) ++page_count;
    for (uint64_t p : plan.pages) stamp[p] = c;
    last = c;
  }
};

TEST(CrashTest, AcknowledgedCommitsSurviveSigkillAndNoneIsPartlyThere) {
  int kills = 200;
  if (const char *k = std::getenv("CAIRN_CRASH_KILLS")) kills = std::atoi(k);
  bool verbose = std::getenv("CAIRN_CRASH_VERBOSE") != nullptr;
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  {
    StoreOptions o;
    o.create_if_missing = true;
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, o, &store).ok());
    ASSERT_TRUE(store->CreateDatabase("crash").ok());
  }
  std::mt19937 rng(12345);
  Model model;
  int killed_while_committing = 0, killed = 0;
  uint64_t acknowledged_total = 0;
  unsigned char want[kPageSize], got[kPageSize];
  for (int round = 0; round < kills; ++round) {
    const char *mode = round % 2 == 0 ? "sync" : "async";
    uint64_t acked = model.last;
    {
      ChildProcess child({CAIRN_CRASH_CHILD, dir, mode});
      // Kill it at a random moment: in one round of four during its start-up (opening and
      // recovering the store), otherwise a random while after its first commit.
      std::string acks;
      auto start = std::chrono::steady_clock::now();
      auto deadline = start + std::chrono::milliseconds(rng() % 120);
      if (round % 4 != 0) {
        while (acks.find('\n') == std::string::npos &&
               std::chrono::steady_clock::now() < start + 10s) {
          acks += child.ReadSome(100ms);
        }
        deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(rng() % 40);
        if (verbose) {
          std::printf("round %d: first commit after %lld ms\n", round,
                      static_cast<long long>((std::chrono::steady_clock::now() - start) / 1ms));
        }
      }
      while (std::chrono::steady_clock::now() < deadline) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        acks += child.ReadSome(std::max(left, 1ms));
      }
      child.Kill();
      int status = child.Wait();
      ASSERT_EQ(status, 128 + SIGKILL) << "the child ended by itself in round " << round;
      ++killed;
      acks += child.ReadAll();
      std::istringstream in(acks);
      uint64_t c = 0, n = 0;
      while (in >> c) {
        ASSERT_EQ(c, acked + 1) << "acknowledgements out of order in round " << round;
        acked = c;
        ++n;
      }
      acknowledged_total += n;
      if (n > 0) ++killed_while_committing;
    }
    // Reopen and check: the last commit on disk is the last acknowledged one, or the one after
    // it (done but killed before it was acknowledged); never an earlier one.
    auto reopen = std::chrono::steady_clock::now();
    std::unique_ptr<Store> store;
    Status s = Store::Open(dir, StoreOptions(), &store);
    if (verbose) {
      std::printf("round %d: reopened in %lld ms\n", round,
                  static_cast<long long>((std::chrono::steady_clock::now() - reopen) / 1ms));
    }
    ASSERT_TRUE(s.ok()) << s.ToString();
    DatabaseId db = 0;
    ASSERT_TRUE(store->FindDatabase("crash", &db).ok());
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store->BeginTransaction(&t).ok());
    uint64_t root = 0, count = 0;
    ASSERT_TRUE(t->GetRoot(db, &root).ok());
    ASSERT_TRUE(t->GetPageCount(db, &count).ok());
    ASSERT_TRUE(root == acked || root == acked + 1)
        << "round " << round << ": acknowledged " << acked << ", on disk " << root;
    while (model.last < root) model.Apply(model.last + 1);
    ASSERT_EQ(count, model.page_count) << "round " << round;
    for (uint64_t p = 1; p <= count; ++p) {
      s = t->ReadPage(db, p, got);  // verifies the checksum
      ASSERT_TRUE(s.ok()) << "round " << round << ": " << s.ToString();
      cairn::test::FillPage(model.stamp[p], p, want);
      ASSERT_EQ(std::memcmp(want, got, kPageSize), 0)
          << "round " << round << ": page " << p << " is not as commit " << model.stamp[p]
          << " left it (commit " << root << " is the last on disk)";
    }
    t->Abort();
    CheckReport report;
    ASSERT_TRUE(store->Check("crash", &report).ok());
    ASSERT_TRUE(report.clean()) << "round " << round << ": " << report.problems[0];
  }
  EXPECT_GE(killed, kills);
  std::printf(
      "crash test: %d kills (%d after commits had begun), %llu commits acknowledged, "
      "%llu on disk, %llu pages\n",
      killed, killed_while_committing, static_cast<unsigned long long>(acknowledged_total),
      static_cast<unsigned long long>(model.last),
      static_cast<unsigned long long>(model.page_count));
  EXPECT_GE(killed_while_committing, kills / 2);
}

}  // namespace
}  // namespace cairn::store

// A failed commit leaves every counter and table as it was (issue 11): the persistence
// statistics (pages loaded, modified, reserved; totals), the last commit's figures and the
// database's type table are those of before the commit, the objects stabilization had made
// persistent are transient again and intact, and after the abort the same objects commit.
// Failures: a reference into another database found by stabilization, and the store refusing
// the write (the file size limit reached while writing the log).
#include <sys/resource.h>

#include <csignal>
#include <cstdint>
#include <cstring>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

// About 10 pages of new nodes (1 in the stress build), or, when the store is to fail, always 10:
// more than the 64 KiB a file may grow to then.
bool store_fails = false;
int64_t ChainNodes() { return store_fails ? 2000 : Scaled(2000, 200); }

__attribute__((noinline)) Node *Chain(Node *last_right) {
  ExactRoot head;
  head.set(NewNode(ChainNodes() - 1, nullptr, last_right));
  for (int64_t i = ChainNodes() - 2; i >= 0; i--) head.set(NewNode(i, head.get()));
  return head.get();
}

void CheckChain(const Node *p, const char *when) {
  for (int64_t i = 0; i < ChainNodes(); i++, p = p->left) {
    CK(p != nullptr) << when << ": node " << i << " is missing";
    CK_EQ(p->id, i) << when;
    CK_EQ(p->value, i * 7 + 1) << when;
  }
  CK(p == nullptr) << when;
}

// Every counter but the times.
void CheckSame(const cairn_persist_stats &a, const cairn_persist_stats &b, const char *what) {
#define SAME(f) CK_EQ(a.f, b.f) << what << ": " #f
  SAME(commits);
  SAME(aborts);
  SAME(pages_faulted);
  SAME(write_faults);
  SAME(pages_written);
  SAME(bytes_written);
  SAME(pages_accurate);
  SAME(pages_ambiguous);
  SAME(pages_large);
  SAME(objects_made_persistent);
  SAME(bytes_made_persistent);
  SAME(pages_evicted);
  SAME(frames_released);
  SAME(resident_pages);
  SAME(reserved_frames);
  SAME(stabilizations);
  SAME(pages_checked);
  SAME(pages_rereferenced);
#undef SAME
}

}  // namespace

// args: "other" (a chain node refers to another database's object) or "store" (the store
// cannot write the commit).
PERSIST_CHILD(FailedCommit_Write) {
  store_fails = args.args.at(0) == "store";
  OpenStore(args);
  cairn_db *alpha = CreateDb("alpha");
  cairn_db *beta = CreateDb("beta");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(alpha, NewNode(1)));
  CK_OK(cairn_db_set_root(beta, NewNode(2)));
  CK_OK(cairn_txn_commit());

  CK_OK(cairn_txn_begin());
  Node *const root = RootAs<Node>(alpha);  // persistent: it does not move
  Node *other = RootAs<Node>(beta);
  Node *chain = Chain(store_fails ? nullptr : other);
  RootAs<Node>(alpha)->left = chain;  // the write fault happens here, before the snapshot
  chain = nullptr;
  // The store sees the Wide type for the first time in this commit: a new type-table entry.
  auto *w = static_cast<Wide *>(cairn_malloc_typed(&kWideType));
  w->tag = 5;
  RootAs<Node>(alpha)->right = reinterpret_cast<Node *>(w);
  w = nullptr;
  ScrubStack();
  const cairn_persist_stats before = Stats(), last_before = LastCommitStats();
  if (store_fails) {
    // Writes that take any file past 64 KiB now fail (EFBIG) instead of ending the process: the
    // commit writes more than that to the store's log.
    std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim{64 << 10, 64 << 10};
    CK(setrlimit(RLIMIT_FSIZE, &lim) == 0) << std::strerror(errno);
  }
  cairn_status st = cairn_txn_commit();
  Say("commit=%s error=\"%s\"\n", cairn_status_name(st), cairn_last_error());
  CK(st != CAIRN_OK) << "the commit did not fail";
  CheckSame(before, Stats(), "totals");
  CheckSame(last_before, LastCommitStats(), "last commit");
  CK_EQ(cairn_verify_heap(10), 0u);
  // The objects are as they were, transient again.
  CheckChain(root->left, "after the failed commit");
  CK_EQ(reinterpret_cast<Wide *>(root->right)->tag, 5);
  CK_STATUS(cairn_txn_commit(), CAIRN_MISUSE);  // failed: only abort is allowed
  CK_OK(cairn_txn_abort());
  if (store_fails) return 0;  // the store's log is out of room in this process

  // After the abort the same objects, without the foreign reference, commit.
  CK_OK(cairn_txn_begin());
  Node *c = Chain(nullptr);
  RootAs<Node>(alpha)->left = c;
  auto *w2 = static_cast<Wide *>(cairn_malloc_typed(&kWideType));
  w2->tag = 5;
  RootAs<Node>(alpha)->right = reinterpret_cast<Node *>(w2);
  c = nullptr;
  w2 = nullptr;
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitObjectsOf("ptest.Node"), static_cast<uint64_t>(ChainNodes()));
  CK_EQ(LastCommitObjectsOf("ptest.Wide"), 1u);
  return 0;
}

// args: whether the chain was committed ("1") or not ("0").
PERSIST_CHILD(FailedCommit_Read) {
  const bool committed = args.args.at(0) == "1";
  OpenStore(args);
  cairn_db *alpha = OpenDb("alpha");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(alpha);
  CK_EQ(root->id, 1);
  if (committed) {
    CheckChain(root->left, "in the next process");
    CK_EQ(reinterpret_cast<Wide *>(root->right)->tag, 5);
  } else {
    CK(root->left == nullptr) << "the failed commit wrote the chain";
    CK(root->right == nullptr) << "the failed commit wrote the root's page";
  }
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_abort());
  return 0;
}

class PersistFailedCommit : public PersistTest {};

TEST_F(PersistFailedCommit, CrossDatabaseReferenceLeavesCountersAndTablesAsTheyWere) {
  ChildResult w = Run("FailedCommit_Write", {"other"});
  std::printf("%s", w.out.c_str());
  ASSERT_CHILD_OK(w);
  ASSERT_CHILD_OK(Run("FailedCommit_Read", {"1"}));
}

TEST_F(PersistFailedCommit, StoreWriteFailureLeavesCountersAndTablesAsTheyWere) {
  ChildResult w = Run("FailedCommit_Write", {"store"});
  std::printf("%s", w.out.c_str());
  ASSERT_CHILD_OK(w);
  ASSERT_CHILD_OK(Run("FailedCommit_Read", {"0"}));
}

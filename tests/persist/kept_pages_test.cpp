// Pages kept writable by a commit (D15 of persist/persistence.h): a commit that writes a page
// that was clean earlier in the transaction leaves it writable, so the next transaction's write
// to it does not trap; the next commit finds its changes by comparing it with its image (writes
// it if a word differs, makes it clean if none does); an abort puts a changed kept page back
// from its image and keeps an unchanged one loaded, neither read again; the pages kept count
// against the residency budget, at most an eighth of it; a kept page's next stored form is its last
// one with the changed words encoded again.
#include <string>

#include "child.h"
#include "leaf_db.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr int64_t kLeaves = 40;         // 20 pages
constexpr int64_t kBudgetLeaves = 400;  // 200 pages
constexpr uint64_t kBudget = 64;        // pages: at most 8 kept

int64_t *Leaf(void *index, int64_t k) { return ArrayData<int64_t>(ArrayData<void *>(index)[k]); }

uint64_t WriteFaults() { return Stats().write_faults; }

}  // namespace

PERSIST_CHILD(Kept_Cycle) {
  OpenStore(args);
  cairn_db *db = OpenDb("leaves");

  // Leaf 3's page is clean, then written: the commit writes it and keeps it writable.
  CK_OK(cairn_txn_begin());
  void *index = Root(db);
  uint64_t faults = WriteFaults();
  ModifyLeaf(ArrayData<void *>(index)[3], 3);
  CK_EQ(WriteFaults(), faults + 1) << "the first write to a clean page was not trapped";
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 1u);
  CK_EQ(cairn_verify_heap(10), 0u);

  // Written again in the next transaction: no trap, and the commit writes the change.
  CK_OK(cairn_txn_begin());
  faults = WriteFaults();
  Leaf(index, 3)[2] = -33;
  CK_EQ(WriteFaults(), faults) << "a write to a page the last commit kept writable trapped";
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 1u) << "the change to a kept page was not written";
  CK_EQ(cairn_verify_heap(10), 0u);

  // Not written in this one: nothing is written, and the page is clean again (a write traps).
  CK_OK(cairn_txn_begin());
  CK_EQ(Leaf(index, 3)[2], -33);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 0u) << "an unchanged kept page was written";
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  faults = WriteFaults();
  Leaf(index, 3)[3] = -333;
  CK_EQ(WriteFaults(), faults + 1) << "a kept page left unchanged by a commit stayed writable";
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 1u);

  // A change to a kept page, aborted: the committed value is back, put back from the page's
  // image (D15: not read again).
  CK_OK(cairn_txn_begin());
  Leaf(index, 3)[3] = 999;
  Leaf(index, 3)[kLeafLength - 1] = 999;
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  uint64_t read = Stats().pages_faulted;
  CK_EQ(Leaf(index, 3)[3], -333) << "an aborted change to a kept page stayed";
  CK_EQ(Leaf(index, 3)[kLeafLength - 1], LeafValue(3, kLeafLength - 1));
  CK_EQ(Stats().pages_faulted, read) << "the page the abort put back was read again";
  Leaf(index, 3)[4] = -3333;
  CK_OK(cairn_txn_commit());

  // Kept, not changed, aborted: the page is clean as it is, not read again.
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  read = Stats().pages_faulted;
  CK_EQ(Leaf(index, 3)[4], -3333);
  CK_EQ(Stats().pages_faulted, read) << "an unchanged kept page was dropped by an abort";
  faults = WriteFaults();
  Leaf(index, 3)[5] = -33333;
  CK_EQ(WriteFaults(), faults + 1) << "after the abort the unchanged kept page stayed writable";
  CK_OK(cairn_txn_commit());

  // Written between a commit and the next begin: the next transaction's change, pending until
  // then (cairn_txn_changes_pending; the kept page unchanged since the commit was not).
  CK_EQ(cairn_txn_changes_pending(), 0) << "a kept page not changed since counted as a change";
  Leaf(index, 3)[6] = -6;
  CK_EQ(cairn_txn_changes_pending(), 1) << "a change outside a transaction was not pending";
  CK_OK(cairn_txn_begin());
  CK_EQ(cairn_txn_changes_pending(), 0);  // a transaction is open: it holds the change
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 1u);
  CK_EQ(cairn_txn_changes_pending(), 0);
  return 0;
}

PERSIST_CHILD(Kept_Check) {
  OpenStore(args);
  cairn_db *db = OpenDb("leaves");
  CK_OK(cairn_txn_begin());
  void *index = Root(db);
  const int64_t *three = Leaf(index, 3);
  CK_EQ(three[1], -3);
  CK_EQ(three[2], -33);
  CK_EQ(three[3], -333);
  CK_EQ(three[4], -3333);
  CK_EQ(three[5], -33333);
  CK_EQ(three[6], -6);
  CK_EQ(three[7], LeafValue(3, 7));
  CK_EQ(three[kLeafLength - 1], LeafValue(3, kLeafLength - 1));
  for (int64_t k = 0; k < kLeaves; k++) {
    if (k == 3) continue;
    std::string bad = CheckLeaf(ArrayData<void *>(index)[k], k, Mods("-"));
    CK(bad.empty()) << bad;
  }
  CK_OK(cairn_txn_commit());
  return 0;
}

// Under a budget of 64 pages: every leaf page read, leaves on 20 pages modified and committed,
// then written again. At most 8 pages were kept (the other 12 trap again), and the pages kept
// count with the clean ones: what stays loaded after each commit is within the budget.
PERSIST_CHILD(Kept_Budget) {
  cairn_persist_options opts{};
  opts.max_resident_pages = kBudget;
  OpenStore(args, opts);
  cairn_db *db = OpenDb("leaves");
  CK_OK(cairn_txn_begin());
  void *index = Root(db);
  for (int64_t k = 0; k < kBudgetLeaves; k++) {
    std::string bad = CheckLeaf(ArrayData<void *>(index)[k], k, Mods("-"));
    CK(bad.empty()) << bad;
  }
  constexpr int64_t kPages = 20;
  for (int64_t p = 0; p < kPages; p++) ModifyLeaf(ArrayData<void *>(index)[2 * p], 2 * p);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, uint64_t(kPages));
  CK(Stats().resident_pages <= kBudget) << Stats().resident_pages;
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  uint64_t faults = WriteFaults();
  for (int64_t p = 0; p < kPages; p++) Leaf(index, 2 * p)[2] = -2;
  CK_EQ(WriteFaults() - faults, uint64_t(kPages) - kBudget / 8)
      << "not exactly an eighth of the budget was kept writable";
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, uint64_t(kPages));
  CK(Stats().resident_pages <= kBudget) << Stats().resident_pages;
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

// The references of a kept page: its next commits encode again only the words that changed
// (EncodeChanged), including references set to another persistent object, to nothing, and to
// an object the commit makes persistent; a fresh process reads them all.
constexpr int64_t kChain = 200;

PERSIST_CHILD(Kept_RefsCreate) {
  OpenStore(args);
  cairn_db *db = CreateDb("chain");
  CK_OK(cairn_txn_begin());
  Node *head = nullptr;
  for (int64_t i = kChain - 1; i >= 0; i--) head = NewNode(i, head);
  CK_OK(cairn_db_set_root(db, head));
  CK_OK(cairn_txn_commit());
  return 0;
}

PERSIST_CHILD(Kept_RefsModify) {
  OpenStore(args);
  cairn_db *db = OpenDb("chain");
  CK_OK(cairn_txn_begin());
  Node *head = RootAs<Node>(db);
  Node *a = NodeAt(head, 10), *b = NodeAt(head, 150);
  a->right = b;  // the page of node 10 is written, then kept
  CK_OK(cairn_txn_commit());
  for (int round = 0; round < 3; round++) {
    CK_OK(cairn_txn_begin());
    uint64_t faults = Stats().write_faults;
    a->value = 1000 + round;
    CK_EQ(Stats().write_faults, faults) << "node 10's page was not kept writable";
    a->right = round == 0 ? NodeAt(head, 20) : round == 1 ? nullptr : NewNode(777);
    NodeAt(head, 11)->right = round == 2 ? a : nullptr;
    CK_OK(cairn_txn_commit());
    CK(LastCommitStats().pages_written >= 1);
    CK_EQ(cairn_verify_heap(10), 0u);
  }
  return 0;
}

PERSIST_CHILD(Kept_RefsCheck) {
  OpenStore(args);
  cairn_db *db = OpenDb("chain");
  CK_OK(cairn_txn_begin());
  Node *head = RootAs<Node>(db);
  int64_t i = 0;
  for (Node *p = head; p; p = p->left, i++) CK_EQ(p->id, i);
  CK_EQ(i, kChain);
  Node *a = NodeAt(head, 10);
  CK_EQ(a->value, 1002);
  CK(a->right != nullptr);
  CK_EQ(a->right->id, 777);
  CK_EQ(NodeAt(head, 11)->right, a);
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_commit());
  return 0;
}

class PersistKeptPages : public PersistTest {};

TEST_F(PersistKeptPages, AKeptPagesChangedReferencesAreEncodedAgain) {
  ASSERT_CHILD_OK(Run("Kept_RefsCreate"));
  ASSERT_CHILD_OK(Run("Kept_RefsModify"));
  ASSERT_CHILD_OK(Run("Kept_RefsCheck"));
}

TEST_F(PersistKeptPages, AWrittenPageStaysWritableAndItsChangesAreFoundByComparison) {
  ASSERT_CHILD_OK(Run("LeafDb_Write", {std::to_string(kLeaves), "20", "0"}));
  ASSERT_CHILD_OK(Run("Kept_Cycle"));
  ASSERT_CHILD_OK(Run("Kept_Check"));
}

TEST_F(PersistKeptPages, KeptPagesCountAgainstTheResidencyBudget) {
  ASSERT_CHILD_OK(Run("LeafDb_Write", {std::to_string(kBudgetLeaves), "100", "0"}));
  ASSERT_CHILD_OK(Run("Kept_Budget"));
}

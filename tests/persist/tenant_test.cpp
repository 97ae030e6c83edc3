// Tenants (P13 of heap/page_info.h, D14 of persist/persistence.h): objects a stack variable
// holds at a commit, on a page the commit makes persistent in place, that no database reaches,
// stay transient there. What they refer to stays transient and alive through collections; an
// abort keeps their state; their page is not evicted while they live; a later commit whose
// database reaches one adopts it (the page's database, or another, which then shares the
// page); a failed commit makes an adopted one a tenant again; their identity hash does not
// change; a tenant nothing holds dies.
#include <cstdint>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

// Four nodes side by side on one page: a chain only an exact root holds, copied by a
// collection in the order it reaches them (in the stress build every allocation collects first
// and continues on another page, so allocation alone does not put them together).
__attribute__((noinline)) void BuildFour(ExactRoot *holder) {
  holder->set(NewNode(1000, NewNode(2000, NewNode(3000, NewNode(3500)))));
}

// BuildFour's nodes, unlinked, in four[0..3] (the caller's variables, which alone hold them):
// built again until the four share a page.
__attribute__((noinline)) void FourOnOnePage(Node *volatile (&four)[4]) {
  for (int tries = 0;; tries++) {
    CK(tries < 3) << "four nodes copied in a row never shared a page";
    ExactRoot holder;
    BuildFour(&holder);
    ScrubStack();
    cairn_collect();
    four[0] = holder.get();
    for (int k = 1; k < 4; k++) four[k] = four[k - 1]->left;
    for (int k = 0; k < 3; k++) four[k]->left = nullptr;
    if (PageOf(four[0]) == PageOf(four[1]) && PageOf(four[1]) == PageOf(four[2]) &&
        PageOf(four[2]) == PageOf(four[3]))
      return;
  }
}

__attribute__((noinline)) Node *Chain(int64_t first_id, int64_t n) {
  Node *head = nullptr;
  for (int64_t i = n - 1; i >= 0; i--) head = NewNode(first_id + i, head);
  return head;
}

__attribute__((noinline)) void Churn() {
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 2000; k++) NewNode(-1);
    ScrubStack();
    cairn_collect();
  }
}

}  // namespace

PERSIST_CHILD(Tenant_Write) {
  cairn_persist_options opts{};
  opts.max_resident_pages = 4;  // small: persistent pages are evicted below, the tenants' not
  OpenStore(args, opts);
  cairn_db *home = CreateDb("home");
  cairn_db *other = CreateDb("other");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(other, NewNode(7000)));
  CK_OK(cairn_txn_commit());

  CK_OK(cairn_txn_begin());
  Node *volatile four[4] = {};
  FourOnOnePage(four);
  Node *volatile &kept = four[0], *volatile &loose = four[1], *volatile &third = four[2],
                 *volatile &fourth = four[3];
  loose->right = NewNode(4000);  // transient, wherever it is: it must stay alive
  const uint64_t hash = cairn_identity_hash(loose);
  CK_OK(cairn_db_set_root(home, kept));
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_ambiguous, 1u);
  CK_EQ(LastCommitObjectsOf("ptest.Node"), 1u) << "only the root persists";
  CK_EQ(cairn_verify_heap(0), 0u);

  // Collections keep the tenants and what they refer to; the hash stays.
  Churn();
  CK_EQ(loose->right->id, 4000);
  CK_EQ(loose->right->value, 4000 * 7 + 1);
  CK_EQ(cairn_identity_hash(loose), hash);
  CK_EQ(cairn_verify_heap(0), 0u);

  // An abort drops the changes to the persistent object, not to the tenant.
  CK_OK(cairn_txn_begin());
  kept->value = -1;
  loose->value = -2;
  loose->left = NewNode(5000);
  CK_OK(cairn_txn_abort());
  CK_EQ(kept->value, 1000 * 7 + 1);
  CK_EQ(loose->value, -2);
  CK_EQ(loose->left->id, 5000);
  CK_EQ(loose->right->id, 4000);
  Churn();
  CK_EQ(loose->left->id, 5000);
  CK_EQ(cairn_verify_heap(0), 0u);

  // Many persistent pages, over the budget: others are evicted, the tenants' page is not.
  CK_OK(cairn_txn_begin());
  const int64_t n = Scaled(20000, 2000);
  kept->left = Chain(10000, n);
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  int64_t sum = 0;
  for (Node *p = kept->left; p; p = p->left) sum += p->id;
  CK_EQ(sum, n * 10000 + n * (n - 1) / 2);
  CK(Stats().pages_evicted > 0) << "nothing was evicted";
  const uint64_t faulted = Stats().pages_faulted;
  CK_EQ(loose->value, -2);
  CK_EQ(third->id, 3000);
  CK_EQ(Stats().pages_faulted, faulted) << "the tenants' page was evicted";
  CK_OK(cairn_txn_commit());

  // A tenant nothing holds dies.
  fourth = nullptr;
  Churn();
  CK_EQ(cairn_verify_heap(0), 0u);

  // The page's database adopts a tenant: it persists, with what it refers to.
  CK_OK(cairn_txn_begin());
  kept->right = loose;
  CK_OK(cairn_txn_commit());
  CK(LastCommitObjectsOf("ptest.Node") >= 3u) << "loose, 5000 and 4000";
  CK_EQ(cairn_identity_hash(loose), hash);
  CK_EQ(cairn_verify_heap(0), 0u);

  // A commit that would adopt `third` fails (it refers to another database's object): third is
  // a tenant again, and the abort keeps its state.
  Node *seven = nullptr;
  CK_OK(cairn_txn_begin());
  seven = RootAs<Node>(other);
  third->left = seven;
  loose->right = third;
  CK(cairn_txn_commit() != CAIRN_OK) << "a reference to another database's object committed";
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(0), 0u);
  CK_OK(cairn_txn_begin());
  CK_EQ(loose->right->id, 4000);
  CK(third->left == seven);
  CK_EQ(seven->id, 7000);
  CK_OK(cairn_txn_commit());

  // Another database adopts it: the page is shared with it.
  CK_OK(cairn_txn_begin());
  third->left = nullptr;
  third->value = 33;
  CK_OK(cairn_db_set_root(other, third));
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitObjectsOf("ptest.Node"), 1u);
  CK_EQ(LastCommitStats().pages_accurate, 0u) << "third was copied, not adopted";
  CK_EQ(cairn_verify_heap(0), 0u);
  CK_OK(cairn_txn_begin());
  CK(Root(other) == third);
  CK_OK(cairn_txn_commit());
  return 0;
}

PERSIST_CHILD(Tenant_Check) {
  OpenStore(args);
  cairn_db *home = OpenDb("home");
  cairn_db *other = OpenDb("other");
  CK_OK(cairn_txn_begin());
  Node *kept = RootAs<Node>(home);
  CK_EQ(kept->id, 1000);
  CK_EQ(kept->value, 1000 * 7 + 1);
  Node *loose = kept->right;
  CK(loose != nullptr);
  CK_EQ(loose->id, 2000);
  CK_EQ(loose->value, -2);
  CK_EQ(loose->left->id, 5000);
  CK_EQ(loose->right->id, 4000);
  Node *third = RootAs<Node>(other);
  CK_EQ(third->id, 3000);
  CK_EQ(third->value, 33);
  CK(third->left == nullptr);
  CK_EQ(cairn_verify_heap(0), 0u);
  CK_OK(cairn_txn_abort());
  return 0;
}

// A page whose tenants all die while it is clean becomes an ordinary page; its dead tenants
// are fillers in memory as in the store (zero payload), so the delta of its next write is made
// against the right base and the page reads back intact (a review found the tenants' old bytes
// left in memory, taken into the clean image, and the page stored damaged).
PERSIST_CHILD(Tenant_DeadThenWritten) {
  OpenStore(args);
  cairn_db *home = CreateDb("home");
  CK_OK(cairn_txn_begin());
  Node *volatile four[4] = {};
  FourOnOnePage(four);
  Node *volatile &kept = four[0], *volatile &loose = four[1], *volatile &third = four[2],
                 *volatile &fourth = four[3];
  // The mutator leaves the four's page (the collection's copy page), so that the commit does
  // not open its tail (A1 of gc/gc_heap.h): the page stays clean after it.
  cairn_collect();
  CK_OK(cairn_db_set_root(home, kept));
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_ambiguous, 1u);
  // Every tenant dies; the page is clean and no longer shared.
  loose = nullptr;
  third = nullptr;
  fourth = nullptr;
  Churn();
  CK_EQ(cairn_verify_heap(0), 0u);
  CK_OK(cairn_txn_begin());
  const uint64_t faults = Stats().write_faults;
  kept->value = 42;
  CK_EQ(Stats().write_faults, faults + 1) << "the page was not clean";
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 1u);
  CK_OK(cairn_txn_begin());
  kept->value = 43;  // kept writable (D15): written again from its last stored form
  CK_OK(cairn_txn_commit());
  return 0;
}

PERSIST_CHILD(Tenant_DeadCheck) {
  CheckStoreClean(args, "home");
  OpenStore(args);
  cairn_db *home = OpenDb("home");
  CK_OK(cairn_txn_begin());
  Node *kept = RootAs<Node>(home);
  CK_EQ(kept->id, 1000);
  CK_EQ(kept->value, 43);
  CK_EQ(cairn_verify_heap(0), 0u);
  CK_OK(cairn_txn_abort());
  return 0;
}

class PersistTenants : public PersistTest {};

TEST_F(PersistTenants, APageWhoseTenantsDiedIsWrittenAgainstItsStoredForm) {
  ASSERT_CHILD_OK(Run("Tenant_DeadThenWritten"));
  ASSERT_CHILD_OK(Run("Tenant_DeadCheck"));
}

TEST_F(PersistTenants, HeldObjectsOnAPinnedPageStayTransientUntilADatabaseReachesThem) {
  ASSERT_CHILD_OK(Run("Tenant_Write"));
  ASSERT_CHILD_OK(Run("Tenant_Check"));
}

// Only what a root reaches persists, also on a page that the stack pins at commit: a dead
// neighbour of the pinned object on its page becomes a filler, is not scanned, and neither it nor
// what it refers to persists; a dead neighbour that refers to another database's object does not
// make the commit fail (the cross-database check sees live paths only). Issue 11. The filler's
// bytes are zeros, so nothing of the dead object is written (session 20).
#include <cstdint>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr int64_t kChain = 100;  // nodes the dead neighbour reaches

// The dead neighbour's address, complemented (not a root) and volatile: the compiler cannot read
// it early and keep the address in a register across the commit, where it would be an ambiguous
// root that pins the neighbour.
volatile uintptr_t dead_bits = 0;

// Hangs a transient chain of kChain nodes from the neighbour (holder's right). Its own frame, so
// that no frame of the caller's keeps the chain's address.
__attribute__((noinline)) void AttachChain(ExactRoot &holder) {
  ExactRoot head;
  for (int64_t i = 0; i < kChain; i++) head.set(NewNode(5000 + i, head.get<Node>()));
  holder.get<Node>()->right->left = head.get<Node>();
}

// Makes the object to pin and its neighbour, both held by one holder (an exact root, so not by
// the stack). Its own frame, so that the stack keeps none of their addresses once it returns.
__attribute__((noinline)) void MakePair(ExactRoot &holder, Node *other) {
  holder.set(NewNode(1, NewNode(1000), nullptr));
  holder.get<Node>()->right = NewNode(3000, other);
  if (!other) AttachChain(holder);
}

// Lays out the object to pin and its dead neighbour side by side: a collection copies them next
// to each other in the order it scans their holder. The neighbour refers to `other` if not
// null, else to a new chain. Returns the object to pin; the neighbour's address goes to
// dead_bits.
__attribute__((noinline)) Node *PinnedWithDeadNeighbour(ExactRoot &holder, Node *other) {
  for (int attempt = 0; attempt < 20; attempt++) {
    MakePair(holder, other);
    ScrubStack();
    cairn_collect();
    Node *h = holder.get<Node>();
    if (PageOf(h->left) == PageOf(h->right)) {
      dead_bits = ~reinterpret_cast<uintptr_t>(h->right);
      Node *p = h->left;
      h->right = nullptr;  // the neighbour is dead from here on: no allocation until the commit
      return p;
    }
  }
  CK(false) << "the object and its neighbour never landed on one page";
  return nullptr;
}

void CheckFiller() {
  const cairn_type *t = cairn_type_of(reinterpret_cast<void *>(~dead_bits));
  CK(t != &kNodeType) << "the dead neighbour is still a Node after the commit";
  CK_EQ(t->nrefs, 0u);
  CK_EQ(t->size, sizeof(Node));
  // Its bytes are zeros: the page is written to the database, and nothing of an object the
  // database does not reach may be in the store (its id, 3000, and its reference were there).
  const auto *bytes = reinterpret_cast<const unsigned char *>(~dead_bits);
  for (size_t i = 0; i < sizeof(Node); i++)
    CK_EQ(static_cast<int>(bytes[i]), 0) << "byte " << i << " of the dead neighbour";
}

}  // namespace

// args: "chain" (the neighbour reaches a transient chain) or "other" (it reaches an object of
// another database).
PERSIST_CHILD(DeadNeighbour_Write) {
  const bool other = args.args.at(0) == "other";
  OpenStore(args);
  cairn_db *alpha = CreateDb("alpha");
  cairn_db *beta = CreateDb("beta");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(beta, NewNode(77)));
  CK_OK(cairn_db_set_root(alpha, NewNode(1)));
  CK_OK(cairn_txn_commit());

  CK_OK(cairn_txn_begin());
  ExactRoot holder;
  Node *volatile pinned = PinnedWithDeadNeighbour(holder, other ? RootAs<Node>(beta) : nullptr);
  holder.set(nullptr);
  RootAs<Node>(alpha)->left = pinned;  // reached: its page is made persistent in place
  ScrubStack();
  CK_OK(cairn_txn_commit());
  cairn_persist_stats s = LastCommitStats();
  SayStats("", s);
  CK(s.pages_ambiguous >= 1) << "the pinned page was not made persistent in place";
  CK_EQ(s.objects_made_persistent, 1u);  // the pinned node alone
  CheckFiller();
  CK_EQ(pinned->id, 1000);
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

PERSIST_CHILD(DeadNeighbour_Read) {
  OpenStore(args);
  cairn_db *alpha = OpenDb("alpha");
  cairn_db *beta = OpenDb("beta");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(alpha);
  CK_EQ(root->id, 1);
  CK(root->left != nullptr);
  CK_EQ(root->left->id, 1000);
  CK(root->left->left == nullptr);
  CK_EQ(RootAs<Node>(beta)->id, 77);
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_abort());
  return 0;
}

class PersistDeadNeighbour : public PersistTest {};

TEST_F(PersistDeadNeighbour, DeadNeighbourOnAPinnedPageBecomesAFillerAndReachesNothing) {
  ASSERT_CHILD_OK(Run("DeadNeighbour_Write", {"chain"}));
  ASSERT_CHILD_OK(Run("DeadNeighbour_Read"));
}

TEST_F(PersistDeadNeighbour, DeadNeighbourReferringToAnotherDatabaseDoesNotFailTheCommit) {
  ASSERT_CHILD_OK(Run("DeadNeighbour_Write", {"other"}));
  ASSERT_CHILD_OK(Run("DeadNeighbour_Read"));
}

// Cycles across pages: a ring of nodes spanning many pages with chords between far nodes, a
// two-node cycle, and a large array that contains itself, persisted and read back with every
// cycle closed on the same objects.
#include <vector>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

int64_t RingSize() { return Scaled(20000, 300); }
int64_t Chord(int64_t i) { return (i * 37 + 11) % RingSize(); }
int64_t BigArray() { return Scaled(3000, 1200); }

// root: Wide{r0 ring node 0, r1 a -> b -> a, r2 big [any] ([0] itself, [1] ring node 0,
// [k] ring node k * 5), r3 nil}. Ring: node i.left = node i+1 (mod n), node i.right = node
// Chord(i).
__attribute__((noinline)) Wide *BuildCycles() {
  auto *root = static_cast<Wide *>(cairn_malloc_typed(&kWideType));
  int64_t n = RingSize();
  void *all = cairn_malloc_array(&cairn_ref_array_type, n);  // transient index
  root->r3 = all;
  for (int64_t i = 0; i < n; i++) {
    ArrayData<Node *>(root->r3)[i] = NewNode(i);
    if (i % 3 == 0) NewNode(-1);  // garbage between, so transient pages are mixed
  }
  Node **nodes = ArrayData<Node *>(root->r3);
  for (int64_t i = 0; i < n; i++) {
    nodes[i]->left = nodes[(i + 1) % n];
    nodes[i]->right = nodes[Chord(i)];
  }
  root->r0 = nodes[0];
  Node *a = NewNode(-10);
  Node *b = NewNode(-20, a);
  a->left = b;
  root->r1 = a;
  void *big = cairn_malloc_array(&cairn_ref_array_type, BigArray());
  root->r2 = big;
  nodes = ArrayData<Node *>(root->r3);
  ArrayData<void *>(big)[0] = big;
  for (int64_t k = 1; k < BigArray(); k++) ArrayData<void *>(big)[k] = nodes[(k * 5) % n];
  ArrayData<void *>(big)[1] = nodes[0];
  root->r3 = nullptr;  // the index does not persist
  return root;
}

void CheckCycles(Wide *root) {
  int64_t n = RingSize();
  auto *first = static_cast<Node *>(root->r0);
  std::vector<HiddenAddress> at(n);
  Node *p = first;
  for (int64_t i = 0; i < n; i++, p = p->left) {
    CK(p != nullptr) << "ring node " << i << " is missing";
    CK_EQ(p->id, i);
    CK_EQ(p->value, i * 7 + 1);
    at[i] = HiddenAddress(p);
  }
  CK(p == first) << "the ring does not close on its first node";
  size_t pages = 0;
  for (int64_t i = 0; i < n; i++) {
    auto *x = static_cast<Node *>(at[i].get());
    CK(x->right == at[Chord(i)].get()) << "chord of node " << i;
    if (i > 0 && PageOf(x) != PageOf(at[i - 1].get())) pages++;
  }
  CK(pages > 0 || Stress()) << "the ring's nodes are all on one page";
  auto *a = static_cast<Node *>(root->r1);
  CK_EQ(a->id, -10);
  CK_EQ(a->left->id, -20);
  CK(a->left->left == a);
  void *big = root->r2;
  CK_EQ(cairn_array_length(big), static_cast<size_t>(BigArray()));
  CK(ArrayData<void *>(big)[0] == big);
  CK(ArrayData<void *>(big)[1] == first);
  for (int64_t k = 2; k < BigArray(); k++) {
    CK(ArrayData<void *>(big)[k] == at[(k * 5) % n].get()) << "big[" << k << "]";
  }
  CK(root->r3 == nullptr);
  CK_EQ(cairn_verify_heap(10), 0u);
}

}  // namespace

PERSIST_CHILD(Cycles_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("cycles");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, BuildCycles()));
  // No stale copy of a ring node's address below this frame: one would pin its page, which
  // would then be made persistent in place with the garbage between the nodes (and the count
  // below would depend on how the compiler laid out BuildCycles's frame).
  ScrubStack();
  CK_OK(cairn_txn_commit());
  SayStats("", LastCommitStats());
  CK_EQ(LastCommitObjectsOf("ptest.Node"), static_cast<uint64_t>(RingSize() + 2));
  return 0;
}

PERSIST_CHILD(Cycles_Read) {
  OpenStore(args);
  cairn_db *db = OpenDb("cycles");
  CK_OK(cairn_txn_begin());
  CheckCycles(RootAs<Wide>(db));
  Say("pages_faulted=%lu\n", Stats().pages_faulted);
  CK(Stats().pages_faulted >= static_cast<uint64_t>(RingSize()) * 40 / CAIRN_PAGE_SIZE);
  CK_OK(cairn_txn_commit());
  return 0;
}

class PersistCycles : public PersistTest {};

TEST_F(PersistCycles, CyclesAcrossPagesCloseOnTheSameObjects) {
  ASSERT_CHILD_OK(Run("Cycles_Write"));
  ASSERT_CHILD_OK(Run("Cycles_Read"));
}

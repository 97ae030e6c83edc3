// A graph reachable from a database root survives the process that made it: a fresh process
// reads it back equal (values, types, array lengths, shared objects identical, cycles closed),
// and reading it writes nothing.
#include <cmath>
#include <cstring>
#include <string>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

const char kText[] = "persistent by reachability: \xce\xbb x. x \xe2\x86\x92 disk";
constexpr int64_t kShared = 64;  // elements of the shared-reference array
constexpr int64_t kPairs = 10;

// A complete binary tree of nodes numbered 1..n in heap order (node i's children are 2i, 2i+1).
Node *BuildTree(int64_t id, int64_t n) {
  if (id > n) return nullptr;
  Node *x = NewNode(id);
  x->left = BuildTree(2 * id, n);
  x->right = BuildTree(2 * id + 1, n);
  return x;
}

// The node numbered `id`, found from the tree's root by the bits of id below its top bit.
Node *FindNode(Node *root, int64_t id) {
  int bit = 62;
  while (bit >= 0 && !((id >> bit) & 1)) bit--;
  Node *x = root;
  for (bit--; bit >= 0 && x; bit--) x = ((id >> bit) & 1) ? x->right : x->left;
  return x;
}

int64_t SharedId(int64_t k, int64_t n) { return 1 + (k * 7919) % n; }

// The graph:
//   root: Wide{tag 1, r0 tree, r1 text, r2 shared, r3 Wide{tag 2, r0 [int], r1 [float],
//         r2 [bool], r3 [Pair]}, sum n}
//   shared: [any] of kShared; [0] is the array itself, [1] nil, [k] the tree node SharedId(k).
//   [Pair]: {ref: the text for even k, the tree's root for odd k; n: k * 3}.
__attribute__((noinline)) Wide *BuildGraph(int64_t n) {
  auto *root = static_cast<Wide *>(cairn_malloc_typed(&kWideType));
  root->tag = 1;
  root->sum = n;
  Node *tree = BuildTree(1, n);
  root->r0 = tree;
  void *text = cairn_malloc_array(&cairn_text_type, sizeof kText - 1);
  std::memcpy(ArrayData<char>(text), kText, sizeof kText - 1);
  root->r1 = text;
  void *shared = cairn_malloc_array(&cairn_ref_array_type, kShared);
  ArrayData<void *>(shared)[0] = shared;
  for (int64_t k = 2; k < kShared; k++) {
    ArrayData<void *>(shared)[k] = FindNode(tree, SharedId(k, n));
  }
  root->r2 = shared;
  auto *w = static_cast<Wide *>(cairn_malloc_typed(&kWideType));
  w->tag = 2;
  root->r3 = w;
  void *ints = cairn_malloc_array(&cairn_i64_array_type, 100);
  for (int64_t i = 0; i < 100; i++) ArrayData<int64_t>(ints)[i] = i * i - 3;
  w->r0 = ints;
  void *floats = cairn_malloc_array(&cairn_f64_array_type, 33);
  for (int64_t i = 0; i < 33; i++) ArrayData<double>(floats)[i] = static_cast<double>(i) * 0.5;
  w->r1 = floats;
  void *bools = cairn_malloc_array(&cairn_bool_array_type, 17);
  for (int64_t i = 0; i < 17; i++) ArrayData<bool>(bools)[i] = i % 3 == 0;
  w->r2 = bools;
  void *pairs = cairn_malloc_array(&kPairArrayType, kPairs);
  for (int64_t k = 0; k < kPairs; k++) {
    ArrayData<Pair>(pairs)[k] = Pair{k % 2 == 0 ? root->r1 : root->r0, k * 3};
  }
  w->r3 = pairs;
  return root;
}

// Objects in the graph: the tree, the text, the shared array, two Wides, four arrays.
int64_t GraphObjects(int64_t n) { return n + 8; }

void CheckTree(Node *x, int64_t id, int64_t n, int64_t *seen) {
  if (id > n) {
    CK(x == nullptr) << "node " << id << " should not exist";
    return;
  }
  CK(x != nullptr) << "node " << id << " is missing";
  CK(cairn_type_of(x) == &kNodeType) << "node " << id;
  CK_EQ(x->id, id);
  CK_EQ(x->value, id * 7 + 1);
  ++*seen;
  CheckTree(x->left, 2 * id, n, seen);
  CheckTree(x->right, 2 * id + 1, n, seen);
}

void CheckGraph(Wide *root, int64_t n) {
  CK(root != nullptr) << "the database has no root";
  CK(cairn_type_of(root) == &kWideType);
  CK_EQ(root->tag, 1);
  CK_EQ(root->sum, n);
  auto *tree = static_cast<Node *>(root->r0);
  int64_t seen = 0;
  CheckTree(tree, 1, n, &seen);
  CK_EQ(seen, n);

  void *text = root->r1;
  CK(cairn_type_of(text) == &cairn_text_type);
  CK_EQ(cairn_array_length(text), sizeof kText - 1);
  CK(std::memcmp(ArrayData<char>(text), kText, sizeof kText - 1) == 0) << "the text differs";

  void *shared = root->r2;
  CK(cairn_type_of(shared) == &cairn_ref_array_type);
  CK_EQ(cairn_array_length(shared), static_cast<size_t>(kShared));
  CK(ArrayData<void *>(shared)[0] == shared) << "the array's reference to itself";
  CK(ArrayData<void *>(shared)[1] == nullptr);
  for (int64_t k = 2; k < kShared; k++) {
    // The same object as the tree's node, not a copy of it.
    CK(ArrayData<void *>(shared)[k] == FindNode(tree, SharedId(k, n))) << "shared[" << k << "]";
  }

  auto *w = static_cast<Wide *>(root->r3);
  CK(cairn_type_of(w) == &kWideType);
  CK_EQ(w->tag, 2);
  CK(cairn_type_of(w->r0) == &cairn_i64_array_type);
  CK_EQ(cairn_array_length(w->r0), 100u);
  for (int64_t i = 0; i < 100; i++) CK_EQ(ArrayData<int64_t>(w->r0)[i], i * i - 3);
  CK(cairn_type_of(w->r1) == &cairn_f64_array_type);
  CK_EQ(cairn_array_length(w->r1), 33u);
  for (int64_t i = 0; i < 33; i++) CK_EQ(ArrayData<double>(w->r1)[i], static_cast<double>(i) * 0.5);
  CK(cairn_type_of(w->r2) == &cairn_bool_array_type);
  CK_EQ(cairn_array_length(w->r2), 17u);
  for (int64_t i = 0; i < 17; i++) CK_EQ(ArrayData<bool>(w->r2)[i], i % 3 == 0);
  CK(cairn_type_of(w->r3) == &kPairArrayType);
  CK_EQ(cairn_array_length(w->r3), static_cast<size_t>(kPairs));
  for (int64_t k = 0; k < kPairs; k++) {
    const Pair &p = ArrayData<Pair>(w->r3)[k];
    CK(p.ref == (k % 2 == 0 ? text : static_cast<void *>(tree))) << "pair " << k;
    CK_EQ(p.n, k * 3);
  }
  CK_EQ(cairn_verify_heap(10), 0u);
}

int64_t TreeSize() { return Scaled(5000, 300); }

}  // namespace

PERSIST_CHILD(Roundtrip_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("graph");
  CK_OK(cairn_txn_begin());
  Wide *root = BuildGraph(TreeSize());
  CK_OK(cairn_db_set_root(db, root));
  CK_OK(cairn_txn_commit());
  CK_EQ(cairn_txn_is_open(), 0);
  cairn_persist_stats s = LastCommitStats();
  SayStats("", s);
  CK_EQ(s.commits, 1u);
  CK_EQ(s.objects_made_persistent, static_cast<uint64_t>(GraphObjects(TreeSize())));
  CK_EQ(LastCommitObjectsOf("ptest.Node"), static_cast<uint64_t>(TreeSize()));
  CK_EQ(LastCommitObjectsOf("ptest.Wide"), 2u);
  CK(s.pages_written > 0);
  // The objects are still this process's to use after the commit.
  CheckGraph(root, TreeSize());
  return 0;
}

PERSIST_CHILD(Roundtrip_Read) {
  OpenStore(args);
  cairn_db *db = OpenDb("graph");
  CK_OK(cairn_txn_begin());
  CheckGraph(RootAs<Wide>(db), TreeSize());
  cairn_persist_stats s = Stats();
  CK(s.pages_faulted > 0) << "a fresh process read the graph without faulting a page in";
  CK_OK(cairn_txn_commit());
  SayStats("", LastCommitStats());
  CK_EQ(LastCommitStats().pages_written, 0u);  // reading (and swizzling) modifies nothing
  return 0;
}

// Reading a database costs memory for what is read, not for the heap's size: the scratch of
// the references a loaded page makes (one word per page of the heap) takes memory only where it
// is used (campaign N: a vector of it made every program that read a database 32 MiB larger,
// with the default reservation).
PERSIST_CHILD(Roundtrip_ReadMemory) {
  OpenStore(args);
  cairn_db *db = OpenDb("graph");
  cairn_stats heap{};
  cairn_get_stats(&heap);
  const size_t scratch_kib = size_t(heap.reserved_bytes / CAIRN_PAGE_SIZE * 4 / 1024);
  const size_t before = RssKiB();
  CK_OK(cairn_txn_begin());
  CheckGraph(RootAs<Wide>(db), TreeSize());
  CK_OK(cairn_txn_commit());
  const size_t grew = RssKiB() - before;
  Say("rss_grew_kib=%zu scratch_kib=%zu\n", grew, scratch_kib);
  if (!Stress() && !kAddressSanitizer && scratch_kib >= 4096) {
    CK(grew < scratch_kib / 2) << "reading " << TreeSize() << " nodes grew the process by " << grew
                               << " KiB; the heap's scratch is " << scratch_kib << " KiB";
  }
  return 0;
}

class PersistRoundtrip : public PersistTest {};

TEST_F(PersistRoundtrip, ReadingTakesMemoryForWhatIsReadNotForTheHeapsSize) {
  ASSERT_CHILD_OK(Run("Roundtrip_Write"));
  ChildResult r = Run("Roundtrip_ReadMemory");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
}

TEST_F(PersistRoundtrip, GraphReachableFromTheRootIsReadBackEqualByAFreshProcess) {
  ASSERT_CHILD_OK(Run("Roundtrip_Write"));
  ASSERT_CHILD_OK(Run("Roundtrip_Read"));
  // Reading it did not disturb it: a third process reads the same graph.
  ASSERT_CHILD_OK(Run("Roundtrip_Read"));
}

// cairn_identity_hash (cairn/gc.h): fixed when first asked for, and the same while the object
// lives, across collections that move it (objects only the heap reaches) and that pin it
// (objects the stack holds); distinct objects get distinct hashes, mostly.
#include <gtest/gtest.h>

#include <unordered_set>
#include <vector>

#include "cairn/gc.h"
#include "test_types.h"

using namespace cairn_test;

namespace {

// Nodes reachable only through an exact root (so the collector may move them), in a list.
struct List {
  void *head = nullptr;
  List() { cairn_add_exact_root(&head); }
  ~List() { cairn_remove_exact_root(&head); }
};

__attribute__((noinline)) void Build(List *list, int n) {
  for (int i = n - 1; i >= 0; i--) list->head = NewNode(i, static_cast<Node *>(list->head));
}

// The hashes of the list's nodes, in order, and (hidden from the stack) their addresses.
__attribute__((noinline)) void HashAll(const List &list, std::vector<uint64_t> *hashes,
                                       std::vector<HiddenAddress> *where) {
  hashes->clear();
  where->clear();
  for (auto *n = static_cast<Node *>(list.head); n; n = n->left) {
    hashes->push_back(cairn_identity_hash(n));
    where->emplace_back(n);
  }
}

// Garbage between collections, so that the survivors are copied to other places.
__attribute__((noinline)) void Churn(int n) {
  for (int i = 0; i < n; i++) NewNode(-i);
}

}  // namespace

TEST(GcIdentityHash, StaysTheSameWhileObjectsMove) {
  ASSERT_EQ(cairn_init(nullptr), CAIRN_OK);
  const int n = cairn_gc_stress_build() ? 200 : 5000;
  List list;
  Build(&list, n);
  std::vector<uint64_t> first, now;
  std::vector<HiddenAddress> first_at, now_at;
  HashAll(list, &first, &first_at);
  size_t moved_ever = 0;
  for (int round = 0; round < 30; round++) {
    Churn(cairn_gc_stress_build() ? 20 : 2000);
    CollectScrubbed();
    HashAll(list, &now, &now_at);
    ASSERT_EQ(now, first) << "after collection " << round;
    for (int i = 0; i < n; i++) moved_ever += now_at[i].get() != first_at[i].get();
  }
  EXPECT_GT(moved_ever, 0u) << "nothing moved: the test shows nothing";
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST(GcIdentityHash, StaysTheSameForPinnedObjects) {
  // Held by the stack: their pages are pinned, they do not move; their neighbours may die.
  Node *volatile a = NewNode(1);
  Node *volatile b = NewNode(2);
  Churn(100);
  const uint64_t ha = cairn_identity_hash(a), hb = cairn_identity_hash(b);
  for (int round = 0; round < 20; round++) {
    Churn(cairn_gc_stress_build() ? 10 : 1000);
    cairn_collect();
    ASSERT_EQ(cairn_identity_hash(a), ha);
    ASSERT_EQ(cairn_identity_hash(b), hb);
  }
  EXPECT_EQ(a->id, 1);
  EXPECT_EQ(b->id, 2);
}

TEST(GcIdentityHash, DistinctObjectsMostlyDiffer) {
  const int n = cairn_gc_stress_build() ? 500 : 100000;
  List list;
  Build(&list, n);
  std::vector<uint64_t> hashes;
  std::vector<HiddenAddress> at;
  HashAll(list, &hashes, &at);
  std::unordered_set<uint64_t> distinct(hashes.begin(), hashes.end());
  EXPECT_GE(distinct.size(), size_t(n) - size_t(n) / 1000);
  // Spread over the bits: each of the low 8 bits is set in about half of the hashes.
  for (int bit = 0; bit < 8; bit++) {
    size_t ones = 0;
    for (uint64_t h : hashes) ones += h >> bit & 1;
    EXPECT_NEAR(double(ones) / n, 0.5, 0.1) << "bit " << bit;
  }
  // Asking again does not change it.
  EXPECT_EQ(cairn_identity_hash(list.head), hashes[0]);
}

TEST(GcIdentityHash, ADeadObjectsHashIsNotInheritedByItsSuccessor) {
  // An object hashed, then dropped; the collector reuses its memory for new objects. None of
  // them may come out with the dead object's hash just because of where it lies.
  std::unordered_set<uint64_t> dead;
  {
    List list;
    Build(&list, 2000);
    for (auto *p = static_cast<Node *>(list.head); p; p = p->left)
      dead.insert(cairn_identity_hash(p));
    list.head = nullptr;
  }
  CollectScrubbed();
  List fresh;
  Build(&fresh, 2000);
  size_t inherited = 0;
  for (auto *p = static_cast<Node *>(fresh.head); p; p = p->left)
    inherited += dead.count(cairn_identity_hash(p));
  EXPECT_EQ(inherited, 0u);
}
